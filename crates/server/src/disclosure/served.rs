//! A chosen result's content credentials through the whole app, in-process, read by the C2PA reference crate's
//! reader (not this server's own reading): signed under the authority this server made at first start, naming
//! the edit by trained algorithmic media, the service (here the embedded sandbox) and the kept original by its
//! hash; and the originals page saying so.

use std::io::Cursor;

use axum::http::Method;
use c2pa::{Context, Reader, Relationship, ValidationState};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::testing::{TestApp, text};

const STAGED: &str = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";

/// The reference reader's view of `bytes`, trusting `root` when given.
fn read(bytes: &[u8], root: Option<&str>) -> Reader {
    let trust = root.map_or(json!({}), |root| json!({"user_anchors": root}));
    let context = Context::new().with_settings(json!({"trust": trust})).unwrap();
    Reader::from_context(context).with_stream("image/jpeg", Cursor::new(bytes)).expect("credentials in the file")
}

#[tokio::test]
async fn a_chosen_results_credentials_name_its_kept_original_and_its_page_says_they_verify() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let render = server.staged(&alice, &photo, 1).await;
    let choice = json!({"render_id": render["id"], "variation_id": render["variations"]["items"][0]["id"]});
    let (status, chosen) = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&choice).answer().await;
    assert_eq!(status, 200, "{chosen}");
    let on_server = |field: &str| chosen[field].as_str().unwrap().strip_prefix(&server.url).unwrap().to_string();
    let (_, photo) = server.bytes(&on_server("url")).await;
    let (_, original) = server.bytes(&on_server("original_url")).await;

    let root = std::fs::read_to_string(server.data_dir().join("content-credentials/local-authority.pem")).unwrap();
    let reader = read(&photo, Some(&root));
    assert_eq!(reader.validation_state(), ValidationState::Trusted, "{}", reader.json());
    let manifest = reader.active_manifest().unwrap();
    let actions: Value = manifest.find_assertion("c2pa.actions.v2").unwrap();
    let edit = actions["actions"].as_array().unwrap().iter().find(|action| action["action"] == "c2pa.edited");
    let edit = edit.expect("an edit");
    assert_eq!(
        (edit["digitalSourceType"].as_str(), edit["softwareAgent"]["name"].as_str()),
        (Some(STAGED), Some("vstage sandbox"))
    );
    let parent = manifest.ingredients().iter().find(|ingredient| *ingredient.relationship() == Relationship::ParentOf);
    let named =
        parent.and_then(|parent| parent.metadata()).and_then(|metadata| metadata.get_field("vstage.original_sha256"));
    assert_eq!(named.and_then(Value::as_str), Some(hex::encode(Sha256::digest(&original)).as_str()));
    // without this server's authority among its anchors a reader finds them intact but not trusted
    let untrusted = read(&photo, None);
    assert_eq!(untrusted.validation_state(), ValidationState::Valid);

    let (status, page) = text(server.get(&on_server("disclosure_url")).await).await;
    assert_eq!(status, 200);
    assert!(page.contains("Content credentials (C2PA)") && page.contains("content credentials verify"), "{page}");
    assert!(page.contains("They name the original shown here"), "{page}");
}
