//! CSV read back by the reference reader, Python's `csv` module, and what a subject, a label or a file name might
//! be made of to run in a spreadsheet or to break a row.

use std::io::Write;
use std::process::{Command, Stdio};

use serde::Deserialize;
use serde_json::Value;

/// Text that a spreadsheet would run, or that would break a row written carelessly; the last is a plain name.
pub const HOSTILE: &[&str] = &[
    "=HYPERLINK(\"http://x.example\",\"open\")",
    "+1",
    "-2",
    "@SUM(A1:A9)",
    "\tcmd",
    "\rcmd",
    "\ncmd",
    " =1+1",
    "'=1+1",
    "\u{ff1d}1+1",
    "\u{2212}3",
    "*",
    "total",
    "a,b",
    "say \"hi\", then go",
    "two\nlines",
    "cr\r\nlf",
    "",
    // text that reads as a number unless quoted (an id, a listing's reference)
    "12345",
    "1E5",
    "NaN",
    "inf",
    "alice",
];

/// What a cell may not begin with: it would run as a formula (or, after spaces a reader trims, become one).
const RUNS: &[char] = &['=', '+', '-', '@', '\t', '\r', '\n', ' ', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}'];

/// `cell` as read back is `original` made inert: it begins with nothing a spreadsheet runs, and it is the
/// original once one leading `'` is dropped.
pub fn assert_inert(cell: &str, original: &str) {
    assert!(!cell.starts_with(RUNS), "{cell:?} would run in a spreadsheet");
    assert_eq!(cell.strip_prefix('\'').unwrap_or(cell), original, "the cell {cell:?} is the text {original:?}");
}

/// A CSV as Python reads it: every cell as text, and again with unquoted cells read as numbers
/// (`csv.QUOTE_NONNUMERIC`: a quoted cell stays a string).
#[derive(Debug, Deserialize)]
pub struct ReadBack {
    pub cells: Vec<Vec<String>>,
    pub typed: Vec<Vec<Value>>,
}

const READER: &str = r#"
import csv, io, json, sys
text = sys.stdin.buffer.read().decode("utf-8")
cells = list(csv.reader(io.StringIO(text, newline="")))
typed = list(csv.reader(io.StringIO(text, newline=""), quoting=csv.QUOTE_NONNUMERIC))
json.dump({"cells": cells, "typed": typed}, sys.stdout)
"#;

/// `bytes` read by `python3`'s `csv` module.
pub fn read_with_python(bytes: &[u8]) -> ReadBack {
    let mut python = Command::new("python3")
        .args(["-c", READER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (`cargo xtask setup` installs it)");
    python.stdin.take().unwrap().write_all(bytes).unwrap();
    let output = python.wait_with_output().unwrap();
    assert!(output.status.success(), "Python's csv module read it: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}
