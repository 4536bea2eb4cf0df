//! The sandbox's accounts: one per API key, each with its identity, limits, usage and webhook secret.
//! A uid is an HMAC of the key under a salt kept in the database: stable across restarts, never revealing the key.

use std::collections::HashMap;
use std::fmt;

use rusqlite::{Connection, OptionalExtension, params};
use vstage_api::usage::{Cost, UsageKind};
use vstage_api::{PhotoCounts, PhotoLimits, User, UserIdentity};

use crate::clock::{Clock, months_after};
use crate::error::SandboxError;
use crate::store::Store;

/// One account of the sandbox.
#[derive(Debug, Clone)]
pub struct Account {
    pub uid: String,
    pub email: String,
    pub photo_limit: PhotoCounts,
    /// What its monthly periods are counted by.
    pub clock: Clock,
}

/// One of an account's monthly periods of usage (epoch milliseconds): from `start`, renewing at `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub start: i64,
    pub end: i64,
}

/// The accounts, found by key.
pub struct Accounts {
    by_key: HashMap<String, Account>,
}

impl fmt::Debug for Accounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Accounts").field("count", &self.by_key.len()).finish_non_exhaustive()
    }
}

impl Accounts {
    /// One account per key, created in the store when new.
    pub fn load(api_keys: &[String], photo_limit: u64, clock: &Clock, store: &Store) -> Result<Self, SandboxError> {
        if api_keys.is_empty() {
            return Err(SandboxError::Startup("the sandbox needs at least one API key (--api-key KEY)".into()));
        }
        let salt = store.run_now(uid_salt)?;
        let mut by_key = HashMap::new();
        for (index, key) in api_keys.iter().enumerate() {
            let number = index + 1;
            if key.is_empty() || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(SandboxError::Startup(format!(
                    "API key number {number} is empty or contains spaces; give keys without spaces"
                )));
            }
            let uid = uid_for(&salt, key);
            let account = Account {
                email: format!("{uid}@sandbox.vstage.invalid"),
                uid,
                photo_limit: PhotoCounts { staging: photo_limit, image_editing: photo_limit },
                clock: clock.clone(),
            };
            let (uid, now) = (account.uid.clone(), clock.now_millis());
            store.run_now(move |db| {
                db.execute("INSERT OR IGNORE INTO accounts (uid) VALUES (?1)", [&uid])?;
                // a new account's (or one from before periods were kept) first period begins now
                let sql = "UPDATE accounts SET period_anchor = ?1 WHERE uid = ?2 AND period_anchor IS NULL";
                Ok(db.execute(sql, params![now, uid])?)
            })?;
            if by_key.insert(key.clone(), account).is_some() {
                return Err(SandboxError::Startup(format!("API key number {number} is given twice")));
            }
        }
        Ok(Accounts { by_key })
    }

    pub fn find(&self, key: &str) -> Option<&Account> {
        self.by_key.get(key)
    }
}

impl Account {
    /// The account as `GET /v2/user` shows it, with its usage of the period from the store and when it renews.
    pub fn as_user(&self, used: PhotoCounts, period: Period) -> User {
        User {
            user: Some(UserIdentity { email: self.email.clone(), uid: self.uid.clone() }),
            photo_limit: PhotoLimits {
                staging: self.photo_limit.staging.into(),
                image_editing: self.photo_limit.image_editing.into(),
            },
            photos_used_this_period: used,
            renews_at: Some(period.end),
        }
    }
}

/// The salt of uids, made once per database.
fn uid_salt(db: &mut Connection) -> Result<String, SandboxError> {
    if let Some(salt) =
        db.query_row("SELECT value FROM meta WHERE key = 'uid_salt'", [], |row| row.get(0)).optional()?
    {
        return Ok(salt);
    }
    let salt = crate::ids::random_hex(32)?;
    db.execute("INSERT INTO meta (key, value) VALUES ('uid_salt', ?1)", [&salt])?;
    Ok(salt)
}

fn uid_for(salt: &str, key: &str) -> String {
    format!("acct_{}", &vstage_api::signature::sign(salt, key.as_bytes())[..16])
}

/// The account's current monthly period, which starts again on the day of the month its first began (the
/// service's plans renew monthly); when one has ended since the account was last used, the counts are reset.
pub fn period(db: &Connection, account: &Account) -> Result<Period, SandboxError> {
    let now = account.clock.now_millis();
    let (anchor, index): (Option<i64>, i64) = db
        .prepare_cached("SELECT period_anchor, period_index FROM accounts WHERE uid = ?1")?
        .query_row([&account.uid], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let Some(anchor) = anchor else {
        db.prepare_cached("UPDATE accounts SET period_anchor = ?1, period_index = 0 WHERE uid = ?2")?
            .execute(params![now, account.uid])?;
        return Ok(Period { start: now, end: months_after(now, 1) });
    };
    // periods only move on: a clock set back keeps the period it had
    let mut current = index.max(0);
    while months_after(anchor, current + 1) <= now {
        current += 1;
    }
    if current != index {
        db.prepare_cached(
            "UPDATE accounts SET used_staging = 0, used_image_editing = 0, period_index = ?1 WHERE uid = ?2",
        )?
        .execute(params![current, account.uid])?;
    }
    Ok(Period { start: months_after(anchor, current), end: months_after(anchor, current + 1) })
}

/// Photos used this period, and the period.
pub fn usage(db: &Connection, account: &Account) -> Result<(PhotoCounts, Period), SandboxError> {
    let period = period(db, account)?;
    let used = db
        .prepare_cached("SELECT used_staging, used_image_editing FROM accounts WHERE uid = ?1")?
        .query_row([&account.uid], |row| {
            Ok(PhotoCounts { staging: row.get::<_, i64>(0)? as u64, image_editing: row.get::<_, i64>(1)? as u64 })
        })?;
    Ok((used, period))
}

/// Counts `cost` (`vstage_api::usage`) against the account's limits; a 403 when it does not fit.
pub fn charge(db: &Connection, account: &Account, cost: Cost) -> Result<(), SandboxError> {
    let (used, _) = usage(db, account)?;
    for (kind, photos) in cost.parts() {
        let (column, used, limit, name) = match kind {
            UsageKind::ImageEditing => {
                ("used_image_editing", used.image_editing, account.photo_limit.image_editing, "image-editing")
            }
            UsageKind::Staging => ("used_staging", used.staging, account.photo_limit.staging, "staging"),
        };
        if used + photos > limit {
            return Err(SandboxError::Forbidden(format!(
                "The account's {name} photo limit is reached: {used} of {limit} used this period, {photos} more \
                 asked for."
            )));
        }
        db.execute(
            &format!("UPDATE accounts SET {column} = {column} + ?1 WHERE uid = ?2"),
            params![photos as i64, account.uid],
        )?;
    }
    Ok(())
}

/// Sets (`Some`) or removes (`None`) an account's webhook secret; true when one was there before.
pub fn set_webhook_secret(db: &Connection, uid: &str, secret: Option<&str>) -> Result<bool, SandboxError> {
    let before: Option<String> =
        db.prepare_cached("SELECT webhook_secret FROM accounts WHERE uid = ?1")?.query_row([uid], |row| row.get(0))?;
    db.prepare_cached("UPDATE accounts SET webhook_secret = ?1 WHERE uid = ?2")?.execute(params![secret, uid])?;
    Ok(before.is_some())
}
