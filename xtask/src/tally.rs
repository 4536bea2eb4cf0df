//! Counting tests: from nextest's JUnit reports and from libtest's `test result:` lines
//! (which wasm-bindgen-test-runner prints too). The sum is the closing `N passed, N failed`.

use std::ops::AddAssign;
use std::path::Path;

use anyhow::Context;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
    }
}

/// The totals of a nextest JUnit report (`<testsuites tests= failures= errors=>`).
pub fn from_junit(path: &Path) -> anyhow::Result<Counts> {
    let text = std::fs::read_to_string(path).with_context(|| format!("no JUnit report at {}", path.display()))?;
    let document =
        roxmltree::Document::parse(&text).with_context(|| format!("unreadable JUnit report {}", path.display()))?;
    let root = document.root_element();
    let number = |name: &str| root.attribute(name).and_then(|value| value.parse::<u64>().ok()).unwrap_or(0);
    let failed = number("failures") + number("errors");
    Ok(Counts { passed: number("tests").saturating_sub(failed), failed })
}

/// The sum of every `test result: ... N passed; M failed; ...` line.
pub fn from_libtest(output: &str) -> Counts {
    let mut counts = Counts::default();
    for line in output.lines().filter_map(|line| line.trim().strip_prefix("test result:")) {
        for part in line.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(label), Some(number)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(number) = number.parse::<u64>() else {
                continue;
            };
            match label {
                "passed" => counts.passed += number,
                "failed" => counts.failed += number,
                _ => {}
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_lines_are_summed() {
        let output = "running 3 tests\n\
            test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
            test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 filtered out; finished in 0.20s\n";
        assert_eq!(from_libtest(output), Counts { passed: 4, failed: 2 });
        assert_eq!(from_libtest("no tests here"), Counts::default());
    }

    #[test]
    fn junit_totals_count_errors_as_failures() {
        let path = std::env::temp_dir().join(format!("xtask-junit-{}.xml", std::process::id()));
        std::fs::write(
            &path,
            r#"<?xml version="1.0"?><testsuites name="nextest-run" tests="7" failures="1" errors="1"><testsuite name="a" tests="7"/></testsuites>"#,
        )
        .unwrap();
        assert_eq!(from_junit(&path).unwrap(), Counts { passed: 5, failed: 2 });
        std::fs::remove_file(path).ok();
    }
}
