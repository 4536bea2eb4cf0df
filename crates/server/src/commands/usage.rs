//! `vstage usage --from DAY --to DAY --format csv|json`: the photos charged and refunded per subject, listing and
//! kind over the span, with totals, from the ledger; for billing an office, an agent or a listing.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use vstage_api::usage::UsageKind;

use crate::cli::{ReportFormat, UsageArgs};
use crate::report_csv::{Cell, ReportCsv};
use crate::storage;
use crate::storage::store::{LedgerRow, RenderShare};

/// One subject's photos of one kind for one listing over the span, or every subject's (`line` says which).
#[derive(Debug, Serialize)]
struct Line {
    line: LineOf,
    /// `None` on a total, so no subject's name, whatever it is, passes for one.
    subject: Option<String>,
    /// The host's `listing_id` of the renders charged; `None` for renders without one, for a charge no render
    /// was made for, and on a total.
    listing: Option<String>,
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

/// The CSV's columns: `line`, `subject`, `listing` and `kind` are text (a subject's name is the token's and a
/// listing's id the host's, any text, made inert by `report_csv`); `charged`, `refunded` and `net` are numbers
/// (`net` below 0 when refunds outweigh).
const HEADER: [&str; 7] = ["line", "subject", "listing", "kind", "charged", "refunded", "net"];

pub async fn run(args: UsageArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.from < args.to, "--to must come after --from");
    let store = storage::open_existing(args.database.database.as_deref(), &args.database.data_dir).await?;
    let rows = store.ledger(args.subject.as_deref(), args.from, args.to).await?;
    let reservations: Vec<String> = several_renders(&rows).map(|row| row.reservation.clone()).collect();
    let shares = store.render_shares(&reservations).await?;
    let renders: Vec<String> = rows.iter().flat_map(renders_of).map(str::to_string).collect();
    let listings: HashMap<String, String> = store.listings_of(&renders).await?.into_iter().collect();
    let parts = parts(&rows, &Shares::new(&shares), &listings);
    let lines =
        lines(parts.into_iter().filter(|part| args.listing.is_none() || part.listing == args.listing.as_deref()));
    let report = match args.format {
        ReportFormat::Json => serde_json::to_string_pretty(&lines)? + "\n",
        ReportFormat::Csv => csv(&lines)?,
    };
    super::print_out(&report)?;
    Ok(())
}

/// The renders a ledger row was for.
fn renders_of(row: &LedgerRow) -> impl Iterator<Item = &str> {
    row.render_ids.split(',').filter(|id| !id.is_empty())
}

/// The rows for more than one render (a bulk creation, variations added to several), which may span listings.
fn several_renders(rows: &[LedgerRow]) -> impl Iterator<Item = &LedgerRow> {
    rows.iter().filter(|row| renders_of(row).nth(1).is_some())
}

/// Each render's share of each reservation's charge of a kind.
struct Shares<'a>(HashMap<(&'a str, UsageKind, &'a str), u64>);

impl<'a> Shares<'a> {
    fn new(shares: &'a [RenderShare]) -> Self {
        Shares(shares.iter().map(|s| ((s.reservation.as_str(), s.kind, s.render_id.as_str()), s.photos)).collect())
    }

    fn of(&self, row: &LedgerRow, render_id: &str) -> Option<u64> {
        self.0.get(&(row.reservation.as_str(), row.kind, render_id)).copied()
    }
}

/// Part of a ledger row: the photos (a refund below 0) it counts for one listing.
#[derive(Debug, PartialEq, Eq)]
struct Part<'a> {
    subject: &'a str,
    listing: Option<&'a str>,
    kind: UsageKind,
    amount: i64,
}

/// Each row by the listings of the renders it was for: whole when they share one listing (or have none), else
/// each render's recorded share under its listing, and what the shares do not account for under no listing
/// (variations added to renders of several listings at once and given back whole: their shares are forgotten).
fn parts<'a>(rows: &'a [LedgerRow], shares: &Shares<'_>, listings: &'a HashMap<String, String>) -> Vec<Part<'a>> {
    rows.iter()
        .flat_map(|row| {
            let part = |listing, amount| Part { subject: &row.subject, listing, kind: row.kind, amount };
            let listing_of = |render_id: &str| listings.get(render_id).map(String::as_str);
            let mut renders = renders_of(row).peekable();
            let first = renders.peek().and_then(|&first| listing_of(first));
            if renders_of(row).all(|render_id| listing_of(render_id) == first) {
                return vec![part(first, row.amount)];
            }
            let mut left = row.amount;
            let mut split: Vec<Part> = Vec::new();
            for render_id in renders {
                let Some(photos) = shares.of(row, render_id) else { continue };
                let amount = i64::try_from(photos).unwrap_or(i64::MAX).min(left.abs()) * row.amount.signum();
                left -= amount;
                split.push(part(listing_of(render_id), amount));
            }
            if left != 0 {
                split.push(part(None, left));
            }
            split
        })
        .collect()
}

/// A line per subject, listing and kind, then a total per kind.
fn lines<'a>(parts: impl Iterator<Item = Part<'a>>) -> Vec<Line> {
    let mut subjects: BTreeMap<(&str, Option<&str>, UsageKind), Line> = BTreeMap::new();
    let mut totals: BTreeMap<UsageKind, Line> = BTreeMap::new();
    for part in parts {
        let of_subject = subjects
            .entry((part.subject, part.listing, part.kind))
            .or_insert_with(|| Line::new(LineOf::Subject, Some(part.subject), part.listing, part.kind));
        of_subject.add(part.amount);
        totals.entry(part.kind).or_insert_with(|| Line::new(LineOf::Total, None, None, part.kind)).add(part.amount);
    }
    subjects.into_values().chain(totals.into_values()).collect()
}

impl Line {
    fn new(line: LineOf, subject: Option<&str>, listing: Option<&str>, kind: UsageKind) -> Line {
        Line {
            line,
            subject: subject.map(str::to_string),
            listing: listing.map(str::to_string),
            kind: kind.as_str(),
            charged: 0,
            refunded: 0,
            net: 0,
        }
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
            Cell::Text(line.listing.as_deref().unwrap_or_default()),
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
        charge("rsv", subject, kind, amount, "")
    }

    fn charge(reservation: &str, subject: &str, kind: UsageKind, amount: i64, render_ids: &str) -> LedgerRow {
        LedgerRow {
            subject: subject.into(),
            kind,
            amount,
            render_ids: render_ids.into(),
            at: 0,
            what: "render".into(),
            reservation: reservation.into(),
        }
    }

    fn share(reservation: &str, kind: UsageKind, render_id: &str, photos: u64) -> RenderShare {
        RenderShare { reservation: reservation.into(), kind, render_id: render_id.into(), photos }
    }

    /// The report's lines of `rows`, the renders' listings and shares as given, for `listing` alone if named.
    fn report(rows: &[LedgerRow], shares: &[RenderShare], listings: &[(&str, &str)], listing: Option<&str>) -> String {
        let listings: HashMap<String, String> =
            listings.iter().map(|(render, listing)| (render.to_string(), listing.to_string())).collect();
        let parts = parts(rows, &Shares::new(shares), &listings)
            .into_iter()
            .filter(|part| listing.is_none() || part.listing == listing);
        csv(&lines(parts)).unwrap()
    }

    #[test]
    fn a_line_per_subject_and_kind_then_the_totals() {
        let rows = [
            row("bob", UsageKind::Staging, 1),
            row("alice", UsageKind::Staging, 2),
            row("alice", UsageKind::Staging, -1),
            row("alice", UsageKind::ImageEditing, 1),
        ];
        assert_eq!(
            report(&rows, &[], &[], None),
            "\"line\",\"subject\",\"listing\",\"kind\",\"charged\",\"refunded\",\"net\"\n\
             \"subject\",\"alice\",\"\",\"staging\",2,1,1\n\"subject\",\"alice\",\"\",\"image-editing\",1,0,1\n\
             \"subject\",\"bob\",\"\",\"staging\",1,0,1\n\
             \"total\",\"\",\"\",\"staging\",3,1,2\n\"total\",\"\",\"\",\"image-editing\",1,0,1\n"
        );
    }

    /// A bulk creation over two listings is split by each render's share, its refund of one render goes to that
    /// render's listing, and a render without a listing counts under none.
    #[test]
    fn a_bulk_over_listings_is_split_by_each_renders_share() {
        let staging = UsageKind::Staging;
        let rows = [
            charge("bulk", "alice", staging, 5, "rnd_a,rnd_b,rnd_c"),
            charge("bulk", "alice", staging, -2, "rnd_b"),
            charge("one", "alice", staging, 1, "rnd_d"),
        ];
        let shares = [
            share("bulk", staging, "rnd_a", 1),
            share("bulk", staging, "rnd_b", 2),
            share("bulk", staging, "rnd_c", 2),
        ];
        let listings = [("rnd_a", "L-1"), ("rnd_b", "L-2"), ("rnd_c", "L-2")];
        assert_eq!(
            report(&rows, &shares, &listings, None),
            "\"line\",\"subject\",\"listing\",\"kind\",\"charged\",\"refunded\",\"net\"\n\
             \"subject\",\"alice\",\"\",\"staging\",1,0,1\n\
             \"subject\",\"alice\",\"L-1\",\"staging\",1,0,1\n\
             \"subject\",\"alice\",\"L-2\",\"staging\",4,2,2\n\
             \"total\",\"\",\"\",\"staging\",6,2,4\n"
        );
        assert_eq!(
            report(&rows, &shares, &listings, Some("L-2")),
            "\"line\",\"subject\",\"listing\",\"kind\",\"charged\",\"refunded\",\"net\"\n\
             \"subject\",\"alice\",\"L-2\",\"staging\",4,2,2\n\"total\",\"\",\"\",\"staging\",4,2,2\n",
            "one listing's lines and totals"
        );
    }

    /// Renders of one listing take the whole row, shares or not; a row whose shares were forgotten (additions to
    /// several listings' renders given back whole) counts under no listing, so every photo is still counted once.
    #[test]
    fn what_shares_cannot_divide_is_counted_once_under_no_listing() {
        let staging = UsageKind::Staging;
        let rows = [
            charge("same", "bob", staging, 3, "rnd_a,rnd_b"),
            charge("added", "bob", staging, 2, "rnd_a,rnd_c"),
            charge("added", "bob", staging, -2, "rnd_a,rnd_c"),
        ];
        let listings = [("rnd_a", "L-1"), ("rnd_b", "L-1"), ("rnd_c", "L-2")];
        assert_eq!(
            report(&rows, &[], &listings, None),
            "\"line\",\"subject\",\"listing\",\"kind\",\"charged\",\"refunded\",\"net\"\n\
             \"subject\",\"bob\",\"\",\"staging\",2,2,0\n\
             \"subject\",\"bob\",\"L-1\",\"staging\",3,0,3\n\
             \"total\",\"\",\"\",\"staging\",5,2,3\n"
        );
    }

    /// Every subject a token may name, read back by Python's csv module: each its own line, inert, never merged
    /// into the totals (`*` and `total` included); the amounts numbers, a net below 0 too.
    #[test]
    fn a_subjects_name_never_runs_in_a_spreadsheet_nor_passes_for_the_totals() {
        let mut rows = Vec::new();
        let mut listings = Vec::new();
        for (n, subject) in HOSTILE.iter().enumerate() {
            let render = format!("rnd_{n}");
            for amount in [1, -1, -1] {
                rows.push(charge("rsv", subject, UsageKind::Staging, amount, &render));
            }
            listings.push((render, *subject));
        }
        let listings: Vec<(&str, &str)> =
            listings.iter().map(|(render, listing)| (render.as_str(), *listing)).collect();
        let read = read_with_python(report(&rows, &[], &listings, None).as_bytes());
        assert_eq!(read.cells[0], HEADER);
        let (subjects, totals): (Vec<_>, Vec<_>) = read.cells[1..].iter().partition(|line| line[0] == "subject");
        assert_eq!(subjects.len(), HOSTILE.len(), "a line per subject: {:?}", read.cells);
        for subject in HOSTILE {
            let line = subjects.iter().find(|line| line[1].strip_prefix('\'').unwrap_or(&line[1]) == *subject);
            let line = line.unwrap_or_else(|| panic!("{subject:?} has its line: {:?}", read.cells));
            assert_inert(&line[1], subject);
            assert_inert(&line[2], subject);
            assert_eq!(line[3..], ["staging", "1", "2", "-1"], "{subject:?}");
        }
        let total = HOSTILE.len().to_string();
        let refunded = (2 * HOSTILE.len()).to_string();
        let negative = format!("-{}", HOSTILE.len());
        assert_eq!(totals, [&["total", "", "", "staging", &total, &refunded, &negative].map(String::from).to_vec()]);
        for line in &read.typed[1..] {
            assert!(line[..4].iter().all(serde_json::Value::is_string), "{line:?}");
            assert!(line[4..].iter().all(serde_json::Value::is_number), "{line:?}");
        }
    }
}
