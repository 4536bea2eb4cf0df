//! The one interface to what the server keeps in its database, `Store`, made of one trait per concern, each in a
//! file of its own with its types: who created what (`owners`), the event log (`events`), listing boards, uploads'
//! records, kept results, disclosure records, the allowances' ledger, the content credentials' signer (`signer`),
//! and the host's webhooks' outbox (`../outbox.rs`); SQLite (`../sqlite/`) and PostgreSQL (`../postgres/`)
//! implement each in a file of the same name.
//!
//! Each method is one unit of work (one transaction where it writes more than one row), so the callers hold no SQL
//! and both databases pass the same tests (`contract_tests.rs`).

use std::sync::Arc;

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use vstage_api::board::{Board, BoardRender};
use vstage_api::usage::{Cost, UsageKind, UsageLevel};

use super::outbox::{HostOutbox, OutboxEntry};
use crate::error::ServerError;
use crate::metrics::PoolState;

mod boards;
mod disclosures;
mod events;
mod kept;
mod ledger;
mod owners;
mod signer;
mod uploads;

pub use boards::*;
pub use disclosures::*;
pub use events::*;
pub use kept::*;
pub use ledger::*;
pub use owners::*;
pub use signer::*;
pub use uploads::*;

#[async_trait]
pub trait Store:
    OwnerRecords
    + EventLog
    + BoardRecords
    + UploadRecords
    + KeptRecords
    + DisclosureRecords
    + Ledger
    + SignerRecords
    + HostOutbox
    + Send
    + Sync
    + std::fmt::Debug
{
    /// Whether other servers share this database: events are then announced through it (`event_feed`), not by
    /// the server that stored them.
    fn is_shared(&self) -> bool;
    /// A statement that touches nothing, to tell whether the database answers (readiness).
    async fn ping(&self) -> Result<(), ServerError>;
    /// The connection pool's state, for the metrics; `None` without a pool.
    fn pool_state(&self) -> Option<PoolState> {
        None
    }
}
