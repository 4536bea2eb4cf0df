//! Result images on disk (`DATA_DIR/files`, or a temporary folder without a data dir), served under `/files`.
//! File names are made from variation ids only, never from input, so no request can name another path.

use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::SandboxError;

/// The longest file name a file system takes (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// No file has a longer name than the file system takes: a path naming one is a 404, not the file system's error.
pub async fn no_overlong_names(request: Request, next: Next) -> Response {
    if request.uri().path().split('/').any(|segment| segment.len() > NAME_MAX) {
        return SandboxError::NotFound("No such file; check the address.".into()).into_response();
    }
    next.run(request).await
}

#[derive(Debug)]
pub struct Files {
    dir: PathBuf,
    /// Keeps a temporary folder alive (and removes it) when there is no data dir.
    _temporary: Option<tempfile::TempDir>,
}

impl Files {
    pub fn open(data_dir: Option<&Path>) -> Result<Files, SandboxError> {
        let (dir, temporary) = match data_dir {
            Some(data_dir) => (data_dir.join("files"), None),
            None => {
                let temporary = tempfile::tempdir()
                    .map_err(|e| SandboxError::Startup(format!("cannot make a temporary folder for images: {e}")))?;
                (temporary.path().to_path_buf(), Some(temporary))
            }
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| SandboxError::Startup(format!("cannot create the images folder {}: {e}", dir.display())))?;
        Ok(Files { dir, _temporary: temporary })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `name` could be one of these files: a plain name, never a path or a hidden file.
    pub fn is_file_name(name: &str) -> bool {
        !name.is_empty()
            && !name.starts_with('.')
            && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-' | b'_'))
    }

    /// Writes `name` atomically (a temporary file renamed into place), so a crash never leaves half an image.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), SandboxError> {
        let path = self.dir.join(name);
        let partial = self.dir.join(format!(".{name}.partial"));
        std::fs::write(&partial, bytes)
            .and_then(|()| std::fs::rename(&partial, &path))
            .map_err(|e| SandboxError::Internal(format!("cannot write {}: {e}", path.display())))
    }
}
