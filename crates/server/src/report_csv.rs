//! The one way the server writes CSV (`vstage usage`, the board's `disclosures.csv`): every cell opens in a
//! spreadsheet as data, never as a formula.
//!
//! OWASP's rule against CSV injection, made stricter: a text cell that begins with anything but a letter or a
//! digit (`=`, `+`, `-`, `@`, a tab, a carriage return, a line feed, a space, a `'`, a full-width `＝`, ...) is
//! written with a `'` before it, which a spreadsheet takes to mean "text", and every text cell is quoted. Numbers
//! are a cell kind of their own, written bare and never changed, so a refund's `-1` stays a number. A reader gets
//! a text cell back as it was by dropping one leading `'` (a cell that began with `'` has one more).

use std::borrow::Cow;

use csv::{QuoteStyle, WriterBuilder};

/// One cell of a row.
#[derive(Debug, Clone, Copy)]
pub enum Cell<'a> {
    /// Words, a name, an id, an address, a time: made inert when a spreadsheet could run it.
    Text(&'a str),
    /// A count or an amount, negative ones included.
    Number(i64),
}

/// A CSV being written, a row at a time.
pub struct ReportCsv {
    writer: csv::Writer<Vec<u8>>,
}

impl Default for ReportCsv {
    fn default() -> Self {
        // The crate quotes a field by what it looks like (`NonNumeric` leaves an id such as `12345` or `1E5` bare,
        // which a reader then takes for a number): text cells come quoted (`quoted`), and the writer, quoting
        // nothing more, joins the cells into rows.
        let writer = WriterBuilder::new().quote_style(QuoteStyle::Never).from_writer(Vec::new());
        ReportCsv { writer }
    }
}

impl ReportCsv {
    /// A row of text cells (a header).
    pub fn header(&mut self, names: &[&str]) -> Result<(), csv::Error> {
        self.row(names.iter().map(|name| Cell::Text(name)))
    }

    pub fn row<'a>(&mut self, cells: impl IntoIterator<Item = Cell<'a>>) -> Result<(), csv::Error> {
        for cell in cells {
            match cell {
                Cell::Text(text) => self.writer.write_field(quoted(&inert(text)))?,
                Cell::Number(number) => self.writer.write_field(number.to_string())?,
            }
        }
        self.writer.write_record(None::<&[u8]>)
    }

    /// The CSV's bytes.
    pub fn finish(self) -> Result<Vec<u8>, csv::Error> {
        self.writer.into_inner().map_err(|error| csv::Error::from(error.into_error()))
    }
}

/// `text` as one quoted CSV field (RFC 4180: within `"`, each `"` doubled), whatever it holds.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `text` as a spreadsheet takes it for data: as it is when it begins with a letter or a digit (or is empty),
/// else with a `'` before it.
pub fn inert(text: &str) -> Cow<'_, str> {
    match text.chars().next() {
        Some(first) if !first.is_alphanumeric() => Cow::Owned(format!("'{text}")),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::csv::{HOSTILE, assert_inert, read_with_python};

    #[test]
    fn a_text_cell_that_a_spreadsheet_could_run_is_made_inert_and_numbers_stay_numbers() {
        let mut csv = ReportCsv::default();
        csv.header(&["text", "amount"]).unwrap();
        for text in HOSTILE {
            csv.row([Cell::Text(text), Cell::Number(-1)]).unwrap();
        }
        let read = read_with_python(&csv.finish().unwrap());
        assert_eq!(read.cells.len(), HOSTILE.len() + 1, "a row each, whatever the commas and line feeds");
        for (row, text) in read.cells[1..].iter().zip(HOSTILE) {
            assert_inert(&row[0], text);
            assert_eq!(row[1], "-1");
        }
        assert_eq!(read.cells[1][0], "'=HYPERLINK(\"http://x.example\",\"open\")");
        assert_eq!(read.cells.last().unwrap()[0], "alice", "a name as names go is left as it is");
        // Read as Python reads a file whose unquoted cells are numbers: the amounts are, every text is quoted.
        for row in &read.typed[1..] {
            assert!(row[0].is_string(), "{row:?}");
            assert_eq!(row[1], serde_json::json!(-1.0), "{row:?}");
        }
    }
}
