//! Where this server keeps files that must outlive the service's addresses: one `object_store` interface over a
//! local directory (the default) or an S3-compatible store (`--storage s3://bucket/prefix`) that several servers share.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::prefix::PrefixStore;

/// `location` as `--storage` gives it: `s3://bucket/prefix` (credentials, region and endpoint from the usual
/// `AWS_*` variables, `AWS_ENDPOINT_URL` and `AWS_ALLOW_HTTP=true` for a local S3-compatible server), or a
/// directory; `default_dir` when none is given.
pub fn open(location: Option<&str>, default_dir: &Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    match location {
        Some(url) if url.starts_with("s3://") => {
            let rest = &url["s3://".len()..];
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            anyhow::ensure!(!bucket.is_empty(), "--storage {url}: name the bucket, as s3://bucket/prefix");
            let store = AmazonS3Builder::from_env()
                .with_bucket_name(bucket)
                .build()
                .with_context(|| format!("--storage {url}: the S3 settings (AWS_* variables) are incomplete"))?;
            let prefix = prefix.trim_matches('/');
            Ok(if prefix.is_empty() { Arc::new(store) } else { Arc::new(PrefixStore::new(store, prefix)) })
        }
        Some(other) if other.contains("://") => {
            anyhow::bail!("--storage {other}: give a directory or s3://bucket/prefix")
        }
        Some(dir) => local(Path::new(dir)),
        None => local(default_dir),
    }
}

fn local(dir: &Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the storage directory {}", dir.display()))?;
    let store =
        LocalFileSystem::new_with_prefix(dir).with_context(|| format!("cannot use {} as storage", dir.display()))?;
    Ok(Arc::new(store))
}
