//! `vstage check`: what `serve` checks before it listens (`startup`), then nothing more; for deploy pipelines.

use crate::cli::ServeArgs;
use crate::commands::say;
use crate::startup::{Secrets, ServerParts};

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let parts = ServerParts::make(&args, &format!("http://{}", args.serving.listen), Secrets::from_env()).await?;
    let credentials = parts.credentials.describe();
    drop(parts);
    say("vstage check: the database, the store, the service with its key and the widget are ready");
    say(&format!("vstage check: {credentials}"));
    say(&format!(
        "vstage check: webhook deliveries are verified by the signature in their {} header, written as {}",
        args.service.webhook_signature_header,
        args.service.webhook_signature_encoding.name()
    ));
    say(
        "vstage check: refused deliveries are named by a running server's /readyz (\"webhooks\") and counted in /metrics",
    );
    Ok(())
}
