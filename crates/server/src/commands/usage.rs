//! `vstage usage --from DAY --to DAY --format csv|json`: the photos charged and refunded per subject and kind over
//! the span, with totals, from the ledger; for billing an office or an agent.

use std::collections::BTreeMap;

use serde::Serialize;
use vstage_api::usage::UsageKind;

use crate::cli::{ReportFormat, UsageArgs};
use crate::report_csv::{Cell, ReportCsv};
use crate::storage;
use crate::storage::store::LedgerRow;

/// One subject's photos of one kind over the span, or every subject's (`line` says which).
#[derive(Debug, Serialize)]
struct Line {
    line: LineOf,
    /// `None` on a total, so no subject's name, whatever it is, passes for one.
    subject: Option<String>,
    kind: &'static str,
    charged: u64,
    refunded: u64,
    net: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum LineOf {
    Subject,
    Total,
}

/// The CSV's columns: `line`, `subject` and `kind` are text (a subject's name is the token's, any text, made
/// inert by `report_csv`); `charged`, `refunded` and `net` are numbers (`net` below 0 when refunds outweigh).
const HEADER: [&str; 6] = ["line", "subject", "kind", "charged", "refunded", "net"];

pub async fn run(args: UsageArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.from < args.to, "--to must come after --from");
    let store = storage::open(args.database.database.as_deref(), &args.database.data_dir).await?;
    let rows = store.ledger(args.subject.as_deref(), args.from, args.to).await?;
    let lines = lines(&rows);
    let report = match args.format {
        ReportFormat::Json => serde_json::to_string_pretty(&lines)? + "\n",
        ReportFormat::Csv => csv(&lines)?,
    };
    print!("{report}");
    Ok(())
}

/// A line per subject and kind, then a total per kind.
fn lines(rows: &[LedgerRow]) -> Vec<Line> {
    let mut subjects: BTreeMap<(String, UsageKind), Line> = BTreeMap::new();
    let mut totals: BTreeMap<UsageKind, Line> = BTreeMap::new();
    for row in rows {
        let of_subject = subjects
            .entry((row.subject.clone(), row.kind))
            .or_insert_with(|| Line::new(LineOf::Subject, Some(&row.subject), row.kind));
        of_subject.add(row.amount);
        totals.entry(row.kind).or_insert_with(|| Line::new(LineOf::Total, None, row.kind)).add(row.amount);
    }
    subjects.into_values().chain(totals.into_values()).collect()
}

impl Line {
    fn new(line: LineOf, subject: Option<&str>, kind: UsageKind) -> Line {
        Line { line, subject: subject.map(str::to_string), kind: kind.as_str(), charged: 0, refunded: 0, net: 0 }
    }

    /// A charge (`amount` above 0) or a refund.
    fn add(&mut self, amount: i64) {
        match u64::try_from(amount) {
            Ok(charged) => self.charged += charged,
            Err(_) => self.refunded += amount.unsigned_abs(),
        }
        self.net += amount;
    }
}

fn csv(lines: &[Line]) -> anyhow::Result<String> {
    let mut csv = ReportCsv::default();
    csv.header(&HEADER)?;
    for line in lines {
        let word = match line.line {
            LineOf::Subject => "subject",
            LineOf::Total => "total",
        };
        let count = |photos: u64| Cell::Number(i64::try_from(photos).unwrap_or(i64::MAX));
        csv.row([
            Cell::Text(word),
            Cell::Text(line.subject.as_deref().unwrap_or_default()),
            Cell::Text(line.kind),
            count(line.charged),
            count(line.refunded),
            Cell::Number(line.net),
        ])?;
    }
    Ok(String::from_utf8(csv.finish()?)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::csv::{HOSTILE, assert_inert, read_with_python};

    fn row(subject: &str, kind: UsageKind, amount: i64) -> LedgerRow {
        LedgerRow {
            subject: subject.into(),
            kind,
            amount,
            render_ids: String::new(),
            at: 0,
            what: "render".into(),
            reservation: "rsv".into(),
        }
    }

    #[test]
    fn a_line_per_subject_and_kind_then_the_totals() {
        let rows = [
            row("bob", UsageKind::Staging, 1),
            row("alice", UsageKind::Staging, 2),
            row("alice", UsageKind::Staging, -1),
            row("alice", UsageKind::ImageEditing, 1),
        ];
        let report = csv(&lines(&rows)).unwrap();
        assert_eq!(
            report,
            "\"line\",\"subject\",\"kind\",\"charged\",\"refunded\",\"net\"\n\
             \"subject\",\"alice\",\"staging\",2,1,1\n\"subject\",\"alice\",\"image-editing\",1,0,1\n\
             \"subject\",\"bob\",\"staging\",1,0,1\n\
             \"total\",\"\",\"staging\",3,1,2\n\"total\",\"\",\"image-editing\",1,0,1\n"
        );
    }

    /// Every subject a token may name, read back by Python's csv module: each its own line, inert, never merged
    /// into the totals (`*` and `total` included); the amounts numbers, a net below 0 too.
    #[test]
    fn a_subjects_name_never_runs_in_a_spreadsheet_nor_passes_for_the_totals() {
        let mut rows = Vec::new();
        for subject in HOSTILE {
            rows.push(row(subject, UsageKind::Staging, 1));
            rows.push(row(subject, UsageKind::Staging, -1));
            rows.push(row(subject, UsageKind::Staging, -1));
        }
        let read = read_with_python(csv(&lines(&rows)).unwrap().as_bytes());
        assert_eq!(read.cells[0], HEADER);
        let (subjects, totals): (Vec<_>, Vec<_>) = read.cells[1..].iter().partition(|line| line[0] == "subject");
        assert_eq!(subjects.len(), HOSTILE.len(), "a line per subject: {:?}", read.cells);
        for subject in HOSTILE {
            let line = subjects.iter().find(|line| line[1].strip_prefix('\'').unwrap_or(&line[1]) == *subject);
            let line = line.unwrap_or_else(|| panic!("{subject:?} has its line: {:?}", read.cells));
            assert_inert(&line[1], subject);
            assert_eq!(line[2..], ["staging", "1", "2", "-1"], "{subject:?}");
        }
        let total = HOSTILE.len().to_string();
        let refunded = (2 * HOSTILE.len()).to_string();
        assert_eq!(
            totals,
            [&vec![
                "total".to_string(),
                String::new(),
                "staging".into(),
                total,
                refunded,
                format!("-{}", HOSTILE.len())
            ]]
        );
        for line in &read.typed[1..] {
            assert!(line[..3].iter().all(serde_json::Value::is_string), "{line:?}");
            assert!(line[3..].iter().all(serde_json::Value::is_number), "{line:?}");
        }
    }
}
