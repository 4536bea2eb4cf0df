//! The figures `cargo xtask test` and `run` close with, so that a run on one machine can be compared with a run on
//! another (#64): the wall time, the CPU time (user and system) of xtask and of every process it waited for
//! (cargo and each rustc under it, trunk, the tests), and, after the tests, this machine's own speed: the CPU time
//! of one fixed reference build (one rustc on one core, always the same source). docs/benchmarks.md says how to
//! read them.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};
use nix::sys::resource::{UsageWho, getrusage};

/// User and system time, in seconds, of this process and of the children it has waited for (a child still
/// running, like the server `cargo xtask run` starts, is not counted yet, nor anything a child left running).
pub fn cpu_seconds() -> f64 {
    let seconds = |who| {
        getrusage(who).map_or(0.0, |usage| {
            let (user, system) = (usage.user_time(), usage.system_time());
            let micros = |time: nix::sys::time::TimeVal| time.tv_sec() as f64 + time.tv_usec() as f64 / 1e6;
            micros(user) + micros(system)
        })
    };
    seconds(UsageWho::RUSAGE_SELF) + seconds(UsageWho::RUSAGE_CHILDREN)
}

/// `12m 34s wall, 25.3 CPU-minutes`, from `started` (the command's start) to now.
pub fn wall_and_cpu(started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64().round() as u64;
    format!("{}m {:02}s wall, {:.1} CPU-minutes", seconds / 60, seconds % 60, cpu_seconds() / 60.0)
}

/// The machine's speed: its cores, and the CPU seconds (user and system) one rustc takes for the reference source,
/// in `folder`. CPU rather than wall time: a build beside it takes cores, not the instructions this one needs.
pub fn machine_speed(folder: &Path) -> anyhow::Result<String> {
    std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
    let source = folder.join("reference.rs");
    std::fs::write(&source, reference_source()).with_context(|| format!("writing {}", source.display()))?;
    let before = cpu_seconds();
    let status = Command::new("rustc")
        .args(["--edition", "2021", "--crate-type", "lib", "-C", "opt-level=2", "-C", "codegen-units=1"])
        .args(["--emit", "obj", "-o"])
        .arg(folder.join("reference.o"))
        .arg(&source)
        .status()
        .context("running rustc for the reference build")?;
    if !status.success() {
        bail!("the reference build failed ({status})");
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    Ok(format!("{cores} cores; the reference build (one rustc, one core) {:.2} CPU-seconds", cpu_seconds() - before))
}

/// 120 small functions and types with iterators, closures, formatting and generics: what a crate's code is made
/// of. Never change it: the figures recorded in docs/benchmarks.md are of this source (rustc 1.95).
fn reference_source() -> String {
    let mut source = String::from("#![allow(dead_code)]\n");
    for n in 0..120 {
        let (shift, skip) = (n % 13 + 1, n % 7);
        source.push_str(&format!(
            "pub fn f{n}(v: &[u64]) -> u64 {{ v.iter().enumerate().map(|(i, x)| x.wrapping_mul({n} + i as u64) ^ \
             (x >> {shift})).filter(|x| x % 7 != {skip}).sum::<u64>() }}\n\
             pub struct S{n} {{ pub a: u64, pub b: String, pub c: Vec<u32> }}\n\
             impl S{n} {{ pub fn describe(&self) -> String {{ format!(\"{{}} {{}} {{:?}}\", self.a, self.b, \
             self.c.iter().map(|x| x * {n}).collect::<Vec<_>>()) }} }}\n"
        ));
    }
    source
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_time_counts_a_child_once_it_is_waited_for() {
        let before = cpu_seconds();
        // a child that spins for a while on its own
        let status = Command::new("sh").args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]).status();
        assert!(status.unwrap().success());
        assert!(cpu_seconds() > before, "the child's time is counted");
    }

    #[test]
    fn the_reference_source_stays_what_the_recorded_figures_were_measured_on() {
        use sha2::{Digest, Sha256};
        let digest = hex::encode(Sha256::digest(reference_source()));
        assert_eq!(
            digest, "7baf777bb095da28bcaad838f95f8ad32aa3e58dfde2ff2e1401ed14b1e577c5",
            "the reference source changed: the recorded machine speeds no longer compare"
        );
    }
}
