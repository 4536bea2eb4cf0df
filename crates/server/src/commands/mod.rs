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
    let _ = writeln!(out, "{}", terminal_safe(line)).and_then(|()| out.flush());
}

/// `text` as it is safe to print to a terminal: a control character but a tab or a line's end (an escape that
/// would retitle the window or move the cursor, from a token's subject or an id the service answered with) is
/// written as its JSON escape, `\u001b`, which JSON output reads back as the character.
fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if unsafe_char(c) => safe.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => safe.push(c),
        }
    }
    std::borrow::Cow::Owned(safe)
}

/// A command's output, written whole and terminal-safe (`terminal_safe`): a reader that stopped early (`| head`) ends the command quietly, where
/// `print!` would panic; any other failure to write is the command's error.
fn print_out(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(terminal_safe(text).as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::terminal_safe;

    #[test]
    fn control_characters_reach_no_terminal() {
        assert_eq!(terminal_safe("agent-7\tL-1042\r\n"), "agent-7\tL-1042\r\n");
        // a window title set by an escape, DEL and a C1 control (CSI), as JSON writes them
        assert_eq!(terminal_safe("\u{1b}]0;pwned\u{7}x\u{7f}\u{9b}"), "\\u001b]0;pwned\\u0007x\\u007f\\u009b");
        let json = serde_json::to_string(&"a\u{9b}b").unwrap();
        let printed: String = serde_json::from_str(&terminal_safe(&json)).unwrap();
        assert_eq!(printed, "a\u{9b}b", "JSON output reads back as it was");
    }
}
