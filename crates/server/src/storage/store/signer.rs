//! The content credentials' signer a server makes at first start, kept in the database so that every server on
//! it signs as one (`results::credentials::authority`).

use super::*;

/// A signer's certificate chain (signer first), its PKCS#8 private key, and the root to trust it by (PEM each).
#[derive(Clone, PartialEq, Eq)]
pub struct SignerRecord {
    pub chain_pem: String,
    pub key_pem: String,
    pub root_pem: String,
}

impl std::fmt::Debug for SignerRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignerRecord(..)")
    }
}

#[async_trait]
pub trait SignerRecords: Send + Sync {
    /// The signer kept, if any.
    async fn signer(&self) -> Result<Option<SignerRecord>, ServerError>;
    /// Keeps `made` unless a signer is kept already; the one kept (the first, for servers starting together).
    async fn keep_signer(&self, made: &SignerRecord) -> Result<SignerRecord, ServerError>;
}
