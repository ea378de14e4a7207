//! Spec vectors of wire-lex's own readers (`tests/vectors/toolwire-wire-lex.txt`):
//! canonical CSV and tab-separated inputs (quotes, doubled quotes, embedded
//! newlines, CR policies, escapes, unknown escapes, errors with offsets) as
//! records of fields. One line per input: `mode name => result` with the
//! result in Rust debug form. `cargo xtask vectors` regenerates the file;
//! `--check` (in CI) shows drift as a diff.
#![allow(clippy::unwrap_used, reason = "test")]

#[path = "../../xtask/shared/golden.rs"]
mod golden;

use wire_lex::csv::{Dialect, Reader};
use wire_lex::escaped::EscapedFields;
use wire_lex::{CrPolicy, Error, EscapeTable, LineConfig, Lines};

const TSV: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't').with(b'\n', b'n');

const CSV_INPUTS: [(&str, &[u8]); 10] = [
    ("simple", b"id,name\n1,ada\n2,grace\n"),
    ("doubled_quotes", b"7,\"say \"\"hi\"\"\"\n"),
    ("embedded_newline", b"a,\"line one\nline two\",c\n"),
    ("crlf", b"a,b\r\nc,d\r\n"),
    ("empty_fields", b",,\n\"\",x,\n"),
    ("no_final_newline", b"a,b\nc,d"),
    ("unicode", "名前,city\nÅsa,Zürich\n".as_bytes()),
    ("unterminated_quote", b"a,\"open\nstill open"),
    ("quote_in_unquoted", b"a,b\"c,d\n"),
    ("invalid_utf8", b"ok,\xff\xfe\n"),
];

const TSV_INPUTS: [(&str, &[u8]); 8] = [
    ("simple", b"id\tname\n1\tada\n"),
    ("escapes", b"a\\tb\tc\\nd\te\\\\f\n"),
    ("unknown_escape", b"x\\qy\tz\n"),
    ("trailing_backslash", b"end\\"),
    ("crlf_stripped", b"a\tb\r\nc\td\r\n"),
    ("empty_cells", b"\t\t\n\n"),
    ("unicode", "ü\t東京\t🚀\n".as_bytes()),
    ("invalid_utf8", b"a\t\xc3\n"),
];

fn csv(input: &[u8]) -> Result<Vec<Vec<String>>, Error> {
    let mut out = Vec::new();
    let mut record = Vec::new();
    for field in Reader::new(input, Dialect::RFC4180) {
        let field = field?;
        record.push(field.value()?.into_owned());
        if field.end.ends_record() {
            out.push(std::mem::take(&mut record));
        }
    }
    Ok(out)
}

fn tsv(input: &[u8], config: LineConfig) -> Result<Vec<Vec<String>>, Error> {
    let mut out = Vec::new();
    for line in Lines::new(input, config) {
        let line = line?;
        let cells = EscapedFields::new(line.bytes, line.offset, b'\t', &TSV);
        out.push(
            cells
                .map(|c| c.map(|c| c.into_owned()))
                .collect::<Result<_, _>>()?,
        );
    }
    Ok(out)
}

fn show(result: Result<Vec<Vec<String>>, Error>) -> String {
    match result {
        Ok(records) => format!("{records:?}"),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn golden_vectors_match_the_code() {
    let mut lines = Vec::new();
    for (name, input) in CSV_INPUTS {
        lines.push(format!("csv {name} => {}", show(csv(input))));
    }
    for (name, input) in TSV_INPUTS {
        lines.push(format!(
            "tsv {name} => {}",
            show(tsv(input, LineConfig::default()))
        ));
        let keep = LineConfig::default().cr(CrPolicy::Keep);
        lines.push(format!("tsv-keep-cr {name} => {}", show(tsv(input, keep))));
        let capped = LineConfig::default().max_line_len(Some(8));
        lines.push(format!("tsv-max8 {name} => {}", show(tsv(input, capped))));
    }
    golden::check("toolwire-wire-lex.txt", &lines);
}
