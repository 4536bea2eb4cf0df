//! The figures of the last recorded run, kept in the repository (`docs/bench-figures.json`, written by `cargo xtask
//! bench --record`), and how a run's figures moved from them. Each figure is kept with its unit, which way is
//! better and its noise: the relative move within which a figure is taken as unchanged (from its measured spread
//! where the bench has repeats, else its unit's default, `Unit::default_noise`). A move is judged against the
//! larger of the two runs' noises; one that is worse beyond it is named at the end of the report.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// Where the recorded figures are kept, from the repository's root.
pub const FILE: &str = "docs/bench-figures.json";

/// Which way a figure is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Lower,
    Higher,
    /// A reference's figure (nginx, ImageMagick, the sandbox measured directly), or one that is neither: its
    /// move is shown, never called worse.
    Neither,
}

/// One figure as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub value: f64,
    pub unit: Unit,
    pub better: Better,
    /// Relative: 0.15 is ±15 %.
    pub noise: f64,
    /// The commit the run measured (`git describe --always --dirty`).
    pub commit: String,
}

/// The recorded figures, by the report's name for them.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    pub figures: BTreeMap<String, Figure>,
}

/// How a figure moved from the recorded one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Movement {
    /// (now - then) / then; infinite when the recorded value was 0 and this one is not.
    pub relative: f64,
    /// The noise it was judged against (the larger of the two runs').
    pub noise: f64,
    pub verdict: Verdict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    WithinNoise,
    Better,
    Worse,
    /// Beyond the noise, for a figure that is neither better nor worse either way.
    Moved,
}

/// How `now` moved from `then`; `None` when their units differ (nothing to compare).
pub fn movement(now: &Figure, then: &Figure) -> Option<Movement> {
    if now.unit != then.unit {
        return None;
    }
    let relative = match (now.value, then.value) {
        (now, then) if then != 0.0 => (now - then) / then.abs(),
        (0.0, _) => 0.0,
        (now, _) => f64::INFINITY.copysign(now),
    };
    let noise = now.noise.max(then.noise);
    let verdict = match now.better {
        _ if relative.abs() <= noise => Verdict::WithinNoise,
        Better::Neither => Verdict::Moved,
        Better::Lower if relative < 0.0 => Verdict::Better,
        Better::Higher if relative > 0.0 => Verdict::Better,
        _ => Verdict::Worse,
    };
    Some(Movement { relative, noise, verdict })
}

impl Movement {
    /// `+3.1 %`, `-24.0 % worse`, `+40.2 % better`.
    pub fn render(&self) -> String {
        let change =
            if self.relative.is_finite() { format!("{:+.1} %", self.relative * 100.0) } else { "from 0".to_string() };
        match self.verdict {
            Verdict::WithinNoise | Verdict::Moved => change,
            Verdict::Better => format!("{change} better"),
            Verdict::Worse => format!("{change} **worse**"),
        }
    }
}

impl Recorded {
    /// The file at `path`; none recorded yet when it does not exist.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                serde_json::from_str(&text).with_context(|| format!("{} is not the figures' file", path.display()))
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Recorded::default()),
            Err(error) => Err(error).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// These figures with `run`'s in place of the same names' (a group run alone leaves the others' as they were).
    pub fn with(mut self, run: impl IntoIterator<Item = (String, Figure)>) -> Self {
        self.figures.extend(run);
        self
    }

    /// What is recorded after `run`: a whole run's figures alone (a figure no longer measured, or renamed, is
    /// dropped), or for some groups, these with `run`'s in place of the same names'.
    pub fn after(self, run: impl IntoIterator<Item = (String, Figure)>, whole: bool) -> Self {
        if whole { Recorded::default().with(run) } else { self.with(run) }
    }

    /// As written to the file: pretty JSON, figures by name, one line at the end.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("figures serialise");
        text.push('\n');
        text
    }
}

/// What a figure is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Bytes,
    PerSecond,
    Millis,
    Micros,
    /// A plain number (requests, items).
    Count,
}

impl Unit {
    /// The noise of a figure in this unit whose spread the bench does not measure: sizes move only with what is
    /// built (2 %); rates and times on this shared 2-core machine drift by tens of percent over a minute (15 % for
    /// a rate, 25 % for a time); counts (instructions under callgrind, requests, ratios) hardly move (5 %).
    pub fn default_noise(self) -> f64 {
        match self {
            Unit::Bytes => 0.02,
            Unit::PerSecond => 0.15,
            Unit::Millis | Unit::Micros => 0.25,
            Unit::Count => 0.05,
        }
    }

    /// Which way a figure in this unit is better unless its row says otherwise: a higher rate, less of the rest.
    pub fn default_better(self) -> Better {
        match self {
            Unit::PerSecond => Better::Higher,
            _ => Better::Lower,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(value: f64, better: Better, noise: f64) -> Figure {
        Figure { value, unit: Unit::Millis, better, noise, commit: "abc1234".into() }
    }

    #[test]
    fn a_move_beyond_the_noise_is_better_or_worse_by_the_figures_direction() {
        let then = figure(10.0, Better::Lower, 0.1);
        let verdict = |value, better| movement(&figure(value, better, 0.1), &then).unwrap().verdict;
        assert_eq!(verdict(10.9, Better::Lower), Verdict::WithinNoise);
        assert_eq!(verdict(9.1, Better::Lower), Verdict::WithinNoise);
        assert_eq!(verdict(12.0, Better::Lower), Verdict::Worse);
        assert_eq!(verdict(8.0, Better::Lower), Verdict::Better);
        assert_eq!(verdict(12.0, Better::Higher), Verdict::Better);
        assert_eq!(verdict(8.0, Better::Higher), Verdict::Worse);
        assert_eq!(verdict(20.0, Better::Neither), Verdict::Moved);
        let moved = movement(&figure(12.5, Better::Lower, 0.1), &then).unwrap();
        assert!((moved.relative - 0.25).abs() < 1e-12, "{moved:?}");
        assert_eq!(moved.render(), "+25.0 % **worse**");
        assert_eq!(movement(&figure(8.0, Better::Lower, 0.1), &then).unwrap().render(), "-20.0 % better");
    }

    #[test]
    fn the_larger_noise_of_the_two_runs_is_the_judge() {
        let then = figure(100.0, Better::Lower, 0.30);
        let now = figure(125.0, Better::Lower, 0.05);
        let moved = movement(&now, &then).unwrap();
        assert_eq!((moved.noise, moved.verdict), (0.30, Verdict::WithinNoise));
        let moved = movement(&figure(100.0, Better::Lower, 0.30), &figure(125.0, Better::Lower, 0.05)).unwrap();
        assert_eq!(moved.verdict, Verdict::WithinNoise, "either way round");
    }

    #[test]
    fn figures_in_another_unit_or_from_zero_are_compared_with_care() {
        let then = Figure { unit: Unit::Bytes, ..figure(10.0, Better::Lower, 0.01) };
        assert_eq!(movement(&figure(10.0, Better::Lower, 0.01), &then), None);
        let from_zero = movement(&figure(3.0, Better::Lower, 0.01), &figure(0.0, Better::Lower, 0.01)).unwrap();
        assert_eq!((from_zero.verdict, from_zero.render()), (Verdict::Worse, "from 0 **worse**".to_string()));
        let still_zero = movement(&figure(0.0, Better::Lower, 0.01), &figure(0.0, Better::Lower, 0.01)).unwrap();
        assert_eq!(still_zero.verdict, Verdict::WithinNoise);
    }

    #[test]
    fn a_run_of_some_groups_replaces_only_its_own_figures_and_a_whole_run_all() {
        let recorded = Recorded::default().with([
            ("a".to_string(), figure(1.0, Better::Lower, 0.1)),
            ("b".to_string(), figure(2.0, Better::Lower, 0.1)),
        ]);
        let updated = recorded.with([("b".to_string(), figure(3.0, Better::Lower, 0.1))]);
        assert_eq!(updated.figures["a"].value, 1.0);
        assert_eq!(updated.figures["b"].value, 3.0);
        let whole = updated.clone().after([("c".to_string(), figure(4.0, Better::Lower, 0.1))], true);
        assert_eq!(whole.figures.keys().collect::<Vec<_>>(), ["c"], "a whole run keeps only what it measured");
        let read: Recorded = serde_json::from_str(&updated.to_json()).unwrap();
        assert_eq!(read, updated, "the file reads back as written");
        assert!(updated.to_json().contains("\"better\": \"lower\""));
    }
}
