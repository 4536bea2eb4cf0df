//! `vstage token`: prints a widget token signed with `VSTAGE_WIDGET_SECRET`, as a host site's backend mints them
//! (ours, or with `--jwt` a standard JWT).

use anyhow::bail;

use crate::access::token::WidgetSecret;
use crate::cli::TokenArgs;
use crate::startup::Secrets;

pub fn run(args: TokenArgs) -> anyhow::Result<()> {
    let secret = Secrets::from_env()
        .widget
        .ok_or_else(|| anyhow::anyhow!("set VSTAGE_WIDGET_SECRET to the secret `vstage serve --access token` uses"))?;
    let secret = WidgetSecret::new(&secret).map_err(anyhow::Error::msg)?;
    if args.sub.is_empty() {
        bail!("--sub must name someone");
    }
    let origin = args.origin.as_deref();
    let token = match args.jwt {
        true => secret.mint_jwt(&args.sub, args.ttl, origin),
        false => secret.mint(&args.sub, args.ttl, origin),
    };
    super::print_out(&format!("{token}\n"))
}
