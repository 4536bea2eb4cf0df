//! The sandbox's accounts: one per API key, each with its identity, limits, usage and webhook secret.
//! A uid is an HMAC of the key under a salt kept in the database: stable across restarts, never revealing the key.

use std::collections::HashMap;
use std::fmt;

use rusqlite::{Connection, OptionalExtension, params};
use vstage_api::usage::{Cost, UsageKind};
use vstage_api::{PhotoCounts, PhotoLimits, User, UserIdentity};

use crate::error::SandboxError;
use crate::store::Store;

/// One account of the sandbox.
#[derive(Debug, Clone)]
pub struct Account {
    pub uid: String,
    pub email: String,
    pub photo_limit: PhotoCounts,
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
    pub fn load(api_keys: &[String], photo_limit: u64, store: &Store) -> Result<Self, SandboxError> {
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
            };
            let uid = account.uid.clone();
            store.run_now(move |db| Ok(db.execute("INSERT OR IGNORE INTO accounts (uid) VALUES (?1)", [uid])?))?;
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
    /// The account as `GET /v2/user` shows it, with its usage from the store.
    pub fn as_user(&self, used: PhotoCounts) -> User {
        User {
            user: Some(UserIdentity { email: self.email.clone(), uid: self.uid.clone() }),
            photo_limit: PhotoLimits {
                staging: self.photo_limit.staging.into(),
                image_editing: self.photo_limit.image_editing.into(),
            },
            photos_used_this_period: used,
            renews_at: None,
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

/// Photos used this period.
pub fn usage(db: &Connection, uid: &str) -> Result<PhotoCounts, SandboxError> {
    Ok(db
        .prepare_cached("SELECT used_staging, used_image_editing FROM accounts WHERE uid = ?1")?
        .query_row([uid], |row| {
            Ok(PhotoCounts { staging: row.get::<_, i64>(0)? as u64, image_editing: row.get::<_, i64>(1)? as u64 })
        })?)
}

/// Counts `cost` (`vstage_api::usage`) against the account's limits; a 403 when it does not fit.
pub fn charge(db: &Connection, account: &Account, cost: Cost) -> Result<(), SandboxError> {
    let used = usage(db, &account.uid)?;
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
