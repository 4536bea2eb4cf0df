//! A stand-in for the real service that answers in the shapes its public docs and public clients show, beyond the
//! contract (docs/service-api.md, "What the real service does beyond the contract"): an account on a plan with an
//! `"UNLIMITED"` limit, and one render whose variations are in every settled and pending status a client knows and
//! one it does not, with a multi-view result (an array), a numeric `output_resolution` and a `daytodusk` config.

use axum::Json;
use axum::Router;
use axum::extract::Path;
use axum::routing::get;
use serde_json::{Value, json};

/// The render the stand-in knows.
pub const RENDER: &str = "rnd_real_shapes";

pub struct RealService {
    pub url: String,
}

impl RealService {
    pub async fn start() -> RealService {
        let app = Router::new()
            .route("/v2/status", get(|| async {}))
            .route("/v2/user", get(|| async { Json(user()) }))
            .route(
                "/v2/renders",
                get(|| async { Json(json!({"total_count": 1, "next_cursor": null, "items": [render()]})) }),
            )
            .route("/v2/renders/{id}", get(render_named));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        RealService { url }
    }
}

async fn render_named(Path(id): Path<String>) -> Result<Json<Value>, axum::http::StatusCode> {
    (id == RENDER).then(|| Json(render())).ok_or(axum::http::StatusCode::NOT_FOUND)
}

/// superdevvs/Repro_Backend, tests/Feature/VirtualStagingAiTest.php: the plan its client reads.
pub fn user() -> Value {
    json!({
        "user": {"email": "owner@example.com", "uid": "uid-1"},
        "photoLimit": {"staging": 100, "imageEditing": "UNLIMITED"},
        "photosUsedThisPeriod": {"staging": 4, "imageEditing": 0}
    })
}

fn image(name: &str) -> Value {
    json!({"url": format!("https://results.example.test/{name}.jpg"), "optimized_url": null, "thumbnail_url": null})
}

/// One variation of the render, in `status`, with the fields given.
fn variation(id: &str, status: &str, more: Value) -> Value {
    let mut variation = json!({
        "id": id, "type": "staging", "render_id": RENDER, "created_at": 1_732_190_400_000_u64, "status": status,
        "eta": null,
        "config": {"type": "staging", "add_furniture": {"room_type": "bed", "style": "scandinavian"}}
    });
    variation.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    variation
}

/// The variations, in order: the ids say what each is.
pub fn variations() -> Vec<Value> {
    vec![
        variation(
            "var_multi_view",
            "done",
            json!({
                "result": [image("view-1"), image("view-2"), image("view-3")],
                "config": {"type": "staging", "output_resolution": 1536,
                           "add_furniture": {"room_type": "living", "style": "modern"}}
            }),
        ),
        variation("var_deleted", "deleted", json!({})),
        variation("var_failed", "error", json!({"error_message": "Failed to process image"})),
        variation("var_unknown", "upscaling", json!({})),
        variation("var_idle", "idle", json!({})),
        variation(
            "var_dusk",
            "done",
            json!({
                "type": "daytodusk", "result": image("dusk"), "config": {"type": "daytodusk", "sky_style": "golden"}
            }),
        ),
    ]
}

pub fn render() -> Value {
    let items = variations();
    json!({
        "id": RENDER, "created_at": 1_732_190_400_000_u64, "queued_at": null, "eta": null,
        "variations": {"total_count": items.len(), "next_cursor": null, "items": items}
    })
}
