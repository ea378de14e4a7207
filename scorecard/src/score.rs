//! The scorecard: one row per case and format, and the medians.

use crate::corpus::{Case, Group};
use crate::formats::{self, Format, Payload};
use crate::tokens::{Counter, Counts, Metric};

/// One case in one format, measured.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case name.
    pub case: String,
    /// Its group.
    pub group: Group,
    /// The format (or [`Format::Best`]).
    pub format: Format,
    /// The sizes (all zero when the format refused the case).
    pub counts: Counts,
    /// Whether the payload decodes back to the input (`None`: not decoded).
    pub roundtrip: Option<bool>,
    /// For [`Format::Best`]: the format chosen.
    pub chosen: Option<Format>,
    /// Fallback rung, dropped keys or refusal.
    pub note: Option<String>,
    /// The payload was produced (a refused format has no sizes).
    pub produced: bool,
}

/// Every row of a run, cases in corpus order, formats in
/// [`Format::ALL`] order within a case.
#[derive(Clone, Debug, Default)]
pub struct Scorecard {
    /// The rows.
    pub rows: Vec<Row>,
}

fn measured(case: &Case, p: Payload, counter: &Counter) -> Row {
    Row {
        case: case.name.clone(),
        group: case.group,
        format: p.format,
        counts: counter.count(&p.text),
        roundtrip: p.roundtrip,
        chosen: None,
        note: p.note,
        produced: !p.text.is_empty(),
    }
}

/// The smallest payload among JSON and the formats that round-trip.
fn best(rows: &[Row]) -> Option<Row> {
    let chosen = rows
        .iter()
        .filter(|r| r.produced)
        .filter(|r| r.format == Format::Json || r.roundtrip == Some(true))
        .min_by_key(|r| (r.counts.cl100k, r.counts.bytes))?;
    Some(Row {
        format: Format::Best,
        chosen: Some(chosen.format),
        note: None,
        ..chosen.clone()
    })
}

impl Scorecard {
    /// Measures `cases`; `progress` is called before each case with its
    /// index and name.
    ///
    /// # Errors
    /// When a case is not JSON (the message names it).
    pub fn measure(
        cases: &[Case],
        counter: &Counter,
        mut progress: impl FnMut(usize, &str),
    ) -> Result<Scorecard, String> {
        let mut rows = Vec::with_capacity(cases.len() * Format::ALL.len());
        for (i, case) in cases.iter().enumerate() {
            progress(i, &case.name);
            let payloads = formats::encode(case).map_err(|e| format!("{}: {e}", case.name))?;
            let case_rows: Vec<Row> = payloads
                .into_iter()
                .map(|p| measured(case, p, counter))
                .collect();
            let best = best(&case_rows);
            rows.extend(case_rows);
            rows.extend(best);
        }
        Ok(Scorecard { rows })
    }

    /// The rows of one case, formats in column order.
    pub fn case_rows<'s>(&'s self, case: &'s str) -> impl Iterator<Item = &'s Row> + 's {
        self.rows.iter().filter(move |r| r.case == case)
    }

    /// The case names in order, with their groups.
    #[must_use]
    pub fn cases(&self) -> Vec<(&str, Group)> {
        let mut out: Vec<(&str, Group)> = Vec::new();
        for r in &self.rows {
            if out.last().is_none_or(|(c, _)| *c != r.case) {
                out.push((&r.case, r.group));
            }
        }
        out
    }

    /// The row of `case` in `format`.
    #[must_use]
    pub fn row(&self, case: &str, format: Format) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.case == case && r.format == format)
    }

    /// Per case of `group` (all with `None`): the change of `format`
    /// against JSON in `metric`, in percent (negative = smaller).
    #[must_use]
    pub fn deltas(&self, format: Format, metric: Metric, group: Option<Group>) -> Vec<f64> {
        self.cases()
            .into_iter()
            .filter(|(_, g)| group.is_none_or(|want| want == *g))
            .filter_map(|(case, _)| {
                let json = metric.of(&self.row(case, Format::Json)?.counts);
                let row = self.row(case, format).filter(|r| r.produced)?;
                delta(json, metric.of(&row.counts))
            })
            .collect()
    }

    /// The Gortex-convention median of [`Scorecard::deltas`]: savings
    /// sorted, the upper-middle element.
    #[must_use]
    pub fn median(&self, format: Format, metric: Metric, group: Option<Group>) -> Option<f64> {
        median(self.deltas(format, metric, group))
    }
}

/// `(x − json) / json · 100`, or `None` for an empty JSON payload.
#[must_use]
#[allow(
    clippy::cast_precision_loss,
    reason = "payload sizes are far below 2^52"
)]
pub fn delta(json: usize, x: usize) -> Option<f64> {
    (json > 0).then(|| (x as f64 - json as f64) / json as f64 * 100.0)
}

/// The element at index ⌊n/2⌋ of the savings sorted ascending (Gortex:
/// from largest to smallest, the upper middle), as a delta.
#[must_use]
pub fn median(deltas: Vec<f64>) -> Option<f64> {
    let mut savings: Vec<f64> = deltas.into_iter().map(|d| -d).collect();
    savings.sort_by(f64::total_cmp);
    savings.get(savings.len() / 2).map(|s| -s)
}

/// A delta as Gortex prints it: one decimal, `−` for a saving (zero
/// included), `+` for growth.
#[must_use]
pub fn format_delta(d: f64) -> String {
    if d <= 0.0 {
        format!("\u{2212}{:.1}%", d.abs())
    } else {
        format!("+{d:.1}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_upper_middle_saving() {
        // Savings 10, 20, 30, 40: the upper middle is 30.
        assert_eq!(median(vec![-10.0, -40.0, -20.0, -30.0]), Some(-30.0));
        assert_eq!(median(vec![5.0]), Some(5.0));
        assert_eq!(median(Vec::new()), None);
    }

    #[test]
    fn deltas_print_like_gortex() {
        assert_eq!(format_delta(delta(731, 731).unwrap_or(1.0)), "\u{2212}0.0%");
        assert_eq!(
            format_delta(delta(181, 125).unwrap_or(0.0)),
            "\u{2212}30.9%"
        );
        assert_eq!(format_delta(delta(162, 174).unwrap_or(0.0)), "+7.4%");
        assert_eq!(delta(0, 3), None);
    }
}
