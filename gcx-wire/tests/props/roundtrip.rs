//! decode(encode(v)) == v for every value the strict encoder accepts:
//! shared by `tests/roundtrip.rs` and the `gcx_roundtrip` fuzz target.
//!
//! The input bytes drive a small generator of sections (tool, fields,
//! meta, rows, comments) over an alphabet rich in GCX1 hazards.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use gcx_wire::encode::{Encoder, Mode};

const PIECES: [&[u8]; 16] = [
    b"a",
    b"b",
    b"\t",
    b"\n",
    b"\r",
    b"\\",
    b" ",
    b"#",
    b"GCX1",
    b",",
    b"=",
    b"tool",
    b"\xC3\xA9",
    b"\xFF",
    b"\\t",
    b"",
];

struct Gen<'a> {
    data: &'a [u8],
}

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }
    /// One to four pieces; three in four are plain letters, so headers
    /// and rows are often accepted and the property is exercised.
    fn bytes(&mut self) -> Vec<u8> {
        let n = 1 + self.byte() % 4;
        let mut out = Vec::new();
        for _ in 0..n {
            let pick = self.byte();
            let piece = if pick % 4 == 0 {
                PIECES[usize::from(pick / 4 % 16)]
            } else {
                PIECES[usize::from(pick % 2)]
            };
            out.extend_from_slice(piece);
        }
        out
    }
    fn done(&self) -> bool {
        self.data.is_empty()
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Section {
    pub tool: Vec<u8>,
    pub fields: Vec<Vec<u8>>,
    pub meta: Vec<(Vec<u8>, Vec<u8>)>,
    pub rows: Vec<Vec<Vec<u8>>>,
    /// (rows before it, text as the decoder returns it)
    pub comments: Vec<(usize, Vec<u8>)>,
}

/// Encodes generated operations in strict mode, stopping at the first
/// refusal; returns the payload and what it must decode to.
pub fn encode(data: &[u8]) -> (Vec<u8>, Vec<Section>) {
    let mut g = Gen { data };
    let mut enc = Encoder::with_mode(Mode::Strict);
    let mut want: Vec<Section> = Vec::new();
    while !g.done() {
        match g.byte() % 4 {
            0 => {
                let tool = g.bytes();
                let fields: Vec<Vec<u8>> = (0..g.byte() % 4).map(|_| g.bytes()).collect();
                let meta: Vec<(Vec<u8>, Vec<u8>)> =
                    (0..g.byte() % 3).map(|_| (g.bytes(), g.bytes())).collect();
                if enc.header_meta(&tool, &fields, &meta).is_err() {
                    break;
                }
                let mut sorted = meta.clone();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                // The one sanctioned ambiguity (spec R4): an empty field
                // list is written `fields=`, which reads as one empty name;
                // such a section can hold no row (strict: blank rows).
                let read_fields = if fields.is_empty() {
                    vec![Vec::new()]
                } else {
                    fields
                };
                want.push(Section {
                    tool,
                    fields: read_fields,
                    meta: sorted,
                    ..Section::default()
                });
            }
            1 | 2 => {
                let values: Vec<Vec<u8>> = (0..g.byte() % 4).map(|_| g.bytes()).collect();
                if enc
                    .row(values.iter().map(|v| gcx_wire::encode::Cell::Bytes(v)))
                    .is_err()
                {
                    break;
                }
                let Some(s) = want.last_mut() else { break };
                let mut row = values;
                row.resize(s.fields.len(), Vec::new());
                s.rows.push(row);
            }
            _ => {
                let text = g.bytes();
                if enc.comment(&text).is_err() {
                    break;
                }
                let Some(s) = want.last_mut() else { break };
                // Go writes LF as a space; the line reader strips one CR
                // at the end.
                let mut read: Vec<u8> = text
                    .iter()
                    .map(|&b| if b == b'\n' { b' ' } else { b })
                    .collect();
                if read.last() == Some(&b'\r') {
                    read.pop();
                }
                s.comments.push((s.rows.len(), read));
            }
        }
    }
    (enc.finish(), want)
}

/// The property: what the strict encoder wrote decodes to what it was
/// given.
pub fn check(data: &[u8]) {
    let (payload, want) = encode(data);
    let opts = gcx_wire::DecodeOptions {
        max_line_bytes: usize::MAX,
        ..Default::default()
    };
    let got = gcx_wire::from_slice_with(&payload, &opts)
        .unwrap_or_else(|e| panic!("{e} decoding {:?}", String::from_utf8_lossy(&payload)));
    let got: Vec<Section> = got
        .sections
        .iter()
        .map(|s| Section {
            tool: s.header.tool.to_vec(),
            fields: s.header.fields.iter().map(|f| f.to_vec()).collect(),
            meta: s
                .header
                .meta
                .iter()
                .map(|(k, v)| (k.to_vec(), v.to_vec()))
                .collect(),
            rows: s
                .rows()
                .map(|r| r.iter().map(|c| c.to_vec()).collect())
                .collect(),
            comments: s
                .comments
                .iter()
                .map(|c| (c.row, c.text.to_vec()))
                .collect(),
        })
        .collect();
    assert_eq!(got, want, "payload {:?}", String::from_utf8_lossy(&payload));
}
