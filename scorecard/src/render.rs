//! The scorecard as a terminal table, Markdown, or one JSON object.

use serde_json::{Map, Value, json};

use crate::corpus::Group;
use crate::formats::Format;
use crate::score::{Scorecard, delta, format_delta};
use crate::tokens::Metric;

/// A table of text cells; the first column is left-aligned, the others
/// right-aligned.
struct Table {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn terminal(&self, out: &mut String) {
        let width = |i: usize| {
            core::iter::once(&self.head)
                .chain(&self.rows)
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.head.len()).map(width).collect();
        for row in core::iter::once(&self.head).chain(&self.rows) {
            let mut line = String::new();
            for (i, (cell, w)) in row.iter().zip(&widths).enumerate() {
                let pad = w.saturating_sub(cell.chars().count());
                if i == 0 {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                } else {
                    line.push_str("  ");
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }

    fn markdown(&self, out: &mut String) {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        out.push_str(&line(&self.head));
        let rule: Vec<String> = (0..self.head.len())
            .map(|i| if i == 0 { "---" } else { "--:" }.to_owned())
            .collect();
        out.push_str(&line(&rule));
        for row in &self.rows {
            out.push_str(&line(row));
        }
    }

    fn render(&self, markdown: bool, out: &mut String) {
        if markdown {
            self.markdown(out);
        } else {
            self.terminal(out);
        }
    }
}

fn mark(rt: Option<bool>) -> &'static str {
    match rt {
        Some(true) => "\u{2713}",
        Some(false) => "\u{2717}",
        None => "\u{b7}",
    }
}

/// The per-case table of one metric.
fn cases_table(card: &Scorecard, metric: Metric) -> Table {
    let mut head = vec![String::from("case"), String::from("group")];
    head.extend(Format::ALL.iter().map(|f| f.name().to_owned()));
    let mut rows = Vec::new();
    for (case, group) in card.cases() {
        let json = card
            .row(case, Format::Json)
            .map_or(0, |r| metric.of(&r.counts));
        let mut cells = vec![case.to_owned(), group.name().to_owned()];
        for format in Format::ALL {
            let cell = match card.row(case, format) {
                Some(r) if r.produced => {
                    let n = metric.of(&r.counts);
                    match (format, r.chosen) {
                        (Format::Json, _) => n.to_string(),
                        (Format::Best, Some(chosen)) => format!("{n} {chosen}"),
                        _ => format!(
                            "{n} {} {}",
                            delta(json, n).map(format_delta).unwrap_or_default(),
                            mark(r.roundtrip)
                        ),
                    }
                }
                _ => String::from("refused"),
            };
            cells.push(cell);
        }
        rows.push(cells);
    }
    Table { head, rows }
}

/// One row per case and format: every metric, the change against JSON in
/// bytes and cl100k tokens, and the round trip.
fn long_table(card: &Scorecard) -> Table {
    let head = [
        "case",
        "group",
        "format",
        "bytes",
        "cl100k",
        "o200k",
        "qwen2",
        "\u{394} bytes",
        "\u{394} cl100k",
        "round trip",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut rows = Vec::new();
    for (case, group) in card.cases() {
        let json = card.row(case, Format::Json).map(|r| r.counts);
        for format in Format::ALL {
            let Some(r) = card.row(case, format) else {
                continue;
            };
            let name = match r.chosen {
                Some(chosen) => format!("best ({chosen})"),
                None => format.name().to_owned(),
            };
            let mut cells = vec![case.to_owned(), group.name().to_owned(), name];
            if r.produced {
                cells.extend(Metric::ALL.iter().map(|m| m.of(&r.counts).to_string()));
                for metric in [Metric::Bytes, Metric::Cl100k] {
                    cells.push(match (format, json) {
                        (Format::Json, _) | (_, None) => String::new(),
                        (_, Some(j)) => delta(metric.of(&j), metric.of(&r.counts))
                            .map(format_delta)
                            .unwrap_or_default(),
                    });
                }
            } else {
                cells.extend(["refused", "", "", "", "", ""].map(str::to_owned));
            }
            cells.push(mark(r.roundtrip).to_owned());
            rows.push(cells);
        }
    }
    Table { head, rows }
}

/// The medians of every format and metric over `group` (all: `None`).
fn medians_table(card: &Scorecard, group: Option<Group>) -> Table {
    let mut head = vec![String::from("format")];
    head.extend(Metric::ALL.iter().map(|m| m.name().to_owned()));
    head.push(String::from("round trip"));
    let mut rows = Vec::new();
    for format in Format::ALL.into_iter().filter(|f| *f != Format::Json) {
        let mut cells = vec![format.name().to_owned()];
        for metric in Metric::ALL {
            cells.push(
                card.median(format, metric, group)
                    .map(format_delta)
                    .unwrap_or_default(),
            );
        }
        let in_group = card
            .rows
            .iter()
            .filter(|r| r.format == format && group.is_none_or(|g| g == r.group));
        let (ok, decoded) = in_group.fold((0, 0), |(ok, n), r| match r.roundtrip {
            Some(true) => (ok + 1, n + 1),
            Some(false) => (ok, n + 1),
            None => (ok, n),
        });
        cells.push(if decoded == 0 {
            String::from("\u{b7}")
        } else {
            format!("{ok}/{decoded}")
        });
        rows.push(cells);
    }
    Table { head, rows }
}

/// The readable report: the per-case table (every format and metric, or
/// with `metric` one metric with the formats side by side), medians
/// overall and per group, notes.
#[must_use]
pub fn report(card: &Scorecard, metric: Option<Metric>, markdown: bool) -> String {
    let mut out = String::new();
    let heading = |out: &mut String, text: &str| {
        if markdown {
            out.push_str(&format!("\n### {text}\n\n"));
        } else {
            out.push_str(&format!("\n{text}\n"));
        }
    };
    let legend = "\u{394} against json; \u{2713} decodes back to the input, \u{2717} does not, \u{b7} not decoded";
    match metric {
        Some(metric) => {
            heading(&mut out, &format!("{} per case ({legend})", metric.name()));
            cases_table(card, metric).render(markdown, &mut out);
        }
        None => {
            heading(&mut out, &format!("per case and format ({legend})"));
            long_table(card).render(markdown, &mut out);
        }
    }
    heading(
        &mut out,
        "medians, all cases (\u{394} against json; savings sorted, upper middle)",
    );
    medians_table(card, None).render(markdown, &mut out);
    let groups: Vec<Group> = [Group::Gortex, Group::Jcodemunch, Group::Generic]
        .into_iter()
        .filter(|group| card.cases().iter().any(|(_, g)| g == group))
        .collect();
    for &group in groups.iter().filter(|_| groups.len() > 1) {
        heading(&mut out, &format!("medians, {group}"));
        medians_table(card, Some(group)).render(markdown, &mut out);
    }
    let notes: Vec<String> = card
        .rows
        .iter()
        .filter(|r| {
            std::env::var_os("SCORECARD_ALL_NOTES").is_some()
                || matches!(r.format, Format::Gcx1 | Format::Toon)
                || r.roundtrip == Some(false)
        })
        .filter_map(|r| {
            r.note
                .as_ref()
                .map(|n| format!("{} {}: {n}", r.case, r.format))
        })
        .collect();
    if !notes.is_empty() {
        heading(&mut out, "notes");
        for n in notes {
            out.push_str(&format!("{}{n}\n", if markdown { "- " } else { "  " }));
        }
    }
    out
}

fn medians_json(card: &Scorecard, group: Option<Group>) -> Value {
    let mut formats = Map::new();
    for format in Format::ALL {
        let mut metrics = Map::new();
        for metric in Metric::ALL {
            let m = card
                .median(format, metric, group)
                .map(|d| (d * 10.0).round() / 10.0);
            metrics.insert(metric.name().to_owned(), json!(m));
        }
        formats.insert(format.name().to_owned(), Value::Object(metrics));
    }
    Value::Object(formats)
}

/// `{"cases": [...], "medians": {format: {metric: Δ%}}, "group_medians":
/// {group: {format: {metric: Δ%}}}}`; Δ with one decimal, negative =
/// smaller than JSON.
#[must_use]
pub fn json(card: &Scorecard) -> Value {
    let cases: Vec<Value> = card
        .rows
        .iter()
        .map(|r| {
            json!({
                "case": r.case,
                "group": r.group.name(),
                "format": r.format.name(),
                "bytes": r.counts.bytes,
                "cl100k": r.counts.cl100k,
                "o200k": r.counts.o200k,
                "qwen2": r.counts.qwen2,
                "roundtrip": r.roundtrip,
            })
        })
        .collect();
    let mut groups = Map::new();
    for group in [Group::Gortex, Group::Jcodemunch, Group::Generic] {
        if card.cases().iter().any(|(_, g)| *g == group) {
            groups.insert(group.name().to_owned(), medians_json(card, Some(group)));
        }
    }
    json!({
        "cases": cases,
        "medians": medians_json(card, None),
        "group_medians": groups,
    })
}
