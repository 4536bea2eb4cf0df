//! The start-up checks `vstage serve` makes before it listens, and `vstage check` makes alone: the object store
//! writable and readable, the service reachable with the key accepted, the widget built. Each failure is a
//! sentence that names the setting to change. (The database is checked as it is opened: `storage::open`.)

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail, ensure};
use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::site::loader::Loader;
use crate::upstream::Upstream;
use crate::upstream::http_client::HttpClient;

/// How long the service has to answer the start-up call.
const UPSTREAM_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Writes a probe object, reads it back and deletes it. `location` is how `--storage` named the store.
pub async fn store_works(store: &dyn ObjectStore, location: &str) -> anyhow::Result<()> {
    let path = ObjectPath::from(format!("vstage-start-check/{}", crate::secret::random("probe-")?));
    let probe = Bytes::from_static(b"vstage start-up check");
    store.put(&path, probe.clone().into()).await.map_err(|error| store_failure("write to", location, &error))?;
    let read = async { store.get(&path).await?.bytes().await };
    let read = read.await.map_err(|error| store_failure("read back from", location, &error))?;
    ensure!(read == probe, "the store ({location}) gave back other bytes than were written to it");
    store.delete(&path).await.map_err(|error| store_failure("delete from", location, &error))?;
    Ok(())
}

/// What a failed store call means for the operator, from the S3 error codes the store's words carry.
fn store_failure(doing: &str, location: &str, error: &object_store::Error) -> anyhow::Error {
    let words = crate::error::with_causes(error);
    if words.contains("NoSuchBucket") {
        return anyhow!("the bucket of --storage {location} does not exist: create it, or name an existing one");
    }
    if words.contains("AccessDenied") || words.contains("InvalidAccessKeyId") || words.contains("SignatureDoesNotMatch")
    {
        return anyhow!(
            "the store refused this server's credentials for --storage {location}: check AWS_ACCESS_KEY_ID and \
             AWS_SECRET_ACCESS_KEY ({words})"
        );
    }
    anyhow!("cannot {doing} the store (--storage {location}): {words}")
}

/// `GET /v2/user` with the key: the service answers, and takes the key.
pub async fn upstream_accepts_the_key(upstream: &Upstream, http: &HttpClient) -> anyhow::Result<()> {
    let base = upstream.base();
    let status = upstream.probe(http, UPSTREAM_TIME_LIMIT).await?.map_err(|failure| {
        anyhow!("cannot reach the service at {base} (--upstream): {failure}; check the address and the network")
    })?;
    match status.as_u16() {
        200..=299 => Ok(()),
        status @ (401 | 403) => {
            bail!("the service at {base} refused the API key (HTTP {status}): set VSTAGE_API_KEY to the account's key")
        }
        status => bail!("the service at {base} answered GET /v2/user with HTTP {status}; check --upstream"),
    }
}

/// The widget's page and its build in `dist`.
pub fn widget_is_built(dist: &Path, loader: &Loader) -> anyhow::Result<()> {
    if let Err(missing) = loader.built() {
        bail!("{} (--dist {})", missing.trim_start_matches("vstage: "), dist.display());
    }
    ensure!(
        dist.join("index.html").is_file(),
        "--dist {} has no index.html; build the widget with `cargo xtask run` or `trunk build --release`",
        dist.display()
    );
    Ok(())
}

/// The checks `serve` skips when asked (`--skip-check`), with their reason said once.
pub fn skipped(what: &str) {
    tracing::warn!("start-up check of {what} skipped (--skip-check)");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_writable_store_passes_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let store = object_store::local::LocalFileSystem::new_with_prefix(dir.path()).unwrap();
        store_works(&store, "a folder").await.unwrap();
        let left: Vec<_> = walk(dir.path());
        assert!(left.iter().all(|path| path.is_dir()), "only empty folders may stay: {left:?}");
    }

    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .flat_map(|entry| {
                let path = entry.unwrap().path();
                let mut found = vec![path.clone()];
                if path.is_dir() {
                    found.extend(walk(&path));
                }
                found
            })
            .collect()
    }

    #[test]
    fn a_missing_build_names_the_folder_and_how_to_build() {
        let dir = tempfile::tempdir().unwrap();
        let error = widget_is_built(dir.path(), &Loader::from_dist(dir.path())).unwrap_err().to_string();
        assert!(error.contains("cargo xtask run") && error.contains(&dir.path().display().to_string()), "{error}");
    }

    #[test]
    fn store_errors_name_the_setting() {
        let missing = object_store::Error::Generic {
            store: "S3",
            source: "Client error with status 404 Not Found: <Code>NoSuchBucket</Code>".into(),
        };
        let said = store_failure("write to", "s3://listings/studio", &missing).to_string();
        assert!(said.contains("does not exist") && said.contains("s3://listings/studio"), "{said}");
        let other = object_store::Error::Generic { store: "S3", source: "connection reset".into() };
        let said = store_failure("write to", "s3://listings/studio", &other).to_string();
        assert!(said.contains("cannot write to the store") && said.contains("connection reset"), "{said}");
    }
}
