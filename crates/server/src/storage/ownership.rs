//! Who created what: every render and analysis made through this server is recorded with its subject, so that in
//! `token` access a subject sees only its own. Also pages a subject's renders for `GET /api/v2/renders`.

use rusqlite::{OptionalExtension, params};

use crate::error::ServerError;
use crate::storage::db::Db;

/// The kinds of thing a subject owns; each has its own id space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Render,
    Analysis,
    V1Render,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Render => "render",
            Kind::Analysis => "analysis",
            Kind::V1Render => "v1_render",
        }
    }
}

/// One page of a subject's render ids, in the order asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedPage {
    pub ids: Vec<String>,
    pub next_cursor: Option<String>,
    pub total: u64,
}

#[derive(Debug, Clone)]
pub struct Ownership {
    db: Db,
}

impl Ownership {
    pub fn new(db: Db) -> Self {
        Ownership { db }
    }

    /// Records `ids` as created by `subject` (a retried record changes nothing).
    pub async fn record(&self, kind: Kind, ids: Vec<String>, subject: &str) -> Result<(), ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                let tx = db.transaction()?;
                for id in &ids {
                    tx.execute(
                        "INSERT OR IGNORE INTO owners (kind, id, subject) VALUES (?1, ?2, ?3)",
                        params![kind.as_str(), id, subject],
                    )?;
                }
                tx.commit()?;
                Ok(())
            })
            .await
    }

    /// Whether `subject` created every one of `ids`.
    pub async fn owns_all(&self, kind: Kind, ids: Vec<String>, subject: &str) -> Result<bool, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                for id in &ids {
                    if owner_of(db, kind, id)?.as_deref() != Some(subject.as_str()) {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
            .await
    }

    /// `limit` of `subject`'s renders after `cursor` (a render id), newest first unless `ascending`.
    pub async fn renders_page(
        &self,
        kind: Kind,
        subject: &str,
        limit: u32,
        cursor: Option<String>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError> {
        let subject = subject.to_string();
        self.db
            .run(move |db| {
                let after: Option<i64> = match &cursor {
                    Some(cursor) => Some(
                        db.query_row(
                            "SELECT seq FROM owners WHERE kind = ?3 AND id = ?1 AND subject = ?2",
                            params![cursor, subject, kind.as_str()],
                            |row| row.get(0),
                        )
                        .optional()?
                        .ok_or_else(|| {
                            ServerError::BadRequest(format!(
                                "cursor: `{cursor}` is not one of your renders; start again from the first page."
                            ))
                        })?,
                    ),
                    None => None,
                };
                let sql = format!(
                    "SELECT id FROM owners WHERE kind = ?4 AND subject = ?1 AND (?2 IS NULL OR seq {} ?2)
                     ORDER BY seq {} LIMIT ?3",
                    if ascending { ">" } else { "<" },
                    if ascending { "ASC" } else { "DESC" }
                );
                let mut ids: Vec<String> = db
                    .prepare(&sql)?
                    .query_map(params![subject, after, i64::from(limit) + 1, kind.as_str()], |row| row.get(0))?
                    .collect::<Result<_, _>>()?;
                let next_cursor = if ids.len() > limit as usize {
                    ids.truncate(limit as usize);
                    ids.last().cloned()
                } else {
                    None
                };
                let total: i64 = db.query_row(
                    "SELECT COUNT(*) FROM owners WHERE kind = ?2 AND subject = ?1",
                    params![subject, kind.as_str()],
                    |row| row.get(0),
                )?;
                Ok(OwnedPage { ids, next_cursor, total: total.max(0) as u64 })
            })
            .await
    }
}

/// The subject that created `id`, if it was made through this server; read inside the caller's transaction.
pub fn owner_of(db: &rusqlite::Connection, kind: Kind, id: &str) -> Result<Option<String>, ServerError> {
    Ok(db
        .query_row("SELECT subject FROM owners WHERE kind = ?1 AND id = ?2", params![kind.as_str(), id], |row| {
            row.get(0)
        })
        .optional()?)
}
