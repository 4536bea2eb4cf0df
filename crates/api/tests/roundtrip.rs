//! Property tests: every request and response type goes through JSON and comes back unchanged, including
//! unknown enum values, unknown config shapes, unknown webhook events and timestamps as integers or floats.
#![cfg(not(target_arch = "wasm32"))]

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use vstage_api::webhook::*;
use vstage_api::*;

fn round_trips<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) -> Result<(), TestCaseError> {
    let text = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
    prop_assert_eq!(&back, value, "through {}", text);
    Ok(())
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ .:/-]{0,12}"
}

fn url() -> impl Strategy<Value = String> {
    "https://[a-z]{1,8}\\.example/[a-z0-9_]{1,10}\\.jpg"
}

fn timestamp() -> impl Strategy<Value = Timestamp> {
    prop_oneof![
        (0i64..4_000_000_000_000).prop_map(Timestamp::from_millis),
        (0.0f64..4.0e12).prop_map(|f| serde_json::from_value(json!(f)).unwrap()),
    ]
}

/// A known value, or an unknown one that is surely not known.
macro_rules! open {
    ($name:path) => {
        prop_oneof![
            (0..<$name>::KNOWN.len()).prop_map(|i| <$name>::KNOWN[i].clone()),
            "[a-z]{1,8}".prop_map(|s| <$name>::from(format!("unknown-{s}").as_str())),
        ]
    };
}

fn resolution() -> impl Strategy<Value = Option<OutputResolution>> {
    option::of(prop_oneof![open!(OutputResolution), (0u64..10_000).prop_map(OutputResolution::Pixels)])
}

fn limit() -> impl Strategy<Value = Limit> {
    prop_oneof![(0u64..1000).prop_map(Limit::Photos), Just(Limit::Unlimited), "[a-z]{1,8}".prop_map(Limit::Other)]
}

fn remove_furniture() -> impl Strategy<Value = RemoveFurniture> {
    (open!(RemovalMode), option::of(url())).prop_map(|(mode, mask_url)| RemoveFurniture { mode, mask_url })
}

fn config() -> impl Strategy<Value = Config> {
    let add = (open!(Style), open!(RoomType), option::of(text()))
        .prop_map(|(style, room_type, base_variation_id)| AddFurniture { style, room_type, base_variation_id });
    prop_oneof![
        (resolution(), option::of(any::<bool>()), add, option::of(remove_furniture())).prop_map(|(r, w, a, rf)| {
            Config::Staging(StagingConfig {
                output_resolution: r,
                add_virtually_staged_watermark: w,
                add_furniture: a,
                remove_furniture: rf,
            })
        }),
        (resolution(), option::of(any::<bool>()), remove_furniture()).prop_map(|(r, w, rf)| {
            Config::RemovalOnly(RemovalOnlyConfig {
                output_resolution: r,
                add_virtually_staged_watermark: w,
                remove_furniture: rf,
            })
        }),
        (open!(SkyStyle), resolution()).prop_map(|(sky_style, output_resolution)| Config::DayToDusk(DayToDuskConfig {
            sky_style,
            output_resolution
        })),
        resolution().prop_map(|output_resolution| Config::Enhancement(EnhancementConfig { output_resolution })),
        (open!(RoomType), open!(Style))
            .prop_map(|(room_type, style)| Config::LegacyStaging(LegacyStagingConfig { room_type, style })),
        ("[a-z]{1,8}", text())
            .prop_map(|(tag, field)| Config::Other(json!({"type": format!("x_{tag}"), "field": field}))),
    ]
}

fn image() -> impl Strategy<Value = ResultImage> {
    (url(), option::of(url()), option::of(url())).prop_map(|(url, optimized_url, thumbnail_url)| ResultImage {
        url,
        optimized_url,
        thumbnail_url,
    })
}

fn result() -> impl Strategy<Value = VariationResult> {
    prop_oneof![image().prop_map(VariationResult::One), vec(image(), 0..3).prop_map(VariationResult::Many)]
}

prop_compose! {
    fn variation()(
        id in text(), kind in option::of(open!(VariationType)), render_id in text(), created_at in timestamp(),
        status in open!(VariationStatus), result in option::of(result()), base in option::of(text()),
        eta in option::of(timestamp()), config in option::of(config()), error_message in option::of(text()),
    ) -> Variation {
        Variation { id, kind, render_id, created_at, status, result, base_variation_id: base, eta, config, error_message }
    }
}

fn variation_page() -> impl Strategy<Value = VariationPage> {
    (option::of(0u64..100), option::of(text()), vec(variation(), 0..3))
        .prop_map(|(total_count, next_cursor, items)| VariationPage { total_count, next_cursor, items })
}

prop_compose! {
    fn render()(
        id in text(), created_at in timestamp(), queued_at in option::of(timestamp()),
        variations in option::of(variation_page()), eta in option::of(timestamp()), image_url in option::of(url()),
    ) -> Render {
        Render { id, created_at, queued_at, variations, eta, image_url }
    }
}

fn event() -> impl Strategy<Value = WebhookEvent> {
    prop_oneof![
        (text(), text(), option::of(open!(VariationType)), option::of(text()), timestamp(), result()).prop_map(
            |(render_id, variation_id, variation_type, base_variation_id, timestamp, result)| {
                WebhookEvent::Done(VariationDone {
                    render_id,
                    variation_id,
                    variation_type,
                    base_variation_id,
                    timestamp,
                    result,
                })
            }
        ),
        (text(), text(), option::of(open!(VariationType)), timestamp(), option::of(text())).prop_map(
            |(render_id, variation_id, variation_type, timestamp, error_message)| {
                WebhookEvent::Error(VariationFailed {
                    render_id,
                    variation_id,
                    variation_type,
                    timestamp,
                    error_message,
                })
            }
        ),
        (text(), text(), timestamp(), option::of(open!(VariationStatus)), option::of(timestamp())).prop_map(
            |(render_id, variation_id, timestamp, status, eta)| {
                WebhookEvent::Update(VariationUpdate {
                    render_id,
                    variation_id,
                    variation_type: None,
                    timestamp,
                    status,
                    eta,
                })
            }
        ),
        (text(), timestamp(), url(), option::of(0.0f64..100.0)).prop_map(
            |(analysis_id, timestamp, result_url, percentage_masked)| {
                WebhookEvent::AnalysisCompletion(AnalysisCompleted {
                    analysis_id,
                    timestamp,
                    result_url,
                    percentage_masked,
                })
            }
        ),
        (text(), timestamp(), option::of(text())).prop_map(|(analysis_id, timestamp, error_message)| {
            WebhookEvent::AnalysisError(AnalysisFailed { analysis_id, timestamp, error_message })
        }),
        "[a-z]{1,8}".prop_map(|tag| WebhookEvent::Unknown(json!({"event_type": format!("x_{tag}"), "n": 1}))),
    ]
}

/// A config a request may carry: one of the contract's shapes (an unknown one is refused on reading).
fn requested_config() -> impl Strategy<Value = Config> {
    config().prop_filter("a request carries a known shape", |config| !matches!(config, Config::Other(_)))
}

fn create_render() -> impl Strategy<Value = CreateRender> {
    let configs = prop_oneof![
        (requested_config(), 0u64..30)
            .prop_map(|(config, variation_count)| RenderConfigs::Single { config, variation_count }),
        vec(
            (requested_config(), 0u64..30)
                .prop_map(|(config, variation_count)| ConfigEntry { config, variation_count }),
            0..3
        )
        .prop_map(|configs| RenderConfigs::Multi { configs }),
    ];
    (url(), configs, option::of(url()), option::of(any::<bool>())).prop_map(
        |(image_url, configs, webhook_url, wait_for_completion)| CreateRender {
            image_urls: Vec::new(),
            image_url,
            configs,
            webhook_url,
            wait_for_completion,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn responses_round_trip(render in render(), variation in variation(), total in option::of(0u64..9), cursor in option::of(text())) {
        round_trips(&render)?;
        round_trips(&variation)?;
        round_trips(&RenderPage { total_count: total, next_cursor: cursor, items: vec![render.clone()] })?;
        round_trips(&AddedVariations { variations: vec![variation.clone()] })?;
        round_trips(&BulkCreatedRenders { renders: vec![render] })?;
        round_trips(&BulkAddedVariations { results: vec![variation] })?;
    }

    #[test]
    fn configs_and_events_round_trip(config in config(), event in event()) {
        round_trips(&config)?;
        round_trips(&event)?;
    }

    #[test]
    fn requests_round_trip(create in create_render(), config in requested_config(), count in 0u64..30, wait in option::of(any::<bool>()), id in text()) {
        round_trips(&create)?;
        round_trips(&AddVariations { config: config.clone(), variation_count: count, wait_for_completion: wait })?;
        round_trips(&BulkCreateRenders { webhook_url: None, wait_for_completion: wait, renders: vec![BulkRender { config: config.clone(), image_url: id.clone(), variation_count: count }] })?;
        round_trips(&BulkAddVariations { wait_for_completion: wait, renders: vec![BulkVariations { render_id: id.clone(), variation_count: count, config }] })?;
        round_trips(&Analyze { image_url: id.clone(), webhook_url: None })?;
        round_trips(&SetWebhookSecret { webhook_secret: id })?;
    }

    #[test]
    fn small_answers_and_v1_round_trip(
        email in text(), uid in text(), counts in (0u64..1000, 0u64..1000), percentage in option::of(0.0f64..100.0),
        limits in (limit(), limit()),
        created_at in timestamp(), outputs in vec(url(), 0..3), status in open!(v1::Status), progress in option::of(0.0f64..1.0),
        room_type in option::of(open!(RoomType)), style in option::of(open!(Style)), flag in option::of(any::<bool>()),
    ) {
        round_trips(&User {
            user: Some(UserIdentity { email: email.clone(), uid: uid.clone() }),
            photo_limit: PhotoLimits { staging: limits.0, image_editing: limits.1 },
            photos_used_this_period: PhotoCounts { staging: counts.1, image_editing: counts.0 },
            renews_at: Some(created_at.millis()),
        })?;
        round_trips(&Analysis { id: uid.clone(), created_at: created_at.clone(), result_url: email.clone(), percentage_masked: percentage, status: AnalysisStatus::Done })?;
        round_trips(&Message { message: email.clone() })?;
        round_trips(&v1::Ping { user: Some(v1::PingUser { email, uid: uid.clone() }), photo_limit: counts.0 as f64, photos_used_this_period: counts.1 as f64 })?;
        round_trips(&v1::Options { room_types: outputs.clone(), styles: outputs.clone(), variation_styles: outputs.clone() })?;
        round_trips(&v1::Render { render_id: uid.clone(), status, created_at: Some(created_at), outputs: outputs.clone(), progress, outputs_room_types: outputs.clone(), outputs_styles: vec![], image_url: outputs.first().cloned() })?;
        round_trips(&v1::Created { render_id: uid.clone(), result_image_url: outputs.first().cloned(), removal_output: None })?;
        round_trips(&v1::CreateRender { image_url: Some(uid), room_type: room_type.clone(), style: style.clone(), wait_for_completion: flag, add_furniture: flag, ..Default::default() })?;
        round_trips(&v1::CreateVariation { render_id: None, room_type, style, wait_for_completion: flag, switch_to_queued_immediately: flag, add_virtually_staged_watermark: flag })?;
    }
}

#[test]
fn a_float_timestamp_stays_a_float_and_an_integer_an_integer() {
    let variation: Value = json!({"id": "v", "render_id": "r", "created_at": 1.5, "status": "done", "eta": 2});
    let read: Variation = serde_json::from_value(variation.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), variation);
}
