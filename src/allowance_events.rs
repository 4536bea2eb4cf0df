//! `vstage-allowance-low` (80 % used) and `vstage-allowance-spent` (all used), told to the host page when an agent's
//! allowance of a kind gets there, once each time: a chunk, fetched the first time an own allowance is read.

use leptos::prelude::*;
use vstage_api::Limit;
use vstage_api::usage::{UsageKind, UsageLevel};

use crate::allowance::Allowance;
use crate::chunks::chunk;
use crate::host::{ALLOWANCE_LOW, ALLOWANCE_SPENT, Host, use_host};

/// Tells the studio's host (if it has one) what the agent's own `allowance` reached since `told`, once the chunk is
/// here; a chunk that could not be fetched tells nothing, and the next reading of the usage tries again.
pub fn tell_the_host(allowance: Allowance, told: StoredValue<[UsageLevel; 2]>) {
    let Some(host) = use_host() else { return };
    leptos::task::spawn_local(async move {
        let _ = tell(allowance, host, told).await;
    });
}

chunk! {
    /// Tells `host` of each kind of the agent's own `allowance` whose level changed to near or reached since `told`.
    list fn tell(allowance: Allowance, host: Host, told: StoredValue<[UsageLevel; 2]>) -> () {
        let Some(renews_at) = allowance.renews_at else { return Ok(()) };
        for (index, kind) in UsageKind::ALL.into_iter().enumerate() {
            let spendable = allowance.of(kind);
            let (Limit::Photos(limit), true) = (&spendable.limit, spendable.own) else { continue };
            let (used, limit) = (spendable.used, *limit);
            let level = UsageLevel::of(used, limit);
            // The studio may have been removed while the chunk was fetched: then nothing is told.
            let Some(before) = told.try_with_value(|told| told[index]) else { return Ok(()) };
            if before == level {
                continue;
            }
            told.try_update_value(|told| told[index] = level);
            let name = match level {
                UsageLevel::Near => ALLOWANCE_LOW,
                UsageLevel::Reached => ALLOWANCE_SPENT,
                UsageLevel::Normal => continue,
            };
            let detail = vstage_api::host_events::AllowanceLevel { kind, used, limit, renews_at };
            host.emit(name, &detail);
        }
    }
}
