//! Ids for renders, variations and analyses: a prefix and 20 random hex digits, unguessable across accounts.
//! Order comes from the store's sequence numbers, never from ids.

use crate::error::SandboxError;

pub fn random_hex(bytes: usize) -> Result<String, SandboxError> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| SandboxError::Internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(buffer))
}

pub fn new_id(prefix: &str) -> Result<String, SandboxError> {
    Ok(format!("{prefix}_{}", random_hex(10)?))
}
