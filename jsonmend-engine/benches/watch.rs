//! Watch streams against one-shot repair of the same document, in the same
//! run (spec §12.4, §18): a 150 KB document fed in 4 KiB chunks (target
//! under 2× one-shot), 1-byte feeds, that stream and a repair of the
//! document as protocol requests, and 4 KiB feeds at 1, 10 and 100 MB.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

#[path = "support/docs.rs"]
mod docs;
#[path = "support/paired.rs"]
mod paired;
#[path = "support/sides.rs"]
mod sides;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use jsonmend_engine::{Options, Session, Watch};
use std::hint::black_box;
use std::time::Duration;

use sides::{one_shot, one_shot_bytes, text_pieces, watch, watch_text};

fn small(c: &mut Criterion) {
    let (valid, defects) = docs::documents_of(150_000);
    for (name, doc) in [
        ("watch-150KB-valid", &valid),
        ("watch-150KB-defects", &defects),
    ] {
        // The stream ends with the same text as one-shot repair.
        let mut w = Watch::new(Options::default());
        for piece in doc.as_bytes().chunks(4096) {
            w.feed_bytes(piece).unwrap();
        }
        assert_eq!(
            w.finish().unwrap().result.text,
            jsonmend_engine::repair_text(doc).unwrap().text
        );
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.sample_size(20).measurement_time(Duration::from_secs(4));
        g.bench_function("jsonmend-engine", |b| b.iter(|| one_shot(black_box(doc))));
        g.bench_function("watch-4KiB", |b| b.iter(|| watch(black_box(doc), 4096)));
        g.bench_function("watch-4KiB-text", |b| {
            b.iter(|| watch_text(black_box(doc), 4096))
        });
        g.bench_function("watch-64B", |b| b.iter(|| watch(black_box(doc), 64)));
        g.bench_function("watch-1B", |b| b.iter(|| watch(black_box(doc), 1)));
        g.finish();
    }
}

/// Set in the environment of the child process [`paired`] starts: it
/// times the pairs of [`fresh_pairs`] and nothing else.
const FRESH: &str = "JSONMEND_WATCH_BENCH_FRESH";

/// 4 KiB feeds against one-shot repair again as interleaved pairs
/// (`support/paired.rs`): the median of the per-round ratios, next to
/// criterion's medians, which are taken minutes apart.
///
/// Where glibc gives the heap back to the kernel at a stream's end, the
/// next stream takes its pages again (page faults that instructions do
/// not show); whether a process does depends on the largest mapped
/// block it freed before. So the pairs run twice: in a fresh process
/// started for them (as a small process is), and here after a 16 MiB
/// block was taken and freed (as a process is after one large request:
/// glibc then keeps its heap).
fn paired(_c: &mut Criterion) {
    match std::process::Command::new(std::env::current_exe().unwrap())
        .env(FRESH, "1")
        .output()
    {
        Ok(out) => eprint!("{}", String::from_utf8_lossy(&out.stderr)),
        Err(e) => eprintln!("paired: no fresh process ({e})"),
    }
    settle_heap();
    let (valid, defects) = docs::documents_of(150_000);
    for (name, doc) in [
        ("watch-150KB-valid", &valid),
        ("watch-150KB-defects", &defects),
    ] {
        const ROUNDS: usize = 41;
        let p = paired::interleaved(ROUNDS, &|| one_shot(black_box(doc)), &|| {
            watch(black_box(doc), 4096)
        });
        report(name, "watch-4KiB", ROUNDS, &p);
        let p = paired::interleaved(ROUNDS, &|| one_shot(black_box(doc)), &|| {
            watch_text(black_box(doc), 4096)
        });
        report(name, "watch-4KiB-text", ROUNDS, &p);
        // Byte pieces against one-shot repair of the same bytes: both
        // check the input's UTF-8, which one-shot repair of a `&str` need
        // not.
        let p = paired::interleaved(ROUNDS, &|| one_shot_bytes(black_box(doc)), &|| {
            watch(black_box(doc), 4096)
        });
        report_against(name, "watch-4KiB", "jsonmend-engine bytes", ROUNDS, &p);
    }
}

/// Takes and frees a 16 MiB block, touched: glibc's thresholds follow
/// it up (a freed mapped block up to 32 MiB raises them), and the heap
/// stays the process's from here on.
fn settle_heap() {
    let block = vec![1u8; 16 << 20];
    black_box(&block);
}

/// The pairs of the 150 KB document with defects, text pieces, in the
/// fresh process [`paired`] starts (`FRESH` set).
fn fresh_pairs() {
    let (_, defects) = docs::documents_of(150_000);
    const ROUNDS: usize = 41;
    let p = paired::interleaved(ROUNDS, &|| one_shot(black_box(&defects)), &|| {
        watch_text(black_box(&defects), 4096)
    });
    report(
        "watch-150KB-defects (fresh process)",
        "watch-4KiB-text",
        ROUNDS,
        &p,
    );
}

fn report(group: &str, side: &str, rounds: usize, p: &paired::Paired) {
    report_against(group, side, "jsonmend-engine", rounds, p);
}

fn report_against(group: &str, side: &str, base: &str, rounds: usize, p: &paired::Paired) {
    // (Where a process gives its heap back between calls, the fresh pages
    // a call takes are time its instructions do not show; criterion's
    // process takes none: `docs/watch-log.md`.)
    let faults = p.faults.map_or_else(String::new, |(a, b)| {
        format!("; minor page faults a call {b:.0} and {a:.0}")
    });
    eprintln!(
        "paired/{group}: {side} ÷ {base}, median of {rounds} interleaved \
         pairs: {:.2}× (medians {:.3} ms and {:.3} ms{faults})",
        p.ratio,
        p.b * 1e3,
        p.a * 1e3
    );
}

/// The request lines of a stream of `doc` in pieces of at most `chunk`
/// bytes (cut between characters): `watch.start`, the feeds, `watch.finish`.
fn watch_requests(doc: &str, chunk: usize) -> Vec<String> {
    let mut lines = vec![r#"{"id":1,"method":"watch.start"}"#.to_string()];
    for piece in text_pieces(doc, chunk) {
        let chunk = serde_json::to_string(piece).unwrap();
        lines.push(format!(
            r#"{{"id":2,"method":"watch.feed","params":{{"chunk":{chunk}}}}}"#
        ));
    }
    lines.push(r#"{"id":3,"method":"watch.finish"}"#.to_string());
    lines
}

/// Answers `lines` in one session as the server does (each reply's line
/// given back for the next); the bytes answered.
fn session(lines: &[String]) -> usize {
    let mut s = Session::new();
    let mut n = 0;
    for line in lines {
        if let Some(r) = s.handle(line.as_bytes()) {
            n += r.line.len();
            s.recycle(r.line);
        }
    }
    n
}

/// The same document through the protocol (`Session::handle`, what
/// `jsonmend serve --stdio` runs per line): one `repair` request
/// (`jsonmend-engine`), and a watch stream of 4 KiB `watch.feed` requests
/// with every reply written.
fn protocol(c: &mut Criterion) {
    let (_, defects) = docs::documents_of(150_000);
    let repair = vec![format!(
        r#"{{"id":1,"method":"repair","params":{{"text":{}}}}}"#,
        serde_json::to_string(&defects).unwrap()
    )];
    let stream = watch_requests(&defects, 4096);
    let mut g = c.benchmark_group("protocol-150KB-defects");
    g.throughput(Throughput::Bytes(defects.len() as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    // Named after the crate, as one-shot repair is in the groups above:
    // the table's ratios are against it.
    g.bench_function("jsonmend-engine", |b| {
        b.iter(|| session(black_box(&repair)))
    });
    g.bench_function("watch-4KiB-requests", |b| {
        b.iter(|| session(black_box(&stream)))
    });
    g.finish();
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("watch-scaling");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for mb in [1usize, 10, 100] {
        let (_, doc) = docs::documents_of(mb * 1_000_000);
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("watch-4KiB", format!("{mb}MB")),
            &doc,
            |b, doc| b.iter(|| watch(black_box(doc), 4096)),
        );
        if mb == 100 {
            g.bench_with_input(
                BenchmarkId::new("jsonmend-engine", format!("{mb}MB")),
                &doc,
                |b, doc| b.iter(|| one_shot(black_box(doc))),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, small, paired, protocol, scaling);

fn main() {
    // (The child process of `paired`: its pairs only.)
    if std::env::var_os(FRESH).is_some() {
        fresh_pairs();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
