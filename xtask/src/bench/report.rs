//! The bench report: one row per figure, with its reference (e.g. ImageMagick, nginx) when there is one.
//! The ratio is value / reference, so under 1.0 means "less than the reference" (faster, smaller).

#[derive(Debug, Default)]
pub struct Report {
    rows: Vec<Row>,
    /// Figures with a budget (a ceiling, not a comparison), each with what it adds up, listed under the table.
    budgeted: Vec<Budgeted>,
}

#[derive(Debug)]
struct Budgeted {
    figure: String,
    value: Measure,
    budget: Measure,
    parts: Vec<(String, Measure)>,
}

#[derive(Debug)]
struct Row {
    figure: String,
    value: Measure,
    reference: Option<Measure>,
}

/// A figure measured in a browser and printed as JSON `{"figure", "unit", "value"}` (unit `ms`, `bytes` or `count`),
/// with the aim in the same unit as `"reference"` where it names one.
#[derive(Debug, serde::Deserialize)]
pub struct BrowserFigure {
    pub figure: String,
    unit: String,
    pub value: f64,
    #[serde(default)]
    reference: Option<f64>,
    /// The reference is a budget, a ceiling the figure must stay within.
    #[serde(default)]
    pub budget: bool,
    /// What the figure adds up (files and their bytes), for a budget.
    #[serde(default)]
    pub files: Vec<FilePart>,
}

/// One part of a budgeted figure: a file and its size, in the figure's unit.
#[derive(Debug, serde::Deserialize)]
pub struct FilePart {
    pub file: String,
    pub bytes: f64,
}

impl BrowserFigure {
    pub fn parse(line: &str) -> anyhow::Result<Self> {
        use anyhow::Context;
        serde_json::from_str(line).with_context(|| format!("an unreadable figure: {line}"))
    }

    pub fn measure(&self) -> anyhow::Result<Measure> {
        self.in_unit(self.value)
    }

    pub fn reference(&self) -> anyhow::Result<Option<Measure>> {
        self.reference.map(|reference| self.in_unit(reference)).transpose()
    }

    pub fn in_unit(&self, amount: f64) -> anyhow::Result<Measure> {
        Ok(match self.unit.as_str() {
            "ms" => Measure::millis(amount),
            "bytes" => Measure::bytes(amount as u64),
            "count" => Measure::count(amount),
            other => anyhow::bail!("a figure in an unknown unit {other}"),
        })
    }
}

/// A measured number and its unit.
#[derive(Debug, Clone, Copy)]
pub struct Measure {
    pub amount: f64,
    pub unit: Unit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Bytes,
    PerSecond,
    Millis,
    Micros,
    /// A plain number (requests, items).
    Count,
}

impl Measure {
    pub fn bytes(amount: u64) -> Self {
        Measure { amount: amount as f64, unit: Unit::Bytes }
    }

    pub fn per_second(amount: f64) -> Self {
        Measure { amount, unit: Unit::PerSecond }
    }

    pub fn millis(amount: f64) -> Self {
        Measure { amount, unit: Unit::Millis }
    }

    pub fn micros(amount: f64) -> Self {
        Measure { amount, unit: Unit::Micros }
    }

    pub fn count(amount: f64) -> Self {
        Measure { amount, unit: Unit::Count }
    }

    fn render(&self) -> String {
        match self.unit {
            Unit::Bytes if self.amount >= 1024.0 => {
                format!("{:.1} KiB ({} B)", self.amount / 1024.0, self.amount)
            }
            Unit::Bytes => format!("{} B", self.amount),
            Unit::PerSecond => format!("{:.0} /s", self.amount),
            Unit::Millis => format!("{:.2} ms", self.amount),
            Unit::Micros => format!("{:.1} µs", self.amount),
            Unit::Count => format!("{:.2}", self.amount),
        }
    }
}

impl Report {
    pub fn add(&mut self, figure: impl Into<String>, value: Measure, reference: Option<Measure>) {
        self.rows.push(Row { figure: figure.into(), value, reference });
    }

    /// A figure with a budget, and the parts it adds up: a row of the table, its parts under it, and its name at
    /// the end of the report when it is over.
    pub fn add_budgeted(
        &mut self,
        figure: impl Into<String>,
        value: Measure,
        budget: Measure,
        parts: Vec<(String, Measure)>,
    ) {
        let figure = figure.into();
        self.add(figure.clone(), value, Some(budget));
        self.budgeted.push(Budgeted { figure, value, budget, parts });
    }

    /// The figures over their budget.
    pub fn over_budget(&self) -> Vec<String> {
        self.budgeted
            .iter()
            .filter(|row| row.value.amount > row.budget.amount)
            .map(|row| format!("{}: {} against {}", row.figure, row.value.render(), row.budget.render()))
            .collect()
    }

    pub fn to_markdown(&self) -> String {
        let mut text = self.table();
        for row in self.budgeted.iter().filter(|row| !row.parts.is_empty()) {
            text.push_str(&format!("\n{} ({} of {}):\n\n", row.figure, row.value.render(), row.budget.render()));
            for (part, size) in &row.parts {
                text.push_str(&format!("- {part}: {}\n", size.render()));
            }
        }
        let over = self.over_budget();
        if !self.budgeted.is_empty() {
            text.push_str("\n**Over budget**: ");
            text.push_str(if over.is_empty() { "none.\n" } else { "\n\n" });
            for figure in over {
                text.push_str(&format!("- {figure}\n"));
            }
        }
        text
    }

    fn table(&self) -> String {
        let mut text = String::from("| figure | value | reference | ratio |\n|---|---|---|---|\n");
        for row in &self.rows {
            let (reference, ratio) = match row.reference {
                Some(reference) if reference.amount > 0.0 => {
                    (reference.render(), format!("{:.2}", row.value.amount / reference.amount))
                }
                _ => ("—".to_string(), "—".to_string()),
            };
            text.push_str(&format!("| {} | {} | {} | {} |\n", row.figure, row.value.render(), reference, ratio));
        }
        text
    }
}

/// The `q` quantile (0.5 for the median) of `values`, interpolated between the two nearest when it falls between
/// them (so the median of an even number is the mean of the middle two). `values` must not be empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let position = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (below, above) = (position.floor() as usize, position.ceil() as usize);
    sorted[below] + (sorted[above] - sorted[below]) * (position - below as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_neighbours() {
        assert_eq!(quantile(&[3.0, 1.0, 2.0], 0.5), 2.0);
        assert_eq!(quantile(&[4.0, 1.0, 3.0, 2.0], 0.5), 2.5);
        assert_eq!(quantile(&[5.0, 1.0, 4.0, 2.0, 3.0], 0.25), 2.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.25), 1.25);
        assert_eq!(quantile(&[7.0], 0.75), 7.0);
    }

    #[test]
    fn rows_show_ratio_only_with_a_reference() {
        let mut report = Report::default();
        report.add("a", Measure::bytes(2048), Some(Measure::bytes(4096)));
        report.add("b", Measure::bytes(10), None);
        let markdown = report.to_markdown();
        assert!(markdown.contains("| a | 2.0 KiB (2048 B) | 4.0 KiB (4096 B) | 0.50 |"));
        assert!(markdown.contains("| b | 10 B | — | — |"));
        assert!(!markdown.contains("Over budget"), "no budget, no word of one");
    }

    #[test]
    fn a_figure_over_its_budget_is_named_at_the_end_with_its_parts() {
        let mut report = Report::default();
        let parts =
            vec![("GET /a.wasm".to_string(), Measure::bytes(3000)), ("GET /b.js".to_string(), Measure::bytes(96))];
        report.add_budgeted("screen a", Measure::bytes(3096), Measure::bytes(2048), parts);
        report.add_budgeted("screen b", Measure::bytes(1024), Measure::bytes(2048), Vec::new());
        assert_eq!(report.over_budget(), ["screen a: 3.0 KiB (3096 B) against 2.0 KiB (2048 B)"]);
        let markdown = report.to_markdown();
        assert!(markdown.contains("| screen a | 3.0 KiB (3096 B) | 2.0 KiB (2048 B) | 1.51 |"), "{markdown}");
        assert!(markdown.contains("- GET /a.wasm: 2.9 KiB (3000 B)\n"), "{markdown}");
        assert!(
            markdown.ends_with("**Over budget**: \n\n- screen a: 3.0 KiB (3096 B) against 2.0 KiB (2048 B)\n"),
            "{markdown}"
        );
    }
}
