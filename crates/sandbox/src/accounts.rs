//! The sandbox's accounts: one per API key, each with its own identity, limits and usage.
//! Keys are only ever compared, never printed.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use vstage_api::{PhotoCounts, User, UserIdentity};

use crate::error::SandboxError;

/// One account of the sandbox.
#[derive(Debug, Clone)]
pub struct Account {
    pub uid: String,
    pub email: String,
    pub photo_limit: PhotoCounts,
    pub photos_used: PhotoCounts,
}

impl Account {
    /// The account as `GET /v2/user` shows it.
    pub fn as_user(&self) -> User {
        User {
            user: UserIdentity { email: self.email.clone(), uid: self.uid.clone() },
            photo_limit: self.photo_limit,
            photos_used_this_period: self.photos_used,
        }
    }
}

/// The accounts, found by key, and each account's webhook secret (by uid).
pub struct Accounts {
    by_key: HashMap<String, Account>,
    webhook_secrets: Mutex<HashMap<String, String>>,
}

impl fmt::Debug for Accounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Accounts").field("count", &self.by_key.len()).finish_non_exhaustive()
    }
}

impl Accounts {
    pub fn new(api_keys: &[String], photo_limit: u64) -> Result<Self, SandboxError> {
        if api_keys.is_empty() {
            return Err(SandboxError::Startup("the sandbox needs at least one API key (--api-key KEY)".into()));
        }
        let mut by_key = HashMap::new();
        for (index, key) in api_keys.iter().enumerate() {
            if key.is_empty() || key.chars().any(char::is_whitespace) {
                return Err(SandboxError::Startup(format!(
                    "API key number {} is empty or contains spaces; give keys without spaces",
                    index + 1
                )));
            }
            let number = index + 1;
            let account = Account {
                uid: format!("sandbox-account-{number}"),
                email: format!("account-{number}@sandbox.vstage.invalid"),
                photo_limit: PhotoCounts { staging: photo_limit, image_editing: photo_limit },
                photos_used: PhotoCounts::default(),
            };
            if by_key.insert(key.clone(), account).is_some() {
                return Err(SandboxError::Startup(format!("API key number {number} is given twice")));
            }
        }
        Ok(Accounts { by_key, webhook_secrets: Mutex::default() })
    }

    pub fn find(&self, key: &str) -> Option<&Account> {
        self.by_key.get(key)
    }

    /// Sets (`Some`) or removes (`None`) an account's webhook secret; true when one was there before.
    pub fn set_webhook_secret(&self, uid: &str, secret: Option<String>) -> bool {
        let mut secrets = self.webhook_secrets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match secret {
            Some(secret) => secrets.insert(uid.to_string(), secret).is_some(),
            None => secrets.remove(uid).is_some(),
        }
    }
}
