//! `vstage usage --from DAY --to DAY --format csv|json`: the photos charged and refunded per subject and kind over
//! the span, with totals, from the ledger; for billing an office or an agent.

use std::collections::BTreeMap;

use serde::Serialize;
use vstage_api::usage::UsageKind;

use crate::cli::{ReportFormat, UsageArgs};
use crate::storage;
use crate::storage::store::LedgerRow;

/// One subject's photos of one kind over the span.
#[derive(Debug, Default, Serialize)]
struct Line {
    subject: String,
    kind: &'static str,
    charged: u64,
    refunded: u64,
    net: i64,
}

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

/// A line per subject and kind, then a total per kind (subject `*`).
fn lines(rows: &[LedgerRow]) -> Vec<Line> {
    let mut by: BTreeMap<(String, UsageKind), Line> = BTreeMap::new();
    for row in rows {
        for subject in [row.subject.as_str(), "*"] {
            let line = by.entry((subject.to_string(), row.kind)).or_insert_with(|| Line {
                subject: subject.to_string(),
                kind: row.kind.as_str(),
                ..Line::default()
            });
            match u64::try_from(row.amount) {
                Ok(charged) => line.charged += charged,
                Err(_) => line.refunded += row.amount.unsigned_abs(),
            }
            line.net += row.amount;
        }
    }
    let (totals, subjects): (Vec<Line>, Vec<Line>) = by.into_values().partition(|line| line.subject == "*");
    subjects.into_iter().chain(totals).collect()
}

fn csv(lines: &[Line]) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for line in lines {
        writer.serialize(line)?;
    }
    Ok(String::from_utf8(writer.into_inner()?)?)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "subject,kind,charged,refunded,net\nalice,staging,2,1,1\nalice,image-editing,1,0,1\nbob,staging,1,0,1\n\
             *,staging,3,1,2\n*,image-editing,1,0,1\n"
        );
    }
}
