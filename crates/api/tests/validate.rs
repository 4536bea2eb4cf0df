//! The contract's bounds, as a form would meet them: each refusal names its field and says what to do.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use vstage_api::validate::{self, MAX_BULK_ENTRIES, matches_analyze_image_url};
use vstage_api::*;

fn staging(removal: Option<RemovalMode>, base: Option<&str>) -> Config {
    Config::Staging(StagingConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture {
            style: Style::Modern,
            room_type: RoomType::Living,
            base_variation_id: base.map(str::to_string),
        },
        remove_furniture: removal.map(|mode| RemoveFurniture { mode, mask_url: None }),
    })
}

fn create(configs: RenderConfigs) -> CreateRender {
    CreateRender {
        image_urls: Vec::new(),
        image_url: "https://p.example/a.jpg".into(),
        configs,
        webhook_url: None,
        wait_for_completion: None,
    }
}

fn refusal(result: Result<(), ValidationError>) -> (String, Rule) {
    let error = result.expect_err("refused");
    assert!(error.message.ends_with('.') && error.message.len() > 20, "a sentence: {}", error.message);
    (error.field, error.rule)
}

#[test]
fn variation_counts_and_the_twenty_per_render_bound() {
    let single =
        |count, removal| create(RenderConfigs::Single { config: staging(removal, None), variation_count: count });
    assert_eq!(refusal(single(0, None).validate()), ("variation_count".into(), Rule::Range));
    assert!(single(20, None).validate().is_ok());
    assert!(single(10, Some(RemovalMode::On)).validate().is_ok(), "10 staged + 10 removal = 20");
    assert_eq!(
        refusal(single(11, Some(RemovalMode::On)).validate()),
        ("variation_count".into(), Rule::TooManyVariations)
    );
    assert!(single(11, Some(RemovalMode::Off)).validate().is_ok());

    let multi = create(RenderConfigs::Multi {
        configs: vec![
            ConfigEntry { config: staging(None, None), variation_count: 12 },
            ConfigEntry {
                config: Config::Enhancement(EnhancementConfig { output_resolution: None }),
                variation_count: 9,
            },
        ],
    });
    assert_eq!(refusal(multi.validate()), ("configs".into(), Rule::TooManyVariations));
    let empty = create(RenderConfigs::Multi { configs: vec![] });
    assert_eq!(refusal(empty.validate()), ("configs".into(), Rule::Required));
    let zero =
        create(RenderConfigs::Multi { configs: vec![ConfigEntry { config: staging(None, None), variation_count: 0 }] });
    assert_eq!(refusal(zero.validate()), ("configs[0].variation_count".into(), Rule::Range));

    let adding = |count, config| AddVariations { config, variation_count: count, wait_for_completion: None };
    assert!(adding(2, staging(None, None)).validate(Some(18)).is_ok());
    assert_eq!(refusal(adding(3, staging(None, None)).validate(Some(18))).1, Rule::TooManyVariations);
    assert!(
        adding(5, staging(Some(RemovalMode::On), Some("var_1"))).validate(Some(15)).is_ok(),
        "a base adds no removal"
    );
    assert_eq!(refusal(adding(0, staging(None, None)).validate(None)).0, "variation_count");
}

#[test]
fn a_base_variation_only_when_adding_variations() {
    let at_creation = create(RenderConfigs::Single { config: staging(None, Some("var_1")), variation_count: 1 });
    assert_eq!(
        refusal(at_creation.validate()),
        ("config.add_furniture.base_variation_id".into(), Rule::NotAllowedHere)
    );
    let adding = AddVariations { config: staging(None, Some("var_1")), variation_count: 1, wait_for_completion: None };
    assert!(adding.validate(Some(1)).is_ok());
}

#[test]
fn unknown_configs_are_not_sent() {
    let other =
        create(RenderConfigs::Single { config: Config::Other(serde_json::json!({"type": "x"})), variation_count: 1 });
    assert_eq!(refusal(other.validate()), ("config".into(), Rule::UnknownValue));
}

#[test]
fn page_limits() {
    assert!(ListRenders { limit: Some(1), ..Default::default() }.validate().is_ok());
    assert!(ListRenders { limit: Some(100), ..Default::default() }.validate().is_ok());
    assert_eq!(refusal(ListRenders { limit: Some(0), ..Default::default() }.validate()), ("limit".into(), Rule::Range));
    assert_eq!(
        refusal(GetRender { variations_limit: Some(101), ..Default::default() }.validate()).0,
        "variations_limit"
    );
}

#[test]
fn webhook_secrets() {
    assert!(SetWebhookSecret { webhook_secret: "a".into() }.validate().is_ok());
    assert!(SetWebhookSecret { webhook_secret: "Az09_-".into() }.validate().is_ok());
    assert_eq!(refusal(SetWebhookSecret { webhook_secret: String::new() }.validate()).1, Rule::Required);
    for bad in ["with space", "semi;colon", "ünïcode", "slash/"] {
        assert_eq!(refusal(SetWebhookSecret { webhook_secret: bad.into() }.validate()).1, Rule::Pattern, "{bad}");
    }
}

#[test]
fn bulk_arrays_must_not_be_empty_and_entries_are_checked() {
    let empty = BulkCreateRenders { webhook_url: None, wait_for_completion: None, renders: vec![] };
    assert_eq!(refusal(empty.validate()), ("renders".into(), Rule::Required));
    let bad = BulkCreateRenders {
        webhook_url: None,
        wait_for_completion: None,
        renders: vec![BulkRender { config: staging(None, None), image_url: "ftp://x".into(), variation_count: 1 }],
    };
    assert_eq!(refusal(bad.validate()), ("renders[0].image_url".into(), Rule::Pattern));
    let empty = BulkAddVariations { wait_for_completion: None, renders: vec![] };
    assert_eq!(refusal(empty.validate()).1, Rule::Required);
}

#[test]
fn bulk_arrays_hold_at_most_the_documented_maximum() {
    let photo = |n: usize| BulkRender {
        config: staging(None, None),
        image_url: format!("https://p.example/{n}.jpg"),
        variation_count: 1,
    };
    let photos = |count: usize| BulkCreateRenders {
        webhook_url: None,
        wait_for_completion: None,
        renders: (0..count).map(photo).collect(),
    };
    assert!(photos(MAX_BULK_ENTRIES).validate().is_ok());
    let refused = photos(MAX_BULK_ENTRIES + 1).validate().unwrap_err();
    assert_eq!((refused.field.as_str(), refused.rule), ("renders", Rule::Range));
    assert!(refused.message.contains(&format!("at most {MAX_BULK_ENTRIES} photos")), "{}", refused.message);

    let entry =
        |n: usize| BulkVariations { render_id: format!("r{n}"), variation_count: 1, config: staging(None, None) };
    let renders =
        |count: usize| BulkAddVariations { wait_for_completion: None, renders: (0..count).map(entry).collect() };
    assert!(renders(MAX_BULK_ENTRIES).validate().is_ok());
    assert_eq!(refusal(renders(MAX_BULK_ENTRIES + 1).validate()), ("renders".into(), Rule::Range));
}

#[test]
fn v1_room_types_and_styles() {
    let create = |room: &str, style: &str| v1::CreateRender {
        image_url: Some("https://p.example/a.jpg".into()),
        room_type: Some(room.into()),
        style: Some(style.into()),
        ..Default::default()
    };
    assert!(create("bathroom", "midcentury").validate(false).is_ok());
    assert_eq!(refusal(create("garage", "modern").validate(false)), ("room_type".into(), Rule::UnknownValue));
    assert!(create("living", "mid-century modern").validate(false).is_ok(), "one list for create and its variations");
    assert_eq!(refusal(create("living", "gothic").validate(false)).0, "style", "not in the list");
    assert!(create("living", "hamptons").validate(false).is_ok(), "a deprecated style the service maps");
    let declutter_only = v1::CreateRender {
        image_url: Some("https://p.example/a.jpg".into()),
        declutter_mode: Some(RemovalMode::On),
        add_furniture: Some(false),
        ..Default::default()
    };
    assert!(declutter_only.validate(false).is_ok(), "no room type needed to declutter only");
    assert_eq!(refusal(v1::CreateRender::default().validate(false)).0, "image_url");
    assert!(
        v1::CreateRender { room_type: Some(RoomType::Bed), style: Some(Style::Modern), ..Default::default() }
            .validate(true)
            .is_ok()
    );

    let variation = |style: &str| v1::CreateVariation { style: Some(style.into()), ..Default::default() };
    assert!(variation("mid-century modern").validate().is_ok());
    assert!(variation("midcentury").validate().is_ok(), "what /v1/options lists is taken by create-variation too");
    assert_eq!(refusal(variation("gothic").validate()).0, "style");
    assert!(variation("hamptons").validate().is_ok());
}

#[test]
fn ids_cannot_change_a_path() {
    for bad in ["", ".", "..", "a/b", "a\\b", "a\nb"] {
        assert!(validate::id("render_id", bad).is_err(), "{bad:?}");
    }
    assert!(validate::id("render_id", "rnd_01-AbC.x").is_ok());
}

#[test]
fn the_analyze_image_url_pattern_examples() {
    for good in [
        "http://a",
        "https://x.example/room.jpg?sig=a%20b",
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/svg+xml;base64,PHN2Zz4=",
    ] {
        assert!(matches_analyze_image_url(good), "{good}");
    }
    for bad in [
        "",
        "https://",
        "https://a b",
        "HTTPS://a",
        "ftp://a",
        "data:image/png;base64,",
        "data:image/;base64,AA",
        "data:text/plain;base64,AA",
        "data:image/png;base64,A A",
        "https://a\u{FEFF}b",
    ] {
        assert!(!matches_analyze_image_url(bad), "{bad:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// The hand-written matcher agrees with the pattern as written, run by a regex engine, on inputs built from the
    /// pattern's own pieces. (U+0085 and U+FEFF are left out: `\s` differs there between ECMAScript and Rust.)
    #[test]
    fn the_matcher_agrees_with_the_regex(
        prefix in prop_oneof![Just("http://"), Just("https://"), Just("data:image/"), Just("HTTP://"), Just("data:"), Just("")],
        middle in "[a-zA-Z+]{0,4}",
        separator in prop_oneof![Just(";base64,"), Just(""), Just(";base64"), Just("/")],
        tail in "[a-zA-Z0-9+/= \t\u{a0}\u{2003}.;:_-]{0,12}",
    ) {
        let pattern = regex::Regex::new(r"^(https?:\/\/[^\s]+|data:image\/[a-zA-Z+]+;base64,[A-Za-z0-9+/=]+)$").unwrap();
        let input = format!("{prefix}{middle}{separator}{tail}");
        prop_assert_eq!(matches_analyze_image_url(&input), pattern.is_match(&input), "{:?}", input);
    }
}

#[test]
fn removal_needs_a_mode_that_removes_and_the_sandbox_knows_its_values() {
    let off = Config::RemovalOnly(RemovalOnlyConfig {
        output_resolution: None,
        add_virtually_staged_watermark: None,
        remove_furniture: RemoveFurniture { mode: RemovalMode::Off, mask_url: None },
    });
    let request = create(RenderConfigs::Single { config: off, variation_count: 1 });
    assert_eq!(refusal(request.validate()).0, "config.remove_furniture.mode");

    let newer = Config::DayToDusk(DayToDuskConfig { sky_style: "aurora".into(), output_resolution: Some("8k".into()) });
    assert!(
        create(RenderConfigs::Single { config: newer.clone(), variation_count: 1 }).validate().is_ok(),
        "a client may send what a newer service knows"
    );
    assert_eq!(refusal(validate::known_vocabulary("config", &newer)).0, "config.output_resolution");
    let dusk = Config::DayToDusk(DayToDuskConfig { sky_style: "aurora".into(), output_resolution: None });
    assert_eq!(refusal(validate::known_vocabulary("config", &dusk)).0, "config.sky_style");
}
