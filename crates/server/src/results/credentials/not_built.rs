//! Content credentials in a build without the `content-credentials` feature: nothing is signed and nothing read,
//! and every place that would show them says that they are not in this build (`NOT_IN_THIS_BUILD`). An operator's
//! certificate is refused at start (`startup`), never taken and ignored.

use std::path::Path;

use super::{Made, NOT_IN_THIS_BUILD, Verdict};
use crate::storage::store::Store;

/// The stand-in for the signer: it signs nothing.
#[derive(Debug)]
pub struct ContentCredentials;

impl ContentCredentials {
    /// Nothing to make (`startup` has refused an operator's certificate and key already).
    pub async fn for_server(
        _signer_files: (Option<&Path>, Option<&Path>),
        _store: &dyn Store,
        _data_dir: &Path,
        _maker: &'static str,
    ) -> anyhow::Result<Self> {
        Ok(ContentCredentials)
    }

    /// Never a signed copy: the caller keeps `bytes` as they are (`IN_THIS_BUILD` is false).
    pub fn sign(&self, _bytes: &[u8], _made: &Made<'_>, _original: Option<(&str, &[u8])>) -> Result<Vec<u8>, String> {
        Err(NOT_IN_THIS_BUILD.to_string())
    }

    /// Nothing is read: the credentials are not in this build.
    pub fn verify(&self, _bytes: &[u8], _format: &str, _original: Option<&[u8]>) -> Verdict {
        Verdict::NotInThisBuild
    }

    /// One line for `vstage check`.
    pub fn describe(&self) -> String {
        NOT_IN_THIS_BUILD.to_string()
    }
}

/// Run by `cargo xtask test` in its build without the feature (`xtask/src/test.rs`).
#[cfg(test)]
mod tests {
    use axum::http::Method;
    use clap::Parser;
    use img_parts::jpeg::{Jpeg, markers};
    use serde_json::json;

    use crate::cli::{Cli, Command};
    use crate::disclosure::words::words;
    use crate::startup::{Secrets, ServerParts};
    use crate::testing::{TestApp, json, text};

    #[tokio::test]
    async fn without_content_credentials_a_kept_result_carries_none_and_the_server_says_so() {
        let server = TestApp::with_tokens(&[]).await;
        let (_, capabilities) = json(server.get("/api/capabilities").await).await;
        assert_eq!(capabilities["content_credentials"], false, "{capabilities}");

        let alice = server.token("alice");
        let photo = server.sample_url("living-empty.jpg").await;
        let render = server.staged(&alice, &photo, 1).await;
        let choice = json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"]});
        let (status, chosen) = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&choice).answer().await;
        assert_eq!(status, 200, "{chosen}");
        let on_server = |field: &str| chosen[field].as_str().unwrap().strip_prefix(&server.url).unwrap().to_string();
        let (_, kept) = server.bytes(&on_server("url")).await;
        let kept = Jpeg::from_bytes(kept.into()).expect("the kept copy is a JPEG");
        // C2PA's manifest store goes into APP11 segments (JUMBF): none, and the copy is still kept
        assert!(kept.segments().iter().all(|segment| segment.marker() != markers::APP11), "no manifest");
        assert!(!server.data_dir().join("content-credentials").exists(), "no signer made");

        let (status, page) = text(server.get(&on_server("disclosure_url")).await).await;
        assert_eq!(status, 200);
        assert!(
            page.contains(words("en").credentials) && page.contains(words("en").credentials_not_in_this_build),
            "{page}"
        );
    }

    #[tokio::test]
    async fn without_content_credentials_an_operators_certificate_stops_the_start() {
        let data = tempfile::tempdir().unwrap();
        let folder = data.path().to_str().unwrap();
        let command = ["vstage", "serve", "--data-dir", folder, "--dist", folder, "--skip-check", "widget"];
        let signer = ["--c2pa-cert", "/etc/vstage/chain.pem", "--c2pa-key", "/etc/vstage/key.pem"];
        let Command::Serve(args) = Cli::try_parse_from([&command[..], &signer].concat()).unwrap().command else {
            unreachable!("serve was asked for")
        };
        let Err(refused) = ServerParts::make(&args, "http://127.0.0.1:8787", Secrets::default()).await else {
            panic!("a certificate this build cannot use is refused")
        };
        let said = refused.to_string();
        assert!(said.contains("--c2pa-cert") && said.contains("--features content-credentials"), "{said}");
    }
}
