//! `vstage deliveries list|retry`: the host's webhooks in the database the servers share, and sending one again.

use crate::cli::{DeliveriesAction, DeliveriesArgs};
use crate::commands::say;
use crate::storage;

pub async fn run(args: DeliveriesArgs) -> anyhow::Result<()> {
    let store = storage::open_existing(args.database.database.as_deref(), &args.database.data_dir).await?;
    match args.action {
        DeliveriesAction::List { outcome, limit } => {
            for row in store.deliveries(outcome.as_deref(), limit.max(1)).await? {
                let error = if row.last_error.is_empty() { String::new() } else { format!(" ({})", row.last_error) };
                let about = if row.render_id.is_empty() { String::new() } else { format!(" render {}", row.render_id) };
                say(&format!(
                    "{} {} {}{about} to {}: {} after {} attempt(s){error}",
                    row.id, row.created_at, row.kind, row.target, row.outcome, row.attempts
                ));
            }
        }
        DeliveriesAction::Retry { id, to } => {
            let reset = store.retry_delivery(&id, to.as_deref(), vstage_api::time::now_millis()).await?;
            match &to {
                Some(to) => anyhow::ensure!(
                    reset > 0,
                    "no delivery of {id} to {to}; `vstage deliveries list` shows them with their receivers"
                ),
                None => anyhow::ensure!(reset > 0, "no delivery has the id {id}; `vstage deliveries list` shows them"),
            }
            say(&format!("{id}: sent again to {reset} receiver(s) as soon as a server delivers"));
        }
    }
    Ok(())
}
