//! Every response shape of service-api.md (and its appendix), read from fixtures written from the document, and every
//! request shape written exactly as service-api.md spells it.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use vstage_api::*;

fn fixture<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(name: &str) -> T {
    let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let value: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // what is read is written back and read again unchanged
    let again: T = serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    assert_eq!(again, value, "{name} round-trips");
    value
}

#[test]
fn a_render_with_every_kind_of_variation() {
    let render: Render = fixture("render_with_variations");
    assert_eq!(render.id, "rnd_01");
    assert_eq!(render.queued_at.as_ref().unwrap().millis(), 1_732_190_400_123);
    let page = render.variations.as_ref().unwrap();
    assert_eq!((page.total_count, page.next_cursor.as_deref()), (Some(5), Some("var_05")));
    let [removal, staged, legacy, unknown] = &page.items[..] else { panic!("four variations") };

    assert_eq!(removal.kind, Some(VariationType::Removal));
    assert!(matches!(removal.config, Some(Config::RemovalOnly(_))));
    assert_eq!(removal.eta, None, "null eta");
    let image = removal.result.as_ref().unwrap().primary().unwrap();
    assert_eq!(image.thumbnail(), "https://cdn.example/var_01.webp", "falls back to the optimized image");

    assert_eq!(staged.base_variation_id.as_deref(), Some("var_01"));
    let Some(VariationResult::Many(images)) = &staged.result else { panic!("a result array") };
    assert_eq!(images.len(), 2);
    let Some(Config::Staging(config)) = &staged.config else { panic!("a staging config") };
    assert_eq!(config.add_furniture.room_type, RoomType::Bed);
    assert_eq!(config.remove_furniture.as_ref().unwrap().mode, RemovalMode::Auto);

    assert_eq!(legacy.kind, None, "type is optional");
    assert!(matches!(
        &legacy.config,
        Some(Config::LegacyStaging(c)) if c.style == Style::Hamptons && c.style.current() == Style::Coastal
    ));

    assert_eq!(unknown.status, VariationStatus::Other("upscaling".into()));
    assert!(unknown.status.is_final(), "a status no client knows is not waited on");
    assert_eq!(unknown.kind, Some(VariationType::Other("virtual_renovation".into())));
    assert!(matches!(&unknown.config, Some(Config::Other(v)) if v["floor"] == "oak"));
    assert_eq!(unknown.eta, None, "missing eta");
    let written = serde_json::to_value(&render).unwrap();
    assert_eq!(written["variations"]["items"][3]["status"], "upscaling", "unknown values are written back");
    assert_eq!(written["variations"]["items"][3]["config"], json!({"type": "renovation", "floor": "oak"}));
}

#[test]
fn pages_and_small_answers() {
    let page: RenderPage = fixture("render_page");
    assert_eq!(page.items.len(), 2);
    assert!(page.items[0].variations.is_none());
    let user: User = fixture("user");
    assert_eq!(user.image_editing_usage(), (3, &Limit::Photos(50)));
    let added: AddedVariations = fixture("added_variations");
    assert!(matches!(&added.variations[0].config, Some(Config::DayToDusk(c)) if c.sky_style == SkyStyle::Golden));
    assert_eq!(added.variations[1].status, VariationStatus::Error);
    assert!(added.variations[1].status.is_final());
    let bulk: BulkCreatedRenders = fixture("bulk_renders");
    assert_eq!(bulk.renders[0].variation_items().len(), 1);
    let results: BulkAddedVariations = fixture("bulk_variations");
    assert_eq!(results.results[0].status, VariationStatus::Processing);
    let analysis: Analysis = fixture("analysis");
    assert_eq!((analysis.status, analysis.percentage_masked), (AnalysisStatus::Done, Some(23.75)));
    let message: Message = fixture("message");
    assert_eq!(message.message, "Webhook secret updated");
}

#[test]
fn every_webhook_event() {
    use vstage_api::webhook::*;
    let WebhookEvent::Done(done) = fixture("webhook_done") else { panic!("done") };
    assert_eq!(done.base_variation_id.as_deref(), Some("var_01"));
    assert_eq!(done.result.primary().unwrap().url, "https://cdn.example/var_02.jpg");
    let WebhookEvent::Error(error) = fixture("webhook_error") else { panic!("error") };
    assert_eq!(error.error_message.as_deref(), Some("The photo could not be processed."));
    let WebhookEvent::Update(update) = fixture("webhook_update") else { panic!("update") };
    assert_eq!(update.status, Some(VariationStatus::Processing));
    let WebhookEvent::AnalysisCompletion(completed) = fixture("webhook_analysis_completion") else { panic!() };
    assert_eq!(completed.percentage_masked, Some(23.75));
    let WebhookEvent::AnalysisError(failed) = fixture("webhook_analysis_error") else { panic!() };
    assert_eq!(failed.analysis_id, "ana_02");
    let unknown: WebhookEvent = fixture("webhook_unknown");
    assert_eq!(unknown.event_type(), Some("render_archived"));
    assert_eq!(unknown.render_id(), Some("rnd_01"));
    assert_eq!(serde_json::to_value(&unknown).unwrap()["reason"], "retention");
}

#[test]
fn the_v1_shapes() {
    let ping: v1::Ping = fixture("v1_ping");
    assert_eq!(ping.user.as_ref().unwrap().uid, "uid_1");
    let options: v1::Options = fixture("v1_options");
    assert!(options.room_types.contains(&"bathroom".to_string()));
    assert_eq!(options.variation_styles.len(), 10);
    for (name, status) in [
        ("v1_render_queued", v1::Status::Queued),
        ("v1_render_rendering", v1::Status::Rendering),
        ("v1_render_done", v1::Status::Done),
        ("v1_render_error", v1::Status::Error),
    ] {
        let render: v1::Render = fixture(name);
        assert_eq!(render.status, status, "{name}");
    }
    let done: v1::Render = fixture("v1_render_done");
    assert_eq!(done.outputs.last().unwrap(), "https://cdn.example/v1_r1_1.jpg", "newest last");
    let created: v1::Created = fixture("v1_created");
    assert!(created.removal_output.is_some());
}

fn written(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

fn staging(style: Style, room_type: RoomType, removal: Option<RemovalMode>, base: Option<&str>) -> Config {
    Config::Staging(StagingConfig {
        output_resolution: Some(OutputResolution::Default),
        add_virtually_staged_watermark: Some(true),
        add_furniture: AddFurniture { style, room_type, base_variation_id: base.map(str::to_string) },
        remove_furniture: removal.map(|mode| RemoveFurniture { mode, mask_url: None }),
    })
}

#[test]
fn requests_are_written_as_api_md_spells_them() {
    let single = CreateRender {
        image_urls: Vec::new(),
        image_url: "https://photos.example/a.jpg".into(),
        configs: RenderConfigs::Single {
            config: staging(Style::Modern, RoomType::Living, Some(RemovalMode::On), None),
            variation_count: 3,
        },
        webhook_url: Some("https://hooks.example/vs".into()),
        wait_for_completion: Some(false),
    };
    assert_eq!(
        written(&single),
        json!({
            "image_url": "https://photos.example/a.jpg",
            "config": {"type": "staging", "output_resolution": "default", "add_virtually_staged_watermark": true,
                       "add_furniture": {"style": "modern", "room_type": "living"},
                       "remove_furniture": {"mode": "on"}},
            "variation_count": 3,
            "webhook_url": "https://hooks.example/vs",
            "wait_for_completion": false
        })
    );
    let multi = CreateRender {
        image_urls: Vec::new(),
        image_url: "https://photos.example/a.jpg".into(),
        configs: RenderConfigs::Multi {
            configs: vec![
                ConfigEntry { config: staging(Style::Coastal, RoomType::Bed, None, None), variation_count: 2 },
                ConfigEntry {
                    config: Config::DayToDusk(DayToDuskConfig { sky_style: SkyStyle::Blue, output_resolution: None }),
                    variation_count: 1,
                },
            ],
        },
        webhook_url: None,
        wait_for_completion: None,
    };
    let value = written(&multi);
    assert_eq!(value["configs"][0]["variation_count"], 2);
    assert_eq!(value["configs"][0]["add_furniture"]["room_type"], "bed");
    assert_eq!(value["configs"][1], json!({"type": "daytodusk", "sky_style": "blue", "variation_count": 1}));
    assert!(value.get("webhook_url").is_none() && value.get("config").is_none());
    let read: CreateRender = serde_json::from_value(value).unwrap();
    assert_eq!(read, multi);

    let add = AddVariations {
        config: staging(Style::MidCenturyModern, RoomType::HomeOffice, None, Some("var_01")),
        variation_count: 2,
        wait_for_completion: None,
    };
    assert_eq!(
        written(&add)["config"]["add_furniture"],
        json!({"style": "mid-century modern", "room_type": "home_office", "base_variation_id": "var_01"})
    );
    assert_eq!(
        written(&SetWebhookSecret { webhook_secret: "abc_DEF-1".into() }),
        json!({"webhook_secret": "abc_DEF-1"})
    );

    let v1_create = v1::CreateRender {
        image_url: Some("https://photos.example/a.jpg".into()),
        declutter_mode: Some(RemovalMode::On),
        add_furniture: Some(false),
        resolution: Some(v1::Resolution::FullHd),
        ..Default::default()
    };
    assert_eq!(
        written(&v1_create),
        json!({"image_url": "https://photos.example/a.jpg", "resolution": "full-hd", "declutter_mode": "on", "add_furniture": false})
    );
    let v1_variation = v1::CreateVariation {
        room_type: Some(RoomType::KidsRoom),
        switch_to_queued_immediately: Some(true),
        ..Default::default()
    };
    assert_eq!(written(&v1_variation), json!({"roomType": "kids_room", "switch_to_queued_immediately": true}));
}
