//! The kit for hosts (`kit/`): its declarations and both example hosts type-check with TypeScript's own compiler,
//! a full sample of every event's `detail`, serialized from vstage_api's types, is what the declarations say; the
//! token helper makes docs/embedding.md's test vector; and each example, bundled with esbuild and served by its
//! Node backend, is walked in Chromium: the studio mounts, the host renews its expired first token, a chosen result
//! reaches the host's page, and closing the studio ends its event stream.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};
use thirtyfour::prelude::*;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use vstage_api::disclosure::{DisclosureProfile, Placement, ResoMedia};
use vstage_api::host_events::{
    AllowanceLevel, Ready, RenderCreated, ResultChosen, TokenExpired, VariationDone, WidgetError,
};
use vstage_api::host_reference::HostReference;
use vstage_api::render::{ResultImage, VariationResult};
use vstage_api::usage::UsageKind;
use vstage_api::vocabulary::VariationType;
use vstage_postgres_cluster::unused_loopback_port;

use crate::browser::{click_text, dist, studio, with_browser};
use crate::support::Server;

const SECRET: &str = "host-kit-test-secret-0123456789abcdef";
/// Long enough for the sandbox to finish a variation on a busy machine.
const FINISH: Duration = Duration::from_secs(60);

fn kit() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../kit")
}

/// A command of the kit's npm packages (`cargo xtask setup` installs them from kit/package-lock.json).
fn kit_tool(name: &str) -> std::process::Command {
    let path = kit().join("node_modules/.bin").join(name);
    assert!(path.is_file(), "no {}: run `cargo xtask setup`, which installs the kit's packages", path.display());
    std::process::Command::new(path)
}

fn succeeds(command: &mut std::process::Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what} could not start: {e}"));
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_declarations_the_token_helper_and_both_examples_type_check() {
    for project in [".", "examples/react", "examples/vue"] {
        succeeds(kit_tool("tsc").arg("-p").arg(kit().join(project)), &format!("tsc -p kit/{project}"));
    }
}

fn full<T: Serialize>(detail: T) -> Value {
    serde_json::to_value(detail).unwrap()
}

/// Every event's detail with every field there is, as the widget sends it.
fn every_detail() -> Vec<(&'static str, Value)> {
    let image = |name: &str| ResultImage {
        url: format!("https://vstage.example/{name}.jpg"),
        optimized_url: Some(format!("https://vstage.example/{name}-web.jpg")),
        thumbnail_url: Some(format!("https://vstage.example/{name}-small.jpg")),
    };
    let reference = HostReference {
        listing_id: Some("L-1042".into()),
        photo_id: Some("photo-7".into()),
        metadata: Some([("mls".to_string(), json!(1042)), ("agent".to_string(), json!("a-17"))].into()),
    };
    let chosen = ResultChosen {
        subject: Some("agent-17".into()),
        chosen_at: Some("2026-12-02T08:00:00.000Z".into()),
        render_id: "rnd_1".into(),
        variation_id: "var_1".into(),
        variation_type: Some(VariationType::Staging),
        image_index: 1,
        url: "https://vstage.example/1.jpg".into(),
        optimized_url: Some("https://vstage.example/1-web.jpg".into()),
        thumbnail_url: Some("https://vstage.example/1-small.jpg".into()),
        original_url: Some("https://vstage.example/original.jpg".into()),
        replaces: Some("https://listing.example/photos/living.jpg".into()),
        virtually_staged: true,
        disclosure: "Virtually staged.".into(),
        disclosure_id: Some("dsc_1".into()),
        profile: Some(DisclosureProfile::Ab723),
        statement: Some("Virtually staged: this image was digitally altered. ...: https://vstage.example/d".into()),
        statement_words: Some("Virtually staged: this image was digitally altered. ...".into()),
        link_words: Some("Unaltered original photo".into()),
        description_text: Some("Photo 1 was virtually staged.".into()),
        remarks_sentence: Some("Some photos were virtually staged.".into()),
        private_remarks_sentence: Some("One or more photo(s) was virtually staged.".into()),
        disclosure_url: Some("https://vstage.example/disclosures/dsc_1".into()),
        qr_svg_url: Some("https://vstage.example/disclosures/dsc_1/qr.svg".into()),
        qr_png_url: Some("https://vstage.example/disclosures/dsc_1/qr.png".into()),
        placement: Some(Placement::NextToAlteredPhoto),
        watermarked: false,
        exempt: false,
        reso: Some(ResoMedia {
            media_alteration: vec!["DeclutteredItemRemoved".into(), "VirtualStagingItemAddition".into()],
            long_description: "Virtually staged: this image was digitally altered.".into(),
        }),
        processing: Some("Furniture added in the modern style".into()),
        lang: Some("en".into()),
        reference: reference.clone(),
    };
    let allowance = AllowanceLevel { kind: UsageKind::ImageEditing, used: 8, limit: 10, renews_at: 1_800_000_000_000 };
    let done = |result| VariationDone {
        render_id: "rnd_1".into(),
        variation_id: "var_1".into(),
        variation_type: Some(VariationType::DayToDusk),
        result,
        reference: HostReference::default(),
    };
    vec![
        ("VstageReadyDetail", full(Ready { api_base: "https://vstage.example/api".into() })),
        ("VstageRenderCreatedDetail", full(RenderCreated { render_id: "rnd_1".into(), reference })),
        ("VstageVariationDoneDetail", full(done(Some(VariationResult::One(image("one")))))),
        ("VstageVariationDoneDetail", full(done(Some(VariationResult::Many(vec![image("a"), image("b")]))))),
        ("VstageVariationDoneDetail", full(done(None))),
        ("VstageResultChosenDetail", full(chosen)),
        ("VstageTokenExpiredDetail", full(TokenExpired { message: "The token expired".into() })),
        ("VstageAllowanceDetail", full(allowance)),
        ("VstageErrorDetail", full(WidgetError { message: "Unknown view".into() })),
    ]
}

/// Plain DOM: the tag's element type, its properties, and typed listeners on the element and the document.
const PLAIN_DOM: &str = r#"
const widget = document.createElement("vstage-widget");
widget.token = "v1.a.b";
widget.view = "board";
widget.photoUrl = null;
widget.addEventListener("vstage-result-chosen", (event) => { const url: string = event.detail.url; void url; });
document.addEventListener("vstage-allowance-spent", (event) => { const left: number = event.detail.limit - event.detail.used; void left; });
const found: VstageWidgetElement | null = document.querySelector("vstage-widget");
void found;
"#;

#[test]
fn every_event_detail_the_widget_sends_is_what_the_declarations_say() {
    let dir = tempfile::tempdir().unwrap();
    let samples = every_detail();
    let mut names: Vec<&str> = samples.iter().map(|(name, _)| *name).collect();
    names.extend(["VstageWidgetElement"]);
    names.sort_unstable();
    names.dedup();
    let declarations = kit().canonicalize().unwrap().join("vstage-widget");
    let mut source = format!("import type {{ {} }} from {:?};\n", names.join(", "), declarations.display().to_string());
    for (index, (name, detail)) in samples.iter().enumerate() {
        // An object literal given a type: a field the declarations lack, or one they need and it lacks, fails.
        source.push_str(&format!("export const sample{index}: {name} = {detail};\n"));
    }
    source.push_str(PLAIN_DOM);
    let file = dir.path().join("details.ts");
    std::fs::write(&file, source).unwrap();
    let options = ["--noEmit", "--strict", "--target", "ES2022", "--lib", "ES2022,DOM", "--module", "ESNext"];
    succeeds(
        kit_tool("tsc").args(options).args(["--moduleResolution", "bundler", "--types", ""]).arg(&file),
        "tsc over every event's detail",
    );
}

#[test]
fn the_token_helper_makes_the_documented_test_vector() {
    let script = r#"import("./widget-token.mjs").then(({ widgetToken }) => console.log(widgetToken({
        secret: "test-vector-secret-for-vstage-tokens", sub: "agent-7", exp: 4102444800,
        origin: "https://listings.example" })))"#;
    let output = std::process::Command::new("node").current_dir(kit()).args(["-e", script]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let vector = "v1.eyJzdWIiOiJhZ2VudC03IiwiZXhwIjo0MTAyNDQ0ODAwLCJvcmlnaW4iOiJodHRwczovL2xpc3RpbmdzLmV4YW1wbGUifQ.\
                  kPzeVRkrhUFeqBA42hUiwH9he5_G11xsWAk0XrCo4gw";
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), vector);
    let documented = std::fs::read_to_string(kit().join("../docs/embedding.md")).unwrap();
    assert!(documented.contains(vector), "docs/embedding.md gives the vector the helper makes");
}

/// `example` bundled as the docs say, with the esbuild `cargo xtask setup` installs (`VSTAGE_ESBUILD`).
fn bundled(example: &str, into: &Path) {
    let esbuild = std::env::var_os("VSTAGE_ESBUILD")
        .map_or_else(|| kit().join("../target/tools/esbuild/node_modules/.bin/esbuild"), PathBuf::from);
    let source = kit().join("examples").join(example).join("main.tsx");
    let mut command = std::process::Command::new(esbuild);
    command.arg(source).args(["--bundle", "--format=esm", "--jsx=automatic"]);
    command.arg("--define:process.env.NODE_ENV=\"production\"");
    if example == "vue" {
        command.args(["--jsx-import-source=vue", "--define:__VUE_OPTIONS_API__=false"]);
        command
            .args(["--define:__VUE_PROD_DEVTOOLS__=false", "--define:__VUE_PROD_HYDRATION_MISMATCH_DETAILS__=false"]);
    }
    succeeds(command.arg(format!("--outfile={}", into.join(format!("{example}.js")).display())), "esbuild");
}

/// The examples' Node backend (kit/examples/host.mjs) on `port`, once it says it listens.
async fn node_host(port: u16, vstage: &str, bundles: &Path, photo: &str) -> Child {
    let mut host = Command::new("node")
        .arg(kit().join("examples/host.mjs"))
        .env("PORT", port.to_string())
        .env("VSTAGE_URL", vstage)
        .env("VSTAGE_WIDGET_SECRET", SECRET)
        .env("HOST_BUNDLES", bundles)
        .env("PHOTO_URL", photo)
        // the first token is already spent: the host's renewal is what the studio waits for
        .env("FIRST_TOKEN_TTL_S", "-60")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs the example host");
    let mut lines = BufReader::new(host.stdout.take().unwrap()).lines();
    let said = tokio::time::timeout(FINISH, lines.next_line()).await.expect("the example host starts");
    assert!(said.unwrap().is_some_and(|line| line.contains("example host on")), "the example host listens");
    host
}

/// Waits until the host's page lists `line` among what it heard from the studio.
async fn host_heard(driver: &WebDriver, line: &str) -> WebDriverResult<Vec<String>> {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let heard: Vec<String> = driver
            .execute("return [...document.querySelectorAll('#host-log li')].map((li) => li.textContent)", vec![])
            .await?
            .convert()?;
        if heard.iter().any(|said| said.starts_with(line)) {
            return Ok(heard);
        }
        if tokio::time::Instant::now() > deadline {
            return Err(WebDriverError::ParseError(format!("the host never heard {line:?}; it heard {heard:?}")));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The server's count of open event streams, waited for until `wanted` says yes.
async fn streams_open_until(metrics: &str, wanted: impl Fn(u64) -> bool) -> u64 {
    let deadline = tokio::time::Instant::now() + FINISH;
    loop {
        let scrape = reqwest::get(format!("http://{metrics}/metrics")).await.unwrap().text().await.unwrap();
        let open = scrape
            .lines()
            .find_map(|line| line.strip_prefix("vstage_event_streams_open "))
            .and_then(|value| value.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if wanted(open) {
            return open;
        }
        assert!(tokio::time::Instant::now() < deadline, "the server still has {open} event streams open");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One example host walked: mount, renewal, a result chosen for the listing, the studio closed.
async fn walk(example: &'static str) {
    let bundles = tempfile::tempdir().unwrap();
    bundled(example, bundles.path());
    let port = unused_loopback_port();
    let host_origin = format!("http://127.0.0.1:{port}");
    let metrics = format!("127.0.0.1:{}", unused_loopback_port());
    let args = ["--access", "token", "--allow-origin", &host_origin, "--metrics-listen", &metrics];
    let server = Server::start_with(&dist(), &args, &[("VSTAGE_WIDGET_SECRET", SECRET)]).await;
    let samples: Vec<Value> = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    let photo = samples[0]["url"].as_str().unwrap().to_string();
    let _host = node_host(port, &server.url, bundles.path(), &photo).await;

    with_browser(|driver| async move {
        driver.goto(format!("{host_origin}/{example}")).await?;
        // The first token was refused; the host asked its backend for another and the studio went on with it.
        host_heard(&driver, "Token renewed").await?;
        host_heard(&driver, "Studio ready").await?;
        let studio = studio(&driver).await?;
        let field = studio.query(By::Css("input[type=url]")).first().await?;
        assert_eq!(field.prop("value").await?.as_deref(), Some(photo.as_str()), "the listing's photo");
        click_text(&studio, "button[type=submit]", "Create render").await?;
        click_text(&studio, "button", "Use in listing").await?;
        let heard = host_heard(&driver, "Chosen: ").await?;
        assert!(!heard.iter().any(|line| line.starts_with("Studio error")), "{heard:?}");
        let chosen: Value = driver
            .execute(
                r##"const img = document.querySelector("#chosen img"), link = document.querySelector("#chosen a");
                   return { loaded: img.complete && img.naturalWidth > 0, src: img.src, link: link?.href,
                            caption: document.querySelector("#chosen figcaption").textContent };"##,
                vec![],
            )
            .await?
            .convert()?;
        assert!(chosen["src"].as_str().is_some_and(|src| src.starts_with(&server.url)), "{chosen}");
        let page = format!("{}/disclosures/dsc_", server.url);
        assert!(chosen["link"].as_str().is_some_and(|link| link.starts_with(&page)), "{chosen}");
        let caption = chosen["caption"].as_str().unwrap_or_default();
        assert!(caption.starts_with("Virtually staged: this image was digitally altered."), "{chosen}");
        assert!(caption.contains("Unaltered original photo"), "the link's words: {chosen}");

        // Closing the studio unmounts it: its element goes, and the server's stream for it ends.
        streams_open_until(&metrics, |open| open >= 1).await;
        click_text(&*driver, "#toggle-studio", "Close the studio").await?;
        assert!(driver.find_all(By::Css("vstage-widget")).await?.is_empty(), "the element is gone");
        streams_open_until(&metrics, |open| open == 0).await;
        Ok(())
    })
    .await;
}

#[tokio::test]
async fn the_react_host_renews_the_token_hears_the_choice_and_unmounts_the_studio() {
    walk("react").await;
}

#[tokio::test]
async fn the_vue_host_renews_the_token_hears_the_choice_and_unmounts_the_studio() {
    walk("vue").await;
}
