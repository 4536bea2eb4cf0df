//! `cargo xtask run`: set-up and the widget's release build (Trunk), then `vstage serve` in sandbox mode. On a bare
//! machine the tools take longest: the widget's cargo build, which needs none of them, goes on while they install,
//! and the server builds beside both, in what they leave of the cores. Ctrl-C reaches the server too (same process
//! group); it stops cleanly and so does this command.

use std::net::SocketAddr;

use crate::project::{self, Project};
use crate::setup::{self, Purpose};
use crate::{figures, server, widget};

pub fn run(project: &Project, listen: SocketAddr) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let (server, ()) = server::build_while(project, || {
        setup::wasm_target(project)?;
        std::thread::scope(|scope| {
            let log = project.target().join("widget-compile.log");
            let compiled = scope.spawn(move || widget::compile_ahead(project, &log));
            let tools = setup::ensure(project, Purpose::Build);
            let compiled = compiled.join().unwrap_or_else(|_| Err(anyhow::anyhow!("compiling the widget panicked")));
            tools.and(compiled)
        })?;
        widget::build(project)
    })?;
    // CPU: xtask and the builds it waited for (docs/benchmarks.md, "Build and test times")
    println!(
        "    studio ready to start after {:.1} s ({})",
        started.elapsed().as_secs_f64(),
        figures::wall_and_cpu(started)
    );
    // Ctrl-C goes to the whole foreground group: the server stops gracefully, and this command waits for it
    // instead of dying first.
    ctrlc::set_handler(|| {}).ok();
    project::run(
        "vstage serve (open the address below; Ctrl-C stops it)",
        project
            .command(server)
            .arg("serve")
            .arg("--listen")
            .arg(listen.to_string())
            .arg("--dist")
            .arg(project.dist())
            .arg("--data-dir")
            .arg(project.target().join("vstage-data")),
    )
}
