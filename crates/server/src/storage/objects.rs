//! Where this server keeps files: the browsers' uploads and the results kept past the service's addresses, through
//! one `object_store` interface over local directories (the default) or an S3-compatible store
//! (`--storage s3://bucket/prefix`) that several servers share.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use object_store::ClientConfigKey;
use object_store::ObjectStore;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::local::LocalFileSystem;
use object_store::prefix::PrefixStore;

/// The two stores: kept results at the root of the location, uploads under `uploads/`.
#[derive(Debug, Clone)]
pub struct Stores {
    pub results: Arc<dyn ObjectStore>,
    pub uploads: Arc<dyn ObjectStore>,
}

/// `location` as `--storage` gives it: `s3://bucket/prefix` (credentials, region and endpoint from the usual
/// `AWS_*` variables, `AWS_ENDPOINT_URL` and `AWS_ALLOW_HTTP=true` for a local S3-compatible server), or a
/// directory; without one, `results/` and `uploads/` in the data dir.
pub fn open(location: Option<&str>, data_dir: &Path) -> anyhow::Result<Stores> {
    Ok(match location {
        None => Stores { results: local(&data_dir.join("results"))?, uploads: local(&data_dir.join("uploads"))? },
        Some(location) => {
            let results = root(location)?;
            Stores { uploads: Arc::new(PrefixStore::new(results.clone(), "uploads")), results }
        }
    })
}

fn root(location: &str) -> anyhow::Result<Arc<dyn ObjectStore>> {
    if let Some(rest) = location.strip_prefix("s3://") {
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        anyhow::ensure!(!bucket.is_empty(), "--storage {location}: name the bucket, as s3://bucket/prefix");
        let builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        plain_http_is_allowed(&builder, location)?;
        let store = builder
            .build()
            .with_context(|| format!("--storage {location}: the S3 settings (AWS_* variables) are incomplete"))?;
        let prefix = prefix.trim_matches('/');
        return Ok(if prefix.is_empty() { Arc::new(store) } else { Arc::new(PrefixStore::new(store, prefix)) });
    }
    anyhow::ensure!(!location.contains("://"), "--storage {location}: give a directory or s3://bucket/prefix");
    local(Path::new(location))
}

/// An `http://` endpoint (a local S3-compatible server) is refused by the S3 client on every call, with words that
/// name nothing ("builder error"), unless `AWS_ALLOW_HTTP=true`: said here, at start, instead.
fn plain_http_is_allowed(builder: &AmazonS3Builder, location: &str) -> anyhow::Result<()> {
    let Some(endpoint) = builder.get_config_value(&AmazonS3ConfigKey::Endpoint) else {
        return Ok(());
    };
    let allowed = builder
        .get_config_value(&AmazonS3ConfigKey::Client(ClientConfigKey::AllowHttp))
        .is_some_and(|allowed| allowed.eq_ignore_ascii_case("true"));
    anyhow::ensure!(
        allowed || !endpoint.to_ascii_lowercase().starts_with("http://"),
        "--storage {location}: the endpoint {endpoint} (AWS_ENDPOINT_URL) is plain http, which the S3 client \
         refuses unless AWS_ALLOW_HTTP=true; set that, or give an https endpoint"
    );
    Ok(())
}

fn local(dir: &Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the storage directory {}", dir.display()))?;
    let store =
        LocalFileSystem::new_with_prefix(dir).with_context(|| format!("cannot use {} as storage", dir.display()))?;
    Ok(Arc::new(store))
}
