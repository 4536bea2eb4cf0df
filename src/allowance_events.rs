//! `vstage-allowance-low` (80 % used) and `vstage-allowance-spent` (all used), told to the host page when an agent's
//! allowance of a kind gets there, once each time: a chunk, fetched the first time a user with an allowance is read.

use leptos::prelude::*;
use vstage_api::usage::{UsageKind, UsageLevel};
use vstage_api::{Limit, User};

use crate::chunks::chunk;
use crate::host::{ALLOWANCE_LOW, ALLOWANCE_SPENT, Host, use_host};

/// Tells the studio's host (if it has one) what `user`'s allowance reached since `told`, once the chunk is here; a
/// chunk that could not be fetched tells nothing, and the next reading of the usage tries again.
pub fn tell_the_host(user: User, told: StoredValue<[UsageLevel; 2]>) {
    let Some(host) = use_host() else { return };
    leptos::task::spawn_local(async move {
        let _ = tell(user, host, told).await;
    });
}

chunk! {
    /// Tells `host` of each kind of `user`'s allowance whose level changed to near or reached since `told`.
    fn tell(user: User, host: Host, told: StoredValue<[UsageLevel; 2]>) -> () {
        let Some(renews_at) = user.renews_at else { return Ok(()) };
        let kinds = [(UsageKind::Staging, user.staging_usage()), (UsageKind::ImageEditing, user.image_editing_usage())];
        for (index, (kind, (used, limit))) in kinds.into_iter().enumerate() {
            let Limit::Photos(limit) = *limit else { continue };
            let level = UsageLevel::of(used, limit);
            if told.with_value(|told| told[index]) == level {
                continue;
            }
            told.update_value(|told| told[index] = level);
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
