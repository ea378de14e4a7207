//! Line and field scanning against a naive `split`-based baseline, in the
//! same run, on generated 10 MB tab-separated and CSV documents; plus line
//! scanning at 1, 10 and 100 MB to show it is linear.
//!
//! In every group the function `wire-lex` is ours and `naive-split` is the
//! baseline; `cargo xtask bench wire-lex` prints the median ratios.
#![allow(missing_docs, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use wire_lex::csv::{Dialect, Reader};
use wire_lex::{LineConfig, Lines};

const MB: usize = 1 << 20;

/// A deterministic xorshift generator, so every run scans the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
    fn word(&mut self, out: &mut Vec<u8>, min: usize, max: usize) {
        let len = min + self.below((max - min + 1) as u64);
        for _ in 0..len {
            out.push(b'a' + self.below(26) as u8);
        }
    }
}

/// Rows shaped like a code-search result: 13 short-to-medium cells.
fn tsv(size: usize) -> Vec<u8> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(size + 512);
    while out.len() < size {
        for cell in 0..13 {
            if cell > 0 {
                out.push(b'\t');
            }
            match cell {
                0 => rng.word(&mut out, 12, 40),
                4 => out.extend_from_slice(rng.below(5000).to_string().as_bytes()),
                5 => rng.word(&mut out, 20, 80),
                _ => rng.word(&mut out, 1, 12),
            }
        }
        out.push(b'\n');
    }
    out
}

/// CSV rows with some quoted cells (commas, doubled quotes, line breaks).
fn csv(size: usize) -> Vec<u8> {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut out = Vec::with_capacity(size + 512);
    while out.len() < size {
        for cell in 0..8 {
            if cell > 0 {
                out.push(b',');
            }
            match rng.below(10) {
                0 => {
                    out.push(b'"');
                    rng.word(&mut out, 3, 20);
                    out.extend_from_slice(b", \"\"quoted\"\"\n");
                    rng.word(&mut out, 3, 20);
                    out.push(b'"');
                }
                _ => rng.word(&mut out, 2, 16),
            }
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

fn ours_lines(input: &[u8]) -> usize {
    Lines::new(input, LineConfig::default().max_line_len(Some(4 * MB)))
        .map(|l| l.map_or(0, |l| l.bytes.len() + 1))
        .sum()
}

fn naive_lines(input: &[u8]) -> usize {
    input
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).len() + 1)
        .sum()
}

fn ours_tsv_fields(input: &[u8]) -> usize {
    let mut n = 0;
    for line in Lines::new(input, LineConfig::default()).flatten() {
        for field in line.fields(b'\t') {
            n += field.bytes.len() + 1;
        }
    }
    n
}

fn naive_tsv_fields(input: &[u8]) -> usize {
    let mut n = 0;
    for line in input.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        for field in line.split(|&b| b == b'\t') {
            n += field.len() + 1;
        }
    }
    n
}

fn ours_csv_fields(input: &[u8]) -> usize {
    Reader::new(input, Dialect::RFC4180)
        .map(|f| f.map_or(0, |f| f.raw.len() + 1))
        .sum()
}

/// Not quote-aware (it splits inside quoted cells): the cheapest possible
/// baseline, which the quote-aware reader has to beat anyway.
fn naive_csv_fields(input: &[u8]) -> usize {
    let mut n = 0;
    for line in input.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        for field in line.split(|&b| b == b',') {
            n += field.len() + 1;
        }
    }
    n
}

type Scan = fn(&[u8]) -> usize;

fn pair(c: &mut Criterion, group: &str, input: &[u8], ours: Scan, naive: Scan) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("wire-lex", |b| b.iter(|| ours(black_box(input))));
    g.bench_function("naive-split", |b| b.iter(|| naive(black_box(input))));
    g.finish();
}

fn scanning(c: &mut Criterion) {
    let tsv10 = tsv(10 * MB);
    let csv10 = csv(10 * MB);
    pair(c, "tsv_lines", &tsv10, ours_lines, naive_lines);
    pair(c, "tsv_fields", &tsv10, ours_tsv_fields, naive_tsv_fields);
    pair(c, "csv_lines", &csv10, ours_lines, naive_lines);
    pair(c, "csv_fields", &csv10, ours_csv_fields, naive_csv_fields);
}

fn linear(c: &mut Criterion) {
    let mut g = c.benchmark_group("tsv_fields_scaling");
    g.sample_size(10);
    for mb in [1, 10, 100] {
        let input = tsv(mb * MB);
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("wire-lex", format!("{mb}MB")),
            &input,
            |b, i| b.iter(|| ours_tsv_fields(black_box(i))),
        );
    }
    g.finish();
}

criterion_group!(benches, scanning, linear);
criterion_main!(benches);
