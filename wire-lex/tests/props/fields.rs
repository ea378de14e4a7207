//! The `wire_lex_fields` property, shared by the fuzz target
//! (`fuzz/fuzz_targets/wire_lex_fields.rs`) and by `cargo test`, which
//! replays `fuzz/regressions/wire_lex_fields/` and a seeded sample.
//!
//! `check(data)`:
//! 1. the first byte picks a dialect; the rest is decoded into records of
//!    cells (length-prefixed; `0xFF` ends a record);
//! 2. both field syntaxes (RFC 4180 quoted, backslash-escaped) must read
//!    back exactly what their writer wrote;
//! 3. every reader runs on the raw bytes too and must not panic;
//! 4. `Finder` and `Presence` answer as a loop over the bytes does.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use wire_lex::csv::{self, Dialect, FieldEnd, QuoteStyle, Reader, Strictness, Terminator};
use wire_lex::escaped::{self, EscapeTable, EscapedFields, UnknownEscape};
use wire_lex::{
    CrPolicy, Cursor, Error, Fields, Finder, LineConfig, Lines, Pos, Presence, SliceSink,
};

type Records = Vec<Vec<Vec<u8>>>;

fn records(data: &[u8]) -> Records {
    let mut out: Records = vec![Vec::new()];
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        if len == 0xFF {
            out.push(Vec::new());
            rest = tail;
            continue;
        }
        let n = usize::from(len % 64).min(tail.len());
        let (cell, tail) = tail.split_at(n);
        if let Some(last) = out.last_mut() {
            last.push(cell.to_vec());
        }
        rest = tail;
    }
    out.retain(|r| !r.is_empty());
    out
}

fn dialect(mode: u8) -> Dialect {
    Dialect::RFC4180
        .delimiter(if mode & 1 == 0 { b',' } else { b'\t' })
        .strictness(if mode & 2 == 0 {
            Strictness::Strict
        } else {
            Strictness::Lenient
        })
        .terminator(if mode & 4 == 0 {
            Terminator::Lf
        } else {
            Terminator::CrLf
        })
        .quote_style(if mode & 8 == 0 {
            QuoteStyle::Necessary
        } else {
            QuoteStyle::Always
        })
}

const TSV_KEEP_CR: EscapeTable = EscapeTable::new(b'\\').with(b'\t', b't').with(b'\n', b'n');
const TSV_ESCAPE_CR: EscapeTable = TSV_KEEP_CR.with(b'\r', b'r');
const TSV_DROP_CR: EscapeTable = TSV_KEEP_CR.drop_on_write(b'\r');

fn csv_round_trip(recs: &Records, d: Dialect) {
    let mut out = Vec::new();
    for r in recs {
        csv::write_record(r.iter().map(Vec::as_slice), &d, &mut out).unwrap();
    }
    let mut back: Records = Vec::new();
    let mut current = Vec::new();
    for field in Reader::new(&out, d) {
        let field = field.unwrap_or_else(|e| panic!("{e} reading {out:?}"));
        current.push(field.value_bytes().into_owned());
        let mut buf = vec![0u8; field.raw.len()];
        let mut sink = SliceSink::new(&mut buf);
        field.value_into(&mut sink).unwrap();
        assert_eq!(sink.written(), current.last().unwrap().as_slice());
        if field.end.ends_record() {
            back.push(std::mem::take(&mut current));
        }
        if field.end == FieldEnd::Eof {
            break;
        }
    }
    assert_eq!(&back, recs, "csv {d:?} wrote {out:?}");
}

fn escaped_round_trip(recs: &Records, table: &EscapeTable, cr: CrPolicy, drop_cr: bool) {
    let mut out = Vec::new();
    for r in recs {
        escaped::write_record(r.iter().map(Vec::as_slice), b'\t', table, &mut out).unwrap();
    }
    let mut back: Records = Vec::new();
    for line in Lines::new(&out, LineConfig::default().cr(cr)) {
        let line = line.unwrap();
        let mut cells = Vec::new();
        for span in Fields::new(line.bytes, line.offset, b'\t') {
            let owned = table
                .unescape(span.bytes, span.offset)
                .unwrap()
                .into_owned();
            let mut buf = vec![0u8; span.bytes.len()];
            let mut sink = SliceSink::new(&mut buf);
            table
                .unescape_into(span.bytes, span.offset, &mut sink)
                .unwrap();
            assert_eq!(sink.written(), owned.as_slice());
            cells.push(owned);
        }
        back.push(cells);
    }
    let want: Records = if drop_cr {
        recs.iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.iter().copied().filter(|&b| b != b'\r').collect())
                    .collect()
            })
            .collect()
    } else {
        recs.clone()
    };
    assert_eq!(back, want, "escaped wrote {out:?}");
}

/// Every reader on arbitrary bytes: no panic, errors inside the input.
fn no_panic(data: &[u8], mode: u8) {
    let n = data.len();
    let check = |e: Error| {
        if let Some(off) = e.offset() {
            assert!(off <= n, "{e} past the end ({n})");
            let _ = Pos::locate(data, off);
        }
    };
    let cap = LineConfig::default().max_line_len(Some(usize::from(mode)));
    for cfg in [LineConfig::default(), cap, cap.cr(CrPolicy::Keep)] {
        // `fold` (the flattened windows) hands out what `next` does.
        let by_next: Vec<_> = core::iter::from_fn({
            let mut it = Lines::new(data, cfg);
            move || it.next()
        })
        .collect();
        let by_fold = Lines::new(data, cfg).fold(Vec::new(), |mut v, l| {
            v.push(l);
            v
        });
        assert_eq!(by_next, by_fold);
        let mut end = 0;
        for line in Lines::new(data, cfg) {
            match line {
                Ok(l) => {
                    assert_eq!(l.offset, end);
                    end = l.end;
                    let fields: Vec<_> = Fields::new(l.bytes, l.offset, b'\t').collect();
                    assert_eq!(fields.len(), l.bytes.split(|&b| b == b'\t').count());
                    assert_eq!(l.fields(b'\t').collect::<Vec<_>>(), fields);
                    for cell in EscapedFields::new(l.bytes, l.offset, b'\t', &TSV_KEEP_CR) {
                        if let Err(e) = cell {
                            check(e);
                        }
                    }
                }
                Err(e) => check(e),
            }
        }
    }
    for strictness in [Strictness::Strict, Strictness::Lenient] {
        for field in Reader::new(data, dialect(mode).strictness(strictness)) {
            match field {
                Ok(f) => {
                    assert!(f.value_bytes().len() <= f.raw.len());
                    if let Err(e) = f.value() {
                        check(e);
                    }
                }
                Err(e) => check(e),
            }
        }
    }
    for policy in [
        UnknownEscape::DropEscape,
        UnknownEscape::KeepEscape,
        UnknownEscape::Reject,
    ] {
        if let Err(e) = TSV_ESCAPE_CR.clone().unknown(policy).unescape(data, 0) {
            check(e);
        }
    }
    let mut cur = Cursor::new(data);
    while !cur.is_eof() {
        let before = cur.offset();
        cur.take_until_any(b"\t\n\r,");
        cur.take_while(|b| b.is_ascii_whitespace());
        cur.bump();
        assert!(cur.offset() > before);
    }
}

pub(crate) fn check(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let recs = records(rest);
    csv_round_trip(&recs, dialect(mode));
    escaped_round_trip(&recs, &TSV_KEEP_CR, CrPolicy::Keep, false);
    escaped_round_trip(&recs, &TSV_ESCAPE_CR, CrPolicy::StripOne, false);
    escaped_round_trip(&recs, &TSV_DROP_CR, CrPolicy::StripOne, true);
    no_panic(data, mode);
    scans_as_a_byte_loop(rest, mode);
}

/// `Finder` and `Presence` answer as a loop over the bytes does, with the
/// needles taken from the input's first bytes.
fn scans_as_a_byte_loop(data: &[u8], mode: u8) {
    let needles: Vec<u8> = data.iter().take(usize::from(mode % 4)).copied().collect();
    let mut find = Finder::new(data, &needles);
    let mut from = usize::from(mode) % (data.len() + 1);
    loop {
        let want = (from..data.len()).find(|&i| needles.contains(&data[i]));
        assert_eq!(find.next_from(from), want, "{from}");
        match want {
            Some(at) => from = at + 1,
            None => break,
        }
    }
    let four = [0, 1, 2, 3].map(|k| *data.get(k).unwrap_or(&b','));
    for start in [0, usize::from(mode) % (data.len() + 1)] {
        let slice = &data[start..];
        let p = Presence::of(slice, four);
        assert_eq!(
            p.outside(),
            slice.iter().any(|&b| !(0x20..0x80).contains(&b))
        );
        assert_eq!(p.needles(), four.map(|n| slice.contains(&n)));
    }
}
