//! Renders and variations over real HTTP: creation rules, base variations, the 20-per-render bound (also under
//! concurrency), usage and its limit, pagination, isolation between accounts, bulk endpoints and persistence.

use crate::support::{answer, client, raw, sandbox, sandbox_with};
use reqwest::Method;
use serde_json::json;
use vstage_api::validate::MAX_BULK_ENTRIES;
use vstage_api::*;
use vstage_sandbox::SandboxConfig;

const PHOTO: &str = "https://photos.example/living.jpg";

fn staging(removal: Option<RemovalMode>, base: Option<&str>) -> Config {
    Config::Staging(StagingConfig {
        output_resolution: Some(OutputResolution::Default),
        add_virtually_staged_watermark: None,
        add_furniture: AddFurniture {
            style: Style::Modern,
            room_type: RoomType::Living,
            base_variation_id: base.map(str::to_string),
        },
        remove_furniture: removal.map(|mode| RemoveFurniture { mode, mask_url: None }),
    })
}

fn single(config: Config, count: u64) -> CreateRender {
    CreateRender {
        image_urls: Vec::new(),
        image_url: PHOTO.into(),
        configs: RenderConfigs::Single { config, variation_count: count },
        webhook_url: None,
        wait_for_completion: None,
    }
}

fn adding(config: Config, count: u64) -> AddVariations {
    AddVariations { config, variation_count: count, wait_for_completion: None }
}

#[tokio::test]
async fn a_render_starts_with_queued_variations_an_eta_and_costs_a_photo() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let render = client.create_render(&single(staging(None, None), 2)).await.unwrap();
    assert!(render.id.starts_with("rnd_"));
    assert_eq!(render.image_url.as_deref(), Some(PHOTO));
    let items = render.variation_items();
    assert_eq!(items.len(), 2);
    for variation in items {
        assert_eq!(variation.status, VariationStatus::Queued);
        assert_eq!(variation.kind, Some(VariationType::Staging));
        assert_eq!(variation.render_id, render.id);
        assert!(variation.eta.as_ref().unwrap().millis() > variation.created_at.millis());
        assert_eq!(variation.config.as_ref(), Some(&staging(None, None)));
    }
    assert_eq!(
        render.eta.as_ref().map(Timestamp::millis),
        items.iter().filter_map(|v| v.eta.as_ref()).map(Timestamp::millis).min()
    );
    assert_eq!(client.user().await.unwrap().staging_usage(), (1, &Limit::Photos(100)), "one photo, two variations");

    let variation = client.get_variation(&render.id, &items[1].id).await.unwrap();
    assert_eq!((&variation.id, &variation.config), (&items[1].id, &items[1].config));
    let without = client.get_render(&render.id, &GetRender::default()).await.unwrap();
    let counted = without.variations.expect("the count is always there");
    assert_eq!((counted.total_count, counted.items.len()), (Some(2), 0), "the items only when asked for");

    let dusk = Config::DayToDusk(DayToDuskConfig { sky_style: SkyStyle::Golden, output_resolution: None });
    client.create_render(&single(dusk, 3)).await.unwrap();
    assert_eq!(client.user().await.unwrap().image_editing_usage(), (1, &Limit::Photos(100)));
    let more = AddVariations { variation_count: 2, config: staging(None, None), wait_for_completion: None };
    client.add_variations(&render.id, &more, None).await.unwrap();
    let user = client.user().await.unwrap();
    assert_eq!((user.staging_usage().0, user.image_editing_usage().0), (1, 1), "regenerations cost nothing");

    // Image editing added to a staging render costs what an image-editing render would, once.
    let enhance = AddVariations {
        variation_count: 1,
        config: Config::Enhancement(EnhancementConfig { output_resolution: None }),
        wait_for_completion: None,
    };
    client.add_variations(&render.id, &enhance, None).await.unwrap();
    client.add_variations(&render.id, &enhance, None).await.unwrap();
    let user = client.user().await.unwrap();
    assert_eq!((user.staging_usage().0, user.image_editing_usage().0), (1, 2), "the enhancement paid once");
    let bulk = BulkAddVariations {
        wait_for_completion: None,
        renders: vec![BulkVariations {
            render_id: render.id.clone(),
            variation_count: 1,
            config: Config::Enhancement(EnhancementConfig { output_resolution: None }),
        }],
    };
    client.bulk_add_variations(&bulk).await.unwrap();
    assert_eq!(client.user().await.unwrap().image_editing_usage().0, 2, "in bulk as one at a time");
}

#[tokio::test]
async fn removal_with_staging_makes_pairs_and_a_base_is_reused() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    // rule 4: count 3 with removal and staging gives 6 variations, 3 of each
    let render = client.create_render(&single(staging(Some(RemovalMode::On), None), 3)).await.unwrap();
    let items = render.variation_items();
    assert_eq!(items.len(), 6);
    for pair in items.chunks(2) {
        assert_eq!(pair[0].kind, Some(VariationType::Removal));
        assert!(matches!(pair[0].config, Some(Config::RemovalOnly(_))));
        assert_eq!(pair[1].kind, Some(VariationType::Staging));
        assert_eq!(pair[1].base_variation_id.as_deref(), Some(pair[0].id.as_str()), "rule 5: the base is exposed");
    }
    // adding 2 more without a base creates 4 more
    let added =
        client.add_variations(&render.id, &adding(staging(Some(RemovalMode::Auto), None), 2), None).await.unwrap();
    assert_eq!(added.variations.len(), 4);
    // with a base: staging only, on that removal variation (rules 6, 8, 9)
    let base = items[2].id.clone();
    let on_base =
        client.add_variations(&render.id, &adding(staging(Some(RemovalMode::On), Some(&base)), 2), None).await.unwrap();
    assert_eq!(on_base.variations.len(), 2);
    assert!(
        on_base
            .variations
            .iter()
            .all(|v| v.kind == Some(VariationType::Staging) && v.base_variation_id.as_deref() == Some(base.as_str()))
    );
    assert_eq!(client.all_variations(&render.id).await.unwrap().len(), 12);
}

#[tokio::test]
async fn bases_must_be_removal_variations_of_the_same_render() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let first = client.create_render(&single(staging(Some(RemovalMode::On), None), 1)).await.unwrap();
    let second = client.create_render(&single(staging(None, None), 1)).await.unwrap();
    let foreign_removal = first.variation_items()[0].id.clone();
    let staged = second.variation_items()[0].id.clone();
    for base in [foreign_removal, staged, "var_nope".to_string()] {
        let error = client.add_variations(&second.id, &adding(staging(None, Some(&base)), 1), None).await.unwrap_err();
        assert_eq!(error.status(), Some(400), "{base}");
        assert!(error.to_string().contains("base_variation_id"), "{error}");
    }
    // rule 6, checked by the sandbox even when a client sends it anyway
    let body = json!({"image_url": PHOTO, "variation_count": 1, "config": {"type": "staging",
        "add_furniture": {"style": "modern", "room_type": "living", "base_variation_id": "var_x"}}});
    let (status, answer) = answer(raw(&sandbox, Method::POST, "/v2/renders", "k").json(&body)).await;
    assert_eq!(status, 400);
    assert!(answer["message"].as_str().unwrap().contains("base_variation_id"));
}

#[tokio::test]
async fn counts_outside_the_bounds_are_refused_with_a_message() {
    let sandbox = sandbox(&["k"]).await;
    for (count, config) in
        [(0, staging(None, None)), (21, staging(None, None)), (11, staging(Some(RemovalMode::On), None))]
    {
        let body = json!({"image_url": PHOTO, "variation_count": count, "config": config});
        let (status, answer) = answer(raw(&sandbox, Method::POST, "/v2/renders", "k").json(&body)).await;
        assert_eq!(status, 400, "{body}");
        assert!(answer["message"].as_str().unwrap().contains("variation"), "{answer}");
    }
    let client = client(&sandbox, "k");
    let render = client.create_render(&single(staging(None, None), 19)).await.unwrap();
    let body = json!({"variation_count": 2, "config": staging(None, None)});
    let path = format!("/v2/renders/{}/variations", render.id);
    let (status, answer) = answer(raw(&sandbox, Method::POST, &path, "k").json(&body)).await;
    assert_eq!(status, 400);
    assert!(answer["message"].as_str().unwrap().contains("1 left"), "{answer}");
}

#[tokio::test]
async fn the_twenty_variation_bound_holds_under_concurrent_requests() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let render = client.create_render(&single(staging(None, None), 2)).await.unwrap();
    let requests = (0..12).map(|_| {
        let client = client.clone();
        let id = render.id.clone();
        tokio::spawn(async move { client.add_variations(&id, &adding(staging(None, None), 3), None).await })
    });
    let mut accepted = 0;
    for request in requests {
        match request.await.unwrap() {
            Ok(added) => accepted += added.variations.len(),
            Err(error) => assert_eq!(error.status(), Some(400)),
        }
    }
    assert_eq!(accepted, 18, "six requests fit exactly");
    assert_eq!(client.all_variations(&render.id).await.unwrap().len(), 20);
}

#[tokio::test]
async fn the_photo_limit_is_a_403() {
    let sandbox = sandbox_with(SandboxConfig { photo_limit: 2, ..SandboxConfig::new(vec!["k".into()]) }).await;
    let client = client(&sandbox, "k");
    client.create_render(&single(staging(None, None), 4)).await.unwrap();
    client.create_render(&single(staging(None, None), 1)).await.unwrap();
    let error = client.create_render(&single(staging(None, None), 2)).await.unwrap_err();
    assert_eq!(error.status(), Some(403));
    assert!(error.to_string().contains("limit"), "{error}");
    assert_eq!(
        client.user().await.unwrap().staging_usage(),
        (2, &Limit::Photos(2)),
        "a refused render charges nothing"
    );
    assert_eq!(client.list_renders(&ListRenders::default()).await.unwrap().items.len(), 2, "and is not kept");
}

#[tokio::test]
async fn renders_page_newest_first_with_cursors() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let mut created = Vec::new();
    for _ in 0..25 {
        created.push(client.create_render(&single(staging(None, None), 1)).await.unwrap().id);
    }
    let first = client.list_renders(&ListRenders::default()).await.unwrap();
    assert_eq!(first.items.len(), 20);
    assert_eq!(first.total_count, Some(25));
    assert_eq!(first.items[0].id, created[24], "newest first");
    assert_eq!(first.items[0].variation_items().len(), 1, "with their variations");
    let cursor = first.next_cursor.clone().unwrap();
    let second = client.list_renders(&ListRenders { cursor: Some(cursor), ..Default::default() }).await.unwrap();
    assert_eq!(
        second.items.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        created[..5].iter().rev().cloned().collect::<Vec<_>>()
    );
    assert_eq!(second.next_cursor, None);
    let oldest =
        client.list_renders(&ListRenders { limit: Some(3), order: Some(SortOrder::Asc), cursor: None }).await.unwrap();
    assert_eq!(oldest.items.iter().map(|r| r.id.clone()).collect::<Vec<_>>(), created[..3].to_vec());
    assert_eq!(client.all_renders(SortOrder::Asc).await.unwrap().len(), 25);

    for query in ["limit=0", "limit=101", "limit=ten", "order=sideways", "cursor=rnd_unknown"] {
        let (status, answer) = answer(raw(&sandbox, Method::GET, &format!("/v2/renders?{query}"), "k")).await;
        assert_eq!(status, 400, "{query}");
        assert!(answer["message"].is_string(), "{query}");
    }
}

#[tokio::test]
async fn a_renders_variations_page_with_their_own_cursor() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let render = client.create_render(&single(staging(None, None), 20)).await.unwrap();
    let query = |cursor: Option<String>| GetRender {
        variations_limit: Some(7),
        variations_cursor: cursor,
        ..GetRender::with_variations(7)
    };
    let first = client.get_render(&render.id, &query(None)).await.unwrap().variations.unwrap();
    assert_eq!((first.items.len(), first.total_count), (7, Some(20)));
    let second = client.get_render(&render.id, &query(first.next_cursor.clone())).await.unwrap().variations.unwrap();
    assert_eq!(second.items[0].id, render.variation_items()[7].id, "ascending by default");
    let newest = GetRender { variations_order: Some(SortOrder::Desc), ..GetRender::with_variations(1) };
    let newest = client.get_render(&render.id, &newest).await.unwrap().variations.unwrap();
    assert_eq!(newest.items[0].id, render.variation_items()[19].id);
    let (status, _) = answer(raw(
        &sandbox,
        Method::GET,
        &format!("/v2/renders/{}?include_variations=true&variations_limit=0", render.id),
        "k",
    ))
    .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn another_accounts_render_does_not_exist() {
    let sandbox = sandbox(&["mine", "theirs"]).await;
    let mine = client(&sandbox, "mine");
    let theirs = client(&sandbox, "theirs");
    let render = mine.create_render(&single(staging(None, None), 1)).await.unwrap();
    let variation = render.variation_items()[0].id.clone();
    assert_eq!(theirs.get_render(&render.id, &GetRender::default()).await.unwrap_err().status(), Some(404));
    assert_eq!(theirs.get_variation(&render.id, &variation).await.unwrap_err().status(), Some(404));
    assert_eq!(
        theirs.add_variations(&render.id, &adding(staging(None, None), 1), None).await.unwrap_err().status(),
        Some(404)
    );
    assert!(theirs.list_renders(&ListRenders::default()).await.unwrap().items.is_empty());
    assert_eq!(theirs.user().await.unwrap().staging_usage().0, 0);
}

#[tokio::test]
async fn bulk_endpoints_create_all_or_nothing() {
    let sandbox = sandbox(&["k"]).await;
    let client = client(&sandbox, "k");
    let entry = |url: &str| BulkRender { config: staging(None, None), image_url: url.into(), variation_count: 2 };
    let bulk = BulkCreateRenders {
        webhook_url: None,
        wait_for_completion: None,
        renders: vec![entry(PHOTO), entry("https://photos.example/b.jpg")],
    };
    let created = client.bulk_create_renders(&bulk).await.unwrap();
    assert_eq!(created.renders.len(), 2);
    assert_eq!(created.renders[1].variation_items().len(), 2);

    let more = |render: &Render, count| BulkVariations {
        render_id: render.id.clone(),
        variation_count: count,
        config: staging(None, None),
    };
    let results = client
        .bulk_add_variations(&BulkAddVariations {
            wait_for_completion: None,
            renders: vec![more(&created.renders[0], 1), more(&created.renders[1], 3)],
        })
        .await
        .unwrap();
    assert_eq!(results.results.len(), 4);
    // one entry too many for its render: nothing of the request is kept
    let error = client
        .bulk_add_variations(&BulkAddVariations {
            wait_for_completion: None,
            renders: vec![more(&created.renders[0], 2), more(&created.renders[1], 16)],
        })
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(400));
    assert_eq!(client.all_variations(&created.renders[0].id).await.unwrap().len(), 3);
    let (status, _) = answer(raw(&sandbox, Method::POST, "/v2/renders/bulk", "k").json(&json!({"renders": []}))).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_bulk_request_past_the_documented_maximum_is_refused_and_chunks_get_through() {
    let sandbox = sandbox(&["k"]).await;
    let entry = json!({"config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}},
                       "image_url": PHOTO, "variation_count": 1});
    let renders = vec![entry; MAX_BULK_ENTRIES + 1];
    let request = raw(&sandbox, Method::POST, "/v2/renders/bulk", "k").json(&json!({ "renders": renders }));
    let (status, body) = answer(request).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("at most 25"), "{body}");
    let client = client(&sandbox, "k");
    assert_eq!(client.list_renders(&ListRenders::default()).await.unwrap().total_count, Some(0), "nothing was made");

    // the client sends the same photos in requests the sandbox takes
    let photo = BulkRender { config: staging(None, None), image_url: PHOTO.into(), variation_count: 1 };
    let bulk = BulkCreateRenders { webhook_url: None, wait_for_completion: None, renders: vec![photo; 30] };
    let chunks = client.bulk_create_renders_in_chunks(&bulk).await;
    let created: Vec<usize> = chunks.iter().map(|chunk| chunk.outcome.as_ref().unwrap().len()).collect();
    assert_eq!(created, [25, 5]);
}

#[tokio::test]
async fn malformed_bodies_are_json_400s() {
    let sandbox = sandbox(&["k"]).await;
    for body in ["{", "[]", r#"{"image_url": 5}"#, r#"{"image_url": "https://a/b.jpg"}"#] {
        let request =
            raw(&sandbox, Method::POST, "/v2/renders", "k").header("Content-Type", "application/json").body(body);
        let (status, answer) = answer(request).await;
        assert_eq!(status, 400, "{body}");
        assert!(answer["message"].as_str().is_some_and(|m| m.contains("body")), "{body}: {answer}");
    }
}

#[tokio::test]
async fn renders_survive_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let config = SandboxConfig { data_dir: Some(data.path().to_path_buf()), ..SandboxConfig::new(vec!["k".into()]) };
    let first = sandbox_with(config.clone()).await;
    let render = client(&first, "k").create_render(&single(staging(None, None), 2)).await.unwrap();
    let uid = client(&first, "k").user().await.unwrap().user.unwrap().uid;
    drop(first);

    let second = sandbox_with(config).await;
    let client = client(&second, "k");
    assert_eq!(client.user().await.unwrap().user.unwrap().uid, uid, "the same key is the same account");
    let again = client.get_render(&render.id, &GetRender::with_variations(20)).await.unwrap();
    assert_eq!(again.variation_items().len(), 2);
    assert_eq!(client.user().await.unwrap().staging_usage().0, 1);
}

/// `GET /v2/renders/{id}/variations` (not in the contract; a public client resolves a paid image with it): the
/// render's variations as a page, oldest first, on a v1 render too; another account's render is a 404.
#[tokio::test]
async fn a_renders_variations_are_listed_as_a_page() {
    let sandbox =
        sandbox_with(SandboxConfig { processing_ms: 20, ..SandboxConfig::new(vec!["k".into(), "other".into()]) }).await;
    let render = client(&sandbox, "k").create_render(&single(staging(None, None), 3)).await.unwrap();
    let path = format!("/v2/renders/{}/variations", render.id);
    let (status, page) = answer(raw(&sandbox, Method::GET, &path, "k")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total_count"], 3, "{page}");
    let ids: Vec<_> = render.variation_items().iter().map(|v| json!(v.id)).collect();
    let listed: Vec<_> = page["items"].as_array().unwrap().iter().map(|v| v["id"].clone()).collect();
    assert_eq!(listed, ids, "oldest first");
    let (status, first) = answer(raw(&sandbox, Method::GET, &format!("{path}?limit=2&order=desc"), "k")).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!((first["items"].as_array().unwrap().len(), &first["items"][0]["id"]), (2, &ids[2]), "{first}");
    assert_eq!(first["next_cursor"], ids[1]);
    assert_eq!(answer(raw(&sandbox, Method::GET, &format!("{path}?limit=0"), "k")).await.0, 400);
    assert_eq!(answer(raw(&sandbox, Method::GET, &path, "other")).await.0, 404);

    let body = json!({"image_url": PHOTO, "room_type": "living", "style": "modern", "wait_for_completion": false});
    let (_, created) = answer(raw(&sandbox, Method::POST, "/v1/render/create", "k").json(&body)).await;
    let path = format!("/v2/renders/{}/variations", created["render_id"].as_str().unwrap());
    let (status, page) = answer(raw(&sandbox, Method::GET, &path, "k")).await;
    assert_eq!((status, page["items"].as_array().map(Vec::len)), (200, Some(1)), "{page}");
}
