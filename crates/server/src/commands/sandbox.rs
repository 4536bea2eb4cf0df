//! `vstage sandbox`: the sandbox alone, for direct use with an `Api-Key`.

use std::time::Duration;

use anyhow::Context;

use crate::cli::SandboxArgs;
use crate::commands::{announce, bind};
use crate::serving::shutdown;

pub async fn run(args: SandboxArgs) -> anyhow::Result<()> {
    let listener = bind(args.listen).await?;
    let config = vstage_sandbox::SandboxConfig {
        api_keys: args.api_keys,
        photo_limit: args.photo_limit,
        data_dir: args.data_dir,
        processing_ms: args.processing_ms,
        webhook_retry_ms: args.webhook_retry_ms,
        sync_timeout: Duration::from_secs(args.sync_timeout_s),
        direct_sync_timeout: Duration::from_secs(args.direct_sync_timeout_s),
        local_photo_sources: args.local_photos,
        clock: vstage_sandbox::Clock::system(),
    };
    let sandbox = vstage_sandbox::build(&config, &format!("http://{}", listener.local_addr()?))?;
    announce(&listener, "standalone sandbox")?;
    sandbox.serve(listener, shutdown::signal()).await.context("serving")?;
    Ok(())
}
