//! Disclosure from "Use in listing" to what a host page shows, for each profile, on a listing site of its own origin
//! under exactly the Content-Security-Policy docs/embedding.md gives; then the originals page as a phone opens it
//! from the QR code: its photos, its content credentials verified, no script, and nothing serious for axe, in
//! English and German.

use std::time::Duration;

use serde_json::{Value, json};
use thirtyfour::prelude::*;
use thirtyfour::stringmatch::StringMatch;

use crate::accessibility::{axe_script, serious_violations};
use crate::browser::{click_text, shadow_root, with_browser, with_text};
use crate::embed::server_for_a_host;

/// The host's own script (a CSP without `'unsafe-inline'` takes no inline script): it records what the studio
/// says and what the policy blocks, and shows each chosen result as docs/embedding.md's gallery does.
const HOST_SCRIPT: &str = r#"
window.heard = []; window.chosen = []; window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
for (const type of ["vstage-ready", "vstage-error"]) {
  document.addEventListener(type, (event) => window.heard.push({ type, detail: event.detail }));
}
const gallery = document.getElementById("gallery");
function photo(url, caption, role) {
  const figure = document.createElement("figure");
  figure.className = role;
  const image = document.createElement("img");
  image.src = url;
  image.alt = caption;
  const text = document.createElement("figcaption");
  text.textContent = caption;
  figure.append(image, text);
  return figure;
}
document.addEventListener("vstage-result-chosen", ({ detail: chosen }) => {
  window.chosen.push(chosen);
  const entry = document.createElement("li");
  if (chosen.placement === "original-first") entry.append(photo(chosen.original_url, "Original photo", "original"));
  const shown = photo(chosen.watermarked ? chosen.url : chosen.optimized_url || chosen.url, chosen.statement ?? "", "altered");
  if (chosen.qr_svg_url) {
    const code = document.createElement("img");
    code.className = "qr";
    code.src = chosen.qr_svg_url;
    code.alt = "QR code of the original photo's page";
    shown.append(code);
  }
  if (chosen.disclosure_url) {
    const link = document.createElement("a");
    link.href = chosen.disclosure_url;
    link.textContent = "See the original photo";
    shown.append(link);
  }
  entry.append(shown);
  if (chosen.description_text) entry.dataset.description = chosen.description_text;
  if (chosen.remarks_sentence) document.getElementById("remarks").textContent = chosen.remarks_sentence;
  if (chosen.private_remarks_sentence) document.getElementById("agents-remarks").textContent = chosen.private_remarks_sentence;
  gallery.append(entry);
});
"#;

fn host_page(vstage: &str, token: &str, render_id: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A listing under a CSP</title>
<script type="module" src="{vstage}/embed.js"></script>
</head><body>
<h1>14 Alder Lane</h1>
<p id="remarks"></p>
<p id="agents-remarks"></p>
<ul id="gallery"></ul>
<vstage-widget token="{token}" view="render" render-id="{render_id}" show="classic"></vstage-widget>
<script src="/host.js"></script>
</body></html>"#
    )
}

/// The host's origin: its page with exactly the documented policy, and its script.
async fn start_host(listener: tokio::net::TcpListener, page: String, vstage: &str) -> tokio::task::JoinHandle<()> {
    use axum::http::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE};
    let policy =
        format!("script-src 'self' {vstage} 'wasm-unsafe-eval'; connect-src {vstage}; img-src 'self' {vstage} blob:");
    let app = axum::Router::new()
        .route(
            "/",
            axum::routing::get(move || async move {
                ([(CONTENT_SECURITY_POLICY, policy), (CONTENT_TYPE, "text/html; charset=utf-8".into())], page)
            }),
        )
        // at the end of the body: it needs the page's elements, and runs before the module that starts the studio
        .route("/host.js", axum::routing::get(|| async { ([(CONTENT_TYPE, "text/javascript")], HOST_SCRIPT) }));
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    })
}

/// Waits for `script` (returning a value or null) to return a value.
async fn until(driver: &WebDriver, script: &str) -> WebDriverResult<Value> {
    for _ in 0..600 {
        let value: Value = driver.execute(script, vec![]).await?.convert()?;
        if !value.is_null() {
            return Ok(value);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(WebDriverError::ParseError(format!("never true: {script}")))
}

/// What the host shows for its `n`th chosen result (from 1): the detail, and the gallery entry's images (with
/// whether each loaded), caption, link and description, and the remarks (public and the agents').
async fn shown(driver: &WebDriver, n: usize) -> WebDriverResult<Value> {
    let script = format!(
        r##"const entry = document.querySelectorAll("#gallery li")[{index}];
           if (!entry || ![...entry.querySelectorAll("img")].every((i) => i.complete)) return null;
           return {{ chosen: window.chosen[{index}],
                     images: [...entry.querySelectorAll("img")].map((i) => ({{ role: i.className || i.closest("figure").className, src: i.src, loaded: i.naturalWidth > 0 }})),
                     caption: entry.querySelector(".altered figcaption").textContent,
                     link: entry.querySelector("a")?.href ?? null,
                     description: entry.dataset.description ?? null,
                     remarks: document.getElementById("remarks").textContent,
                     agents_remarks: document.getElementById("agents-remarks").textContent }};"##,
        index = n - 1
    );
    until(driver, &script).await
}

/// The studio set to show `render_id` on `view` under the `disclosure` rules, as a host would set it.
async fn show(driver: &WebDriver, disclosure: &str, view: &str, render_id: &Value) -> WebDriverResult<()> {
    let widget = "document.querySelector('vstage-widget')";
    let script = format!(
        "{widget}.setAttribute('disclosure', arguments[0]); {widget}.setAttribute('render-id', arguments[1]); \
         {widget}.setAttribute('view', arguments[2])"
    );
    driver.execute(&script, vec![json!(disclosure), render_id.clone(), json!(view)]).await.map(drop)
}

fn roles(shown: &Value) -> Vec<String> {
    shown["images"].as_array().unwrap().iter().map(|image| image["role"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn each_profile_s_disclosure_reaches_a_host_under_its_content_security_policy() {
    let (host_listener, host_origin, server, secret) = server_for_a_host().await;
    let agent = secret.mint("agent-ana", Duration::from_secs(3600), Some(&host_origin));
    let samples: Vec<Value> = reqwest::get(server.api("/samples")).await.unwrap().json().await.unwrap();
    // finished renders of the agent's, made through the API as the widget would
    let create = |path: &str, body: Value| {
        let request = reqwest::Client::new()
            .post(server.api(path))
            .bearer_auth(&agent)
            .header("Origin", &host_origin)
            .json(&body);
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let photo = samples[0]["url"].clone();
    let render = create(
        "/v2/renders",
        json!({"image_url": photo, "variation_count": 1, "wait_for_completion": true,
        "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}}}),
    )
    .await;
    let classic = create(
        "/v1/render/create",
        json!({"image_url": photo, "room_type": "living", "style": "modern",
        "wait_for_completion": true}),
    )
    .await;
    let outside = create(
        "/v2/renders",
        json!({"image_url": photo, "variation_count": 1, "wait_for_completion": true,
        "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "outdoor"}}}),
    )
    .await;
    let render_id = render["id"].as_str().unwrap().to_string();
    let _host = start_host(host_listener, host_page(&server.url, &agent, &render_id), &server.url).await;

    with_browser(|driver| async move {
        driver.goto(&host_origin).await?;
        until(&driver, "return window.heard.find((e) => e.type === 'vstage-ready') ?? null").await?;
        let studio = shadow_root(&driver.find(By::Css("vstage-widget")).await?).await?;
        let mut chosen = 0;
        let mut choose = |profile: &'static str| {
            chosen += 1;
            let (driver, studio, n) = (driver.clone(), studio.clone(), chosen);
            async move {
                driver
                    .execute("document.querySelector('vstage-widget').setAttribute('disclosure', arguments[0])", vec![json!(profile)])
                    .await?;
                click_text(&studio, "button", "Use in listing").await?;
                let shown = shown(&driver, n).await?;
                assert_eq!(shown["chosen"]["profile"], profile, "{shown}");
                for image in shown["images"].as_array().unwrap() {
                    assert_eq!(image["loaded"], true, "{profile}: {image} loads under the host's policy");
                }
                WebDriverResult::Ok(shown)
            }
        };

        let ab723 = choose("ab723").await?;
        let page = ab723["chosen"]["disclosure_url"].as_str().unwrap().to_string();
        assert!(page.starts_with(&format!("{}/disclosures/dsc_", server.url)), "{ab723}");
        let statute = "Virtually staged: this image was digitally altered. The unaltered original can be accessed \
                       at the linked page or QR code";
        assert_eq!(ab723["caption"], format!("{statute}: {page}"));
        assert_eq!(ab723["link"], page.as_str());
        // RESO's Media fields for the MLS feed, in the event as the record has them
        let reso = &ab723["chosen"]["reso"];
        assert!(reso["MediaAlteration"].as_array().is_some_and(|v| v.contains(&json!("VirtualStagingItemAddition"))));
        assert_eq!(reso["LongDescription"], ab723["chosen"]["statement"], "{reso}");
        assert_eq!(roles(&ab723), ["altered", "qr"]);
        // the result is in the listing under these rules: said so, in place of the photo it was made from, and not
        // offered again
        let replacing = format!("In the listing ✓, in place of {}", samples[0]["name"].as_str().unwrap());
        with_text(&studio, ".vstage-in-listing", replacing).first().await?;
        with_text(&studio, "button", "Use in listing").not_exists().await?;

        let crmls = choose("crmls").await?;
        assert_eq!(roles(&crmls), ["original", "altered", "qr"], "the original comes first: {crmls}");
        assert_eq!(crmls["description"], "Virtually staged. The original photo is shown right before this one.");

        let smart = choose("smart-mls").await?;
        assert_eq!(roles(&smart), ["altered"], "no QR code: {smart}");
        let labelled = smart["images"][0]["src"].as_str().unwrap();
        assert!(labelled.contains("-labelled-en.jpg"), "the labelled copy: {smart}");
        assert_eq!(smart["caption"], "Virtually staged");

        let mls_now = choose("mls-now").await?;
        assert_eq!(roles(&mls_now), ["altered"], "nothing on the photo: {mls_now}");
        assert_eq!(mls_now["caption"], "", "no statement next to it");
        let description = mls_now["description"].as_str().unwrap();
        let altered = "Virtually staged: this image was digitally altered. The unaltered original can be accessed at \
                       the linked page: ";
        assert!(description.starts_with(altered) && description.contains("/disclosures/dsc_"), "{description}");

        let stellar = choose("stellar").await?;
        assert_eq!(stellar["remarks"], "One or more photo(s) was virtually staged.");

        let realtracs = choose("realtracs").await?;
        assert_eq!(roles(&realtracs), ["original", "altered"], "the room as it is first, nothing on the photo: {realtracs}");
        assert_eq!(realtracs["description"], "Virtually staged. The original photo is shown right before this one.");
        assert_eq!((&realtracs["caption"], &realtracs["link"]), (&json!(""), &Value::Null), "{realtracs}");

        // RMLS: the labelled copy and nothing else on it; MAAR: the agents' remarks, nothing on the photo
        let rmls = choose("rmls").await?;
        assert_eq!(roles(&rmls), ["altered"], "no QR code: {rmls}");
        assert!(rmls["images"][0]["src"].as_str().unwrap().contains("-labelled-rmls.jpg"), "{rmls}");
        assert_eq!(rmls["caption"], "Virtually Staged", "the rule's words");
        let maar = choose("maar").await?;
        assert_eq!((&maar["caption"], &maar["link"], &maar["description"]), (&json!(""), &Value::Null, &Value::Null));
        assert_eq!(maar["agents_remarks"], "One or more photo(s) was virtually staged.");

        let none = choose("none").await?;
        assert_eq!((&none["caption"], &none["link"], &none["description"]), (&json!(""), &Value::Null, &Value::Null));
        assert_eq!(roles(&none), ["altered"]);

        // A classic (v1) render's output is recorded and disclosed the same way.
        show(&driver, "ab723", "classic-render", &classic["render_id"]).await?;
        click_text(&studio, "button", "Use in listing").await?;
        let v1 = shown(&driver, 10).await?;
        assert_eq!(v1["chosen"]["variation_id"], "v1-output-0", "{v1}");
        let v1_page = v1["chosen"]["disclosure_url"].as_str().unwrap_or_default();
        assert!(v1_page.contains("/disclosures/dsc_") && v1_page != page, "a record of its own: {v1}");
        assert_eq!(v1["caption"], format!("{statute}: {v1_page}"));
        assert_eq!(roles(&v1), ["altered", "qr"]);

        // A staged exterior under MAAR's rules: the studio says why, and the listing gets nothing.
        show(&driver, "maar", "render", &outside["id"]).await?;
        click_text(&studio, "button", "Use in listing").await?;
        let refused = with_text(&studio, "p.vstage-error", StringMatch::new("Not sent to the listing").partial());
        let refused = refused.first().await?.text().await?;
        assert!(refused.contains("outside of the property") && refused.contains("MAAR"), "{refused}");
        let handed: u64 = driver.execute("return window.chosen.length", vec![]).await?.convert()?;
        assert_eq!(handed, 10, "nothing more reached the listing");
        with_text(&studio, "button", "Use in listing").first().await?;
        // the refusal was about that render: another one shown, it is gone
        show(&driver, "maar", "render", &json!(render_id)).await?;
        let living = StringMatch::new("Living room").partial();
        with_text(&studio, ".vstage-render-head", living).first().await?;
        let refusal = with_text(&studio, "p.vstage-error", StringMatch::new("Not sent to the listing").partial());
        refusal.not_exists().await?;

        let violations: Vec<String> = driver.execute("return window.violations", vec![]).await?.convert()?;
        assert!(violations.is_empty(), "the documented policy lets everything in: {violations:?}");

        // The originals page, as a phone opens it from the QR code.
        driver.set_window_rect(0, 0, 390, 844).await?;
        driver.goto(&page).await?;
        let scripts = driver.find_all(By::Css("script")).await?;
        assert!(scripts.is_empty(), "no script on the originals page");
        let loaded: bool = driver
            .execute("return [...document.images].length === 2 && [...document.images].every((i) => i.complete && i.naturalWidth > 0)", vec![])
            .await?
            .convert()?;
        assert!(loaded, "the altered photo and the original load");
        let heading = driver.find(By::Css("h1")).await?.text().await?;
        assert_eq!(heading, "This listing photo was digitally altered");
        // the photo's content credentials, read back by the server, verify and name the original shown
        let credentials = driver.find(By::Css("#credentials")).await?.text().await?;
        assert!(credentials.contains("content credentials verify"), "{credentials}");
        assert!(credentials.contains("They name the original shown here"), "{credentials}");
        // axe is evaluated by the driver: the page's own policy refuses any script element
        let axe = axe_script();
        driver.execute(&format!("{axe}\n;return typeof window.axe;"), vec![]).await?;
        let serious = serious_violations(&driver, &axe).await?;
        assert!(serious.is_empty(), "axe on the originals page: {serious:?}");
        // and in German
        driver.goto(&format!("{page}&lang=de")).await?;
        let heading = driver.find(By::Css("h1")).await?.text().await?;
        assert_eq!(heading, "Dieses Inseratsfoto wurde digital verändert");
        let credentials = driver.find(By::Css("#credentials")).await?.text().await?;
        assert!(credentials.contains("Inhaltsnachweise des Fotos sind gültig"), "{credentials}");
        driver.execute(&format!("{axe}\n;return typeof window.axe;"), vec![]).await?;
        let serious = serious_violations(&driver, &axe).await?;
        assert!(serious.is_empty(), "axe on the German originals page: {serious:?}");
        Ok(())
    })
    .await;
}
