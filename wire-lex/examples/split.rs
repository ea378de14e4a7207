//! Prints each record of stdin as a JSON array of strings, one per line.
//!
//! ```sh
//! printf 'a\\tb\tc\n' | cargo run -p wire-lex --example split -- tsv
//! printf 'a,"b ""q"""\n' | cargo run -p wire-lex --example split -- csv
//! ```
//!
//! `tsv` is the backslash-escaped syntax (`\\`, `\t`, `\n`), `csv` is
//! RFC 4180. Errors go to stderr with their line and column.
#![allow(missing_docs)]

use std::io::{Read, Write};
use std::process::ExitCode;

use wire_lex::csv::{Dialect, Reader};
use wire_lex::escaped::EscapedFields;
use wire_lex::{Error, EscapeTable, LineConfig, Lines};

const TSV: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't').with(b'\n', b'n');

fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn records(mode: &str, input: &[u8]) -> Result<Vec<Vec<String>>, Error> {
    let mut out = Vec::new();
    match mode {
        "csv" => {
            let mut record = Vec::new();
            for field in Reader::new(input, Dialect::RFC4180) {
                let field = field?;
                record.push(field.value()?.into_owned());
                if field.end.ends_record() {
                    out.push(std::mem::take(&mut record));
                }
            }
        }
        _ => {
            for line in Lines::new(input, LineConfig::default()) {
                let line = line?;
                let cells = EscapedFields::new(line.bytes, line.offset, b'\t', &TSV);
                out.push(
                    cells
                        .map(|c| c.map(|c| c.into_owned()))
                        .collect::<Result<_, _>>()?,
                );
            }
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "tsv".into());
    if mode != "tsv" && mode != "csv" {
        eprintln!("usage: split tsv|csv < input");
        return ExitCode::from(2);
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("split: cannot read stdin: {e}");
        return ExitCode::from(3);
    }
    match records(&mode, &input) {
        Ok(recs) => {
            let mut text = String::new();
            for rec in recs {
                text.push('[');
                for (i, cell) in rec.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    json_string(cell, &mut text);
                }
                text.push_str("]\n");
            }
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            let at = e.pos(&input).map(|p| format!(" ({p})")).unwrap_or_default();
            eprintln!("split: {e}{at}");
            ExitCode::FAILURE
        }
    }
}
