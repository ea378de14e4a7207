//! GCX1 decoding against `serde_json` on the same data, in one run.
//!
//! The input is a generated 10,000-row `search_symbols` payload (13 fields,
//! about 2.3 MB, the class of data the Go reference was measured on) and
//! the equivalent JSON array of objects. Functions: `gcx-wire` (one-shot
//! decode to borrowed rows), `gcx-wire-stream` (64 KiB chunks, borrowed
//! events), `serde_json` (parse to `Value`). Then one-shot decoding at 1,
//! 10 and 100 MB to show linear time.
#![allow(missing_docs, clippy::unwrap_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

const FIELDS: [&str; 13] = [
    "id",
    "kind",
    "name",
    "path",
    "path_abs",
    "line",
    "sig",
    "enclosing",
    "is_test",
    "test_role",
    "test_runner",
    "type_flavor",
    "ui_component",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn word(&mut self, min: u64, max: u64) -> String {
        let len = min + self.next() % (max - min + 1);
        (0..len)
            .map(|_| (b'a' + (self.next() % 26) as u8) as char)
            .collect()
    }
}

/// Rows of cell strings (unescaped).
fn rows(n: usize) -> Vec<[String; 13]> {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    (0..n)
        .map(|i| {
            let dir = rng.word(3, 8);
            let file = format!("internal/{dir}/{}.go", rng.word(4, 10));
            let name = rng.word(4, 14);
            let kind = ["function", "method", "type", "interface"][i % 4].to_string();
            let mut sig = format!("func {name}(ctx context.Context, {}) error", rng.word(2, 8));
            if i % 100 == 0 {
                sig.push_str("\t// with a tab");
            }
            [
                format!("{file}::{name}"),
                kind,
                name,
                file.clone(),
                format!("/home/dev/src/project/{file}"),
                (rng.next() % 5000).to_string(),
                sig,
                if i % 3 == 0 {
                    rng.word(4, 12)
                } else {
                    String::new()
                },
                (i % 7 == 0).to_string(),
                if i % 7 == 0 {
                    "unit".into()
                } else {
                    String::new()
                },
                if i % 7 == 0 {
                    "go test".into()
                } else {
                    String::new()
                },
                String::new(),
                String::new(),
            ]
        })
        .collect()
}

fn gcx_payload(rows: &[[String; 13]]) -> Vec<u8> {
    let mut out = format!(
        "GCX1 tool=search_symbols fields={} rows={}\n",
        FIELDS.join(","),
        rows.len()
    )
    .into_bytes();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            gcx_wire::ESCAPES
                .escape_into(cell.as_bytes(), &mut out)
                .unwrap();
        }
        out.push(b'\n');
    }
    out
}

fn json_payload(rows: &[[String; 13]]) -> Vec<u8> {
    let array: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let obj: serde_json::Map<String, serde_json::Value> = FIELDS
                .iter()
                .zip(row)
                .map(|(f, c)| (f.to_string(), serde_json::Value::String(c.clone())))
                .collect();
            serde_json::Value::Object(obj)
        })
        .collect();
    serde_json::to_vec(&array).unwrap()
}

fn decode_one_shot(input: &[u8]) -> usize {
    let payload = gcx_wire::from_slice(input).unwrap();
    payload.sections.iter().map(|s| s.cells.len()).sum()
}

fn decode_stream(input: &[u8]) -> usize {
    let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    let mut cells = 0;
    for chunk in input.chunks(64 << 10) {
        dec.push_with(chunk, |e| {
            if let gcx_wire::Event::Row(r) = e {
                cells += r.len();
            }
        })
        .unwrap();
    }
    dec.finish_with(|_| {}).unwrap();
    cells
}

fn decoding(c: &mut Criterion) {
    let rows = rows(10_000);
    let gcx = gcx_payload(&rows);
    let json = json_payload(&rows);
    let mut g = c.benchmark_group("search_symbols_10k_decode");
    g.throughput(Throughput::Bytes(gcx.len() as u64));
    g.bench_function("gcx-wire", |b| b.iter(|| decode_one_shot(black_box(&gcx))));
    g.bench_function("gcx-wire-stream", |b| {
        b.iter(|| decode_stream(black_box(&gcx)))
    });
    // serde_json reads its own (larger) document; the ratio printed by
    // `cargo xtask bench` is time for the same rows, not bytes per second.
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&json)).unwrap())
    });
    g.finish();
}

fn linear(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode_scaling");
    g.sample_size(10);
    for mb in [1usize, 10, 100] {
        let n = mb * (1 << 20) / 230;
        let gcx = gcx_payload(&rows(n));
        g.throughput(Throughput::Bytes(gcx.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("gcx-wire", format!("{mb}MB")),
            &gcx,
            |b, i| b.iter(|| decode_one_shot(black_box(i))),
        );
    }
    g.finish();
}

criterion_group!(benches, decoding, linear);
criterion_main!(benches);
