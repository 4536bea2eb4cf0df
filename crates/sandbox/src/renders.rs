//! Renders and their variations in the store: creation under the contract's rules, reading, and cursor pages.
//! Every write runs in one `BEGIN IMMEDIATE` transaction, so the 20-per-render bound holds under concurrency.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};
use vstage_api::time::now_millis;
use vstage_api::usage::{self, Cost, UsageKind};
use vstage_api::validate::MAX_VARIATIONS_PER_RENDER;
use vstage_api::{
    AddVariations, BulkAddVariations, BulkCreateRenders, Config, CreateRender, GetRender, ListRenders, RemovalMode,
    RemovalOnlyConfig, Render, RenderPage, SortOrder, Timestamp, Variation, VariationPage, VariationStatus,
    VariationType,
};

use crate::accounts::{self, Account};
use crate::error::SandboxError;
use crate::ids::new_id;

/// How long processing takes, for the estimates (`eta`).
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    pub processing_ms: u64,
    pub workers: u64,
}

/// What creating variations needs to know besides the request.
#[derive(Debug, Clone)]
pub struct Planning {
    pub pace: Pace,
    /// Photos in which the analysis found no furniture: `auto` removal makes no removal variation for them.
    pub unfurnished: HashSet<String>,
}

/// Whether `config` removes furniture only if there is some (`auto`, with no base given), so its photo must be
/// analysed before the variations are planned.
pub fn needs_furniture_check(config: &Config) -> bool {
    matches!(config, Config::Staging(s) if s.creates_removal_variations()
        && s.remove_furniture.as_ref().is_some_and(|r| r.mode == RemovalMode::Auto))
}

/// A variation about to be created.
pub struct Planned {
    pub id: String,
    pub kind: VariationType,
    pub config: Config,
    pub base_variation_id: Option<String>,
}

/// The variations `count` of `config` make, in creation order (service-api.md, base variation rules 2, 4 and 9):
/// staging that removes furniture first, with no base given, gets its own removal variation just before it, unless
/// removal is `auto` and the photo has no furniture (rule 3).
fn plan(config: &Config, count: u64, unfurnished: bool) -> Result<Vec<Planned>, SandboxError> {
    vstage_api::validate::known_vocabulary("config", config)?;
    let kind = config.variation_type().ok_or_else(|| {
        SandboxError::BadRequest("config: this configuration type is not supported by the service.".into())
    })?;
    if matches!(config, Config::LegacyStaging(_)) {
        return Err(SandboxError::BadRequest(
            "config: legacy_staging describes variations made through v1; request staging instead.".into(),
        ));
    }
    let mut planned = Vec::new();
    for _ in 0..count {
        let mut base_variation_id = config.base_variation_id().map(str::to_string);
        if let Config::Staging(staging) = config
            && staging.creates_removal_variations()
            && !(unfurnished && needs_furniture_check(config))
            && let Some(removal) = &staging.remove_furniture
        {
            let removal_id = new_id("var")?;
            let removal_config = Config::RemovalOnly(RemovalOnlyConfig {
                output_resolution: staging.output_resolution.clone(),
                add_virtually_staged_watermark: staging.add_virtually_staged_watermark,
                remove_furniture: removal.clone(),
            });
            planned.push(Planned {
                id: removal_id.clone(),
                kind: VariationType::Removal,
                config: removal_config,
                base_variation_id: None,
            });
            base_variation_id = Some(removal_id);
        }
        planned.push(Planned { id: new_id("var")?, kind: kind.clone(), config: config.clone(), base_variation_id });
    }
    Ok(planned)
}

/// `POST /v2/renders`: the render and its planned variations, or nothing at all.
pub fn create(
    db: &mut Connection,
    account: &Account,
    request: &CreateRender,
    planning: &Planning,
) -> Result<Render, SandboxError> {
    request.validate()?;
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    accounts::charge(&tx, account, usage::of_render(request))?;
    let id = insert_render(
        &tx,
        account,
        &request.image_url,
        request.webhook_url.as_deref(),
        &request.configs.entries(),
        planning,
    )?;
    if !request.image_urls.is_empty() {
        let views = serde_json::to_string(&request.image_urls).map_err(|e| SandboxError::Internal(e.to_string()))?;
        tx.prepare_cached("UPDATE renders SET image_urls = ?1 WHERE id = ?2")?.execute(params![views, id])?;
    }
    tx.commit()?;
    get(db, account, &id, &GetRender::with_variations(MAX_VARIATIONS_PER_RENDER as u32))
}

/// The photos of a multi-view render (none for a render of one photo).
fn views(db: &Connection, render_id: &str) -> Result<Vec<String>, SandboxError> {
    let stored =
        db.prepare_cached("SELECT image_urls FROM renders WHERE id = ?1")?.query_row([render_id], |row| row.get(0))?;
    Ok(stored_views(stored))
}

/// A render's `image_urls` column read: the photos of a multi-view render, none otherwise.
pub fn stored_views(stored: Option<String>) -> Vec<String> {
    stored.and_then(|views| serde_json::from_str(&views).ok()).unwrap_or_default()
}

/// `POST /v2/renders/bulk`: every render, or none.
pub fn create_bulk(
    db: &mut Connection,
    account: &Account,
    request: &BulkCreateRenders,
    planning: &Planning,
) -> Result<Vec<Render>, SandboxError> {
    request.validate()?;
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    accounts::charge(&tx, account, usage::of_bulk_renders(request))?;
    let mut ids = Vec::new();
    for entry in &request.renders {
        let entries = [(&entry.config, entry.variation_count)];
        ids.push(insert_render(&tx, account, &entry.image_url, request.webhook_url.as_deref(), &entries, planning)?);
    }
    tx.commit()?;
    let query = GetRender::with_variations(MAX_VARIATIONS_PER_RENDER as u32);
    ids.iter().map(|id| get(db, account, id, &query)).collect()
}

fn insert_render(
    tx: &Connection,
    account: &Account,
    image_url: &str,
    webhook_url: Option<&str>,
    entries: &[(&Config, u64)],
    planning: &Planning,
) -> Result<String, SandboxError> {
    let unfurnished = planning.unfurnished.contains(image_url);
    let mut planned = Vec::new();
    for (config, count) in entries {
        planned.extend(plan(config, *count, unfurnished)?);
    }
    let id = new_id("rnd")?;
    insert_render_row(tx, account, &NewRender { id: &id, image_url, webhook_url, v1_settings: None })?;
    insert_variations(tx, &id, 0, &planned, planning.pace)?;
    Ok(id)
}

/// A render's own row, v2's or v1's.
pub struct NewRender<'a> {
    pub id: &'a str,
    pub image_url: &'a str,
    pub webhook_url: Option<&'a str>,
    /// A v1 render's create arguments (JSON), which its variations start from.
    pub v1_settings: Option<&'a str>,
}

/// Records a render's row, created and queued now, inside the caller's transaction.
pub fn insert_render_row(tx: &Connection, account: &Account, render: &NewRender<'_>) -> Result<(), SandboxError> {
    let api_version = if render.v1_settings.is_some() { 1 } else { 2 };
    tx.prepare_cached(
        "INSERT INTO renders (id, account_uid, created_at, queued_at, image_url, webhook_url, api_version, v1_settings)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        render.id,
        account.uid,
        now_millis(),
        render.image_url,
        render.webhook_url,
        api_version,
        render.v1_settings
    ])?;
    Ok(())
}

/// `POST /v2/renders/{id}/variations`: the new variations, or nothing at all.
pub fn add(
    db: &mut Connection,
    account: &Account,
    render_id: &str,
    request: &AddVariations,
    planning: &Planning,
) -> Result<Vec<Variation>, SandboxError> {
    request.validate(None)?;
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let ids = insert_added(&tx, account, render_id, &request.config, request.variation_count, planning)?;
    tx.commit()?;
    ids.iter().map(|id| variation(db, account, render_id, id)).collect()
}

/// `POST /v2/renders/variations/bulk`: every entry's variations, or none.
pub fn add_bulk(
    db: &mut Connection,
    account: &Account,
    request: &BulkAddVariations,
    planning: &Planning,
) -> Result<Vec<Variation>, SandboxError> {
    request.validate()?;
    let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut created = Vec::new();
    for entry in &request.renders {
        for id in insert_added(&tx, account, &entry.render_id, &entry.config, entry.variation_count, planning)? {
            created.push((entry.render_id.clone(), id));
        }
    }
    tx.commit()?;
    created.iter().map(|(render_id, id)| variation(db, account, render_id, id)).collect()
}

fn insert_added(
    tx: &Connection,
    account: &Account,
    render_id: &str,
    config: &Config,
    count: u64,
    planning: &Planning,
) -> Result<Vec<String>, SandboxError> {
    let seq = render_seq(tx, account, render_id)?;
    let image_url: String =
        tx.prepare_cached("SELECT image_url FROM renders WHERE seq = ?1")?.query_row([seq], |r| r.get(0))?;
    if !views(tx, render_id)?.is_empty() {
        vstage_api::validate::multi_view_config("config", config)?;
    }
    if let Some(base) = config.base_variation_id() {
        let kind: Option<String> = tx
            .prepare_cached("SELECT kind FROM variations WHERE id = ?1 AND render_id = ?2")?
            .query_row(params![base, render_id], |r| r.get(0))
            .optional()?;
        match kind.as_deref() {
            None => {
                return Err(SandboxError::BadRequest(format!(
                    "config.add_furniture.base_variation_id: `{base}` is not a variation of render {render_id}; use a removal variation of the same render."
                )));
            }
            Some(kind) if kind != VariationType::Removal.as_str() => {
                return Err(SandboxError::BadRequest(format!(
                    "config.add_furniture.base_variation_id: `{base}` is a {kind} variation; a base must be a removal variation."
                )));
            }
            Some(_) => {}
        }
    }
    let planned = plan(config, count, planning.unfurnished.contains(&image_url))?;
    let existing: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM variations WHERE render_id = ?1")?
        .query_row([render_id], |r| r.get(0))?;
    accounts::charge(tx, account, cost_of_adding(tx, render_id, config)?)?;
    insert_variations(tx, render_id, existing as u64, &planned, planning.pace)?;
    Ok(planned.into_iter().map(|p| p.id).collect())
}

/// What adding variations of `config` to `render_id` costs (`usage::of_added`): the render stands charged for the
/// kinds of the variations it has (the sandbox gives nothing back), and is made from its views' photos.
pub fn cost_of_adding(tx: &Connection, render_id: &str, config: &Config) -> Result<Cost, SandboxError> {
    let mut charged = Cost::NONE;
    let mut kinds = tx.prepare_cached("SELECT DISTINCT kind FROM variations WHERE render_id = ?1")?;
    for kind in kinds.query_map([render_id], |row| row.get::<_, String>(0))? {
        let kind = UsageKind::of_type(Some(&VariationType::from(kind?.as_str())));
        charged = charged.plus(Cost::of(kind, 1));
    }
    let photos = views(tx, render_id)?.len().max(1) as u64;
    Ok(usage::of_added(photos, charged, &[UsageKind::of(config)]))
}

/// Checks the bound and inserts, inside the caller's transaction.
pub fn insert_variations(
    tx: &Connection,
    render_id: &str,
    existing: u64,
    planned: &[Planned],
    pace: Pace,
) -> Result<(), SandboxError> {
    let total = existing + planned.len() as u64;
    if total > MAX_VARIATIONS_PER_RENDER {
        return Err(SandboxError::BadRequest(format!(
            "variation_count: this would make {total} variations; a render holds at most {MAX_VARIATIONS_PER_RENDER} ({} left).",
            MAX_VARIATIONS_PER_RENDER.saturating_sub(existing)
        )));
    }
    let waiting: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM variations WHERE status IN ('queued', 'rendering')")?
        .query_row([], |r| r.get(0))?;
    let now = now_millis();
    for (position, planned) in planned.iter().enumerate() {
        let ahead = waiting as u64 + position as u64;
        let eta = now + (pace.processing_ms * (ahead / pace.workers.max(1) + 1)) as i64;
        let config = serde_json::to_string(&planned.config).map_err(|e| SandboxError::Internal(e.to_string()))?;
        tx.prepare_cached(
            "INSERT INTO variations (id, render_id, kind, status, config, base_variation_id, created_at, eta)
             VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            planned.id,
            render_id,
            planned.kind.as_str(),
            config,
            planned.base_variation_id,
            now,
            eta
        ])?;
    }
    Ok(())
}

/// The sequence number of one of the account's renders; another account's render does not exist (404).
pub fn render_seq(db: &Connection, account: &Account, render_id: &str) -> Result<i64, SandboxError> {
    db.prepare_cached("SELECT seq FROM renders WHERE id = ?1 AND account_uid = ?2")?
        .query_row(params![render_id, account.uid], |r| r.get(0))
        .optional()?
        .ok_or_else(|| SandboxError::NotFound(format!("No render {render_id} in this account.")))
}

/// `GET /v2/renders/{id}`.
pub fn get(db: &Connection, account: &Account, render_id: &str, query: &GetRender) -> Result<Render, SandboxError> {
    query.validate()?;
    let seq = render_seq(db, account, render_id)?;
    let mut render = db
        .prepare_cached("SELECT id, created_at, queued_at, image_url FROM renders WHERE seq = ?1")?
        .query_row([seq], |row| {
            Ok(Render {
                id: row.get(0)?,
                created_at: Timestamp::from_millis(row.get(1)?),
                queued_at: row.get::<_, Option<i64>>(2)?.map(Timestamp::from_millis),
                variations: None,
                eta: None,
                image_url: row.get(3)?,
            })
        })?;
    let first_eta: Option<i64> = db
        .prepare_cached("SELECT MIN(eta) FROM variations WHERE render_id = ?1 AND status IN ('queued', 'rendering')")?
        .query_row([render_id], |r| r.get(0))?;
    render.eta = first_eta.map(Timestamp::from_millis);
    render.variations = Some(if query.include_variations == Some(true) {
        variation_page(db, render_id, query)?
    } else {
        // Clients read `variations.total_count` without asking for the items (viktorvidual/digital-estate,
        // supabase/functions/create-variations/index.ts): the count is always there, the items when asked for.
        VariationPage { total_count: Some(variation_count(db, render_id)?), next_cursor: None, items: Vec::new() }
    });
    Ok(render)
}

fn variation_count(db: &Connection, render_id: &str) -> Result<u64, SandboxError> {
    let total: i64 = db
        .prepare_cached("SELECT COUNT(*) FROM variations WHERE render_id = ?1")?
        .query_row([render_id], |r| r.get(0))?;
    Ok(total as u64)
}

fn variation_page(db: &Connection, render_id: &str, query: &GetRender) -> Result<VariationPage, SandboxError> {
    let limit = query.variations_limit.unwrap_or(20) as i64;
    let ascending = query.variations_order.unwrap_or(SortOrder::Asc) == SortOrder::Asc;
    let after = match query.variations_cursor.as_ref().filter(|c| !c.is_empty()) {
        Some(cursor) => Some(
            db.prepare_cached("SELECT seq FROM variations WHERE id = ?1 AND render_id = ?2")?
                .query_row(params![cursor, render_id], |r| r.get::<_, i64>(0))
                .optional()?
                .ok_or_else(|| {
                    SandboxError::BadRequest(format!(
                        "variations_cursor: `{cursor}` is not a variation of this render."
                    ))
                })?,
        ),
        None => None,
    };
    let sql = format!(
        "SELECT {VARIATION_COLUMNS} FROM variations
         WHERE render_id = ?1 AND (?2 IS NULL OR seq {} ?2)
         ORDER BY seq {} LIMIT ?3",
        if ascending { ">" } else { "<" },
        if ascending { "ASC" } else { "DESC" }
    );
    let mut items: Vec<Variation> = db
        .prepare_cached(&sql)?
        .query_map(params![render_id, after, limit + 1], variation_from_row)?
        .collect::<Result<_, _>>()?;
    let next_cursor = if items.len() as i64 > limit {
        items.truncate(limit as usize);
        items.last().map(|v| v.id.clone())
    } else {
        None
    };
    Ok(VariationPage { total_count: Some(variation_count(db, render_id)?), next_cursor, items })
}

/// `GET /v2/renders/{id}/variations`: a page of the render's variations, oldest first unless asked otherwise (v1
/// renders' too). `query` is read as `GET /v2/renders/{id}`'s `variations_*`.
pub fn variations(
    db: &Connection,
    account: &Account,
    render_id: &str,
    query: &GetRender,
) -> Result<VariationPage, SandboxError> {
    query.validate()?;
    render_seq(db, account, render_id)?;
    variation_page(db, render_id, query)
}

/// `GET /v2/renders`: the account's renders, newest first unless asked otherwise, each with its first variations.
pub fn list(db: &Connection, account: &Account, query: &ListRenders) -> Result<RenderPage, SandboxError> {
    query.validate()?;
    let limit = query.limit.unwrap_or(20) as i64;
    let ascending = query.order.unwrap_or_default() == SortOrder::Asc;
    let after =
        match &query.cursor {
            Some(cursor) => Some(render_seq(db, account, cursor).map_err(|_| {
                SandboxError::BadRequest(format!("cursor: `{cursor}` is not a render of this account."))
            })?),
            None => None,
        };
    let sql = format!(
        "SELECT id FROM renders WHERE account_uid = ?1 AND (?2 IS NULL OR seq {} ?2) ORDER BY seq {} LIMIT ?3",
        if ascending { ">" } else { "<" },
        if ascending { "ASC" } else { "DESC" }
    );
    let mut ids: Vec<String> = db
        .prepare_cached(&sql)?
        .query_map(params![account.uid, after, limit + 1], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let next_cursor = if ids.len() as i64 > limit {
        ids.truncate(limit as usize);
        ids.last().cloned()
    } else {
        None
    };
    let with_variations = GetRender::with_variations(20);
    let items = ids.iter().map(|id| get(db, account, id, &with_variations)).collect::<Result<_, _>>()?;
    let total: i64 = db
        .prepare_cached("SELECT COUNT(*) FROM renders WHERE account_uid = ?1")?
        .query_row([&account.uid], |r| r.get(0))?;
    Ok(RenderPage { total_count: Some(total as u64), next_cursor, items })
}

/// `GET /v2/renders/{id}/variations/{variation_id}`.
pub fn variation(
    db: &Connection,
    account: &Account,
    render_id: &str,
    variation_id: &str,
) -> Result<Variation, SandboxError> {
    render_seq(db, account, render_id)?;
    db.query_row(
        &format!("SELECT {VARIATION_COLUMNS} FROM variations WHERE id = ?1 AND render_id = ?2"),
        params![variation_id, render_id],
        variation_from_row,
    )
    .optional()?
    .ok_or_else(|| SandboxError::NotFound(format!("No variation {variation_id} in render {render_id}.")))
}

pub const VARIATION_COLUMNS: &str =
    "id, render_id, kind, status, config, base_variation_id, created_at, eta, result, error_message";

pub fn variation_from_row(row: &Row<'_>) -> rusqlite::Result<Variation> {
    let json = |index: usize| -> rusqlite::Result<Option<serde_json::Value>> {
        let text: Option<String> = row.get(index)?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    };
    let status = VariationStatus::from(row.get::<_, String>(3)?.as_str());
    let eta = if status.is_final() { None } else { row.get::<_, Option<i64>>(7)?.map(Timestamp::from_millis) };
    Ok(Variation {
        id: row.get(0)?,
        render_id: row.get(1)?,
        kind: Some(VariationType::from(row.get::<_, String>(2)?.as_str())),
        status,
        config: json(4)?.and_then(|v| serde_json::from_value(v).ok()),
        base_variation_id: row.get(5)?,
        created_at: Timestamp::from_millis(row.get(6)?),
        eta,
        result: json(8)?.and_then(|v| serde_json::from_value(v).ok()),
        error_message: row.get(9)?,
    })
}

/// How many of these variations are not final yet.
pub fn pending(db: &Connection, ids: &[String]) -> Result<usize, SandboxError> {
    let mut statement = db.prepare_cached("SELECT status FROM variations WHERE id = ?1")?;
    let mut count = 0;
    for id in ids {
        let status: Option<String> = statement.query_row([id], |r| r.get(0)).optional()?;
        if status.is_some_and(|s| !VariationStatus::from(s.as_str()).is_final()) {
            count += 1;
        }
    }
    Ok(count)
}

/// The photo of one of the account's renders.
pub fn image_url(db: &Connection, account: &Account, render_id: &str) -> Result<String, SandboxError> {
    let seq = render_seq(db, account, render_id)?;
    Ok(db.prepare_cached("SELECT image_url FROM renders WHERE seq = ?1")?.query_row([seq], |r| r.get(0))?)
}
