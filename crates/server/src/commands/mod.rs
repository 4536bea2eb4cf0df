//! The `vstage` commands, one module each, and what they share: binding an address and the lines they print.

pub mod allowance;
pub mod check;
pub mod deliveries;
pub mod sandbox;
pub mod serve;
pub mod token;
pub mod usage;

use std::net::SocketAddr;

use anyhow::Context;
use tokio::net::TcpListener;

async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}; is another program using it?"))
}

/// The line tools and tests wait for: the address actually bound (the port may have been 0).
fn announce(listener: &TcpListener, mode: &str) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    say(&format!("vstage listening on http://{addr} ({mode}); press Ctrl-C to stop"));
    Ok(())
}

/// A line for whoever watches the server. Its output may have been closed (a supervisor that read the address):
/// then the line is lost, and the server carries on, where `println!` would panic.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// A command's output, written whole: a reader that stopped early (`| head`) ends the command quietly, where
/// `print!` would panic; any other failure to write is the command's error.
fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(()),
    }
}
