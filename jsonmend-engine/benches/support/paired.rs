//! Interleaved pairs: each round times one call of each side back to back
//! (in alternating order), so a burst of load on this shared VM slows both
//! sides of a pair alike. Criterion's medians of two functions are taken
//! minutes apart.

use std::hint::black_box;
use std::io::Read;
use std::time::Instant;

/// The medians of an interleaved run.
pub(crate) struct Paired {
    /// Median of the per-round ratios `b ÷ a`.
    pub(crate) ratio: f64,
    /// Median time of `a`, in seconds.
    pub(crate) a: f64,
    /// Median time of `b`, in seconds.
    pub(crate) b: f64,
    /// Minor page faults a call of `a` and of `b` (means), where the
    /// system tells them (Linux): the pages the allocator had to take
    /// from the kernel again, which instructions do not show. (Read by
    /// the watch bench only.)
    #[allow(dead_code)]
    pub(crate) faults: Option<(f64, f64)>,
}

/// The process's minor page faults so far: the tenth field of
/// `/proc/self/stat`, read into a stack buffer (no heap allocation, which
/// would move the heap the sides are measured on). `None` elsewhere.
fn minor_faults() -> Option<u64> {
    let mut buf = [0u8; 1024];
    let mut f = std::fs::File::open("/proc/self/stat").ok()?;
    let n = f.read(&mut buf).ok()?;
    let stat = std::str::from_utf8(buf.get(..n)?).ok()?;
    // The fields after the command's name, which ends at the last `)`
    // (the name may hold blanks): the state, then six more, then minflt.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    rest.split(' ').nth(7)?.parse().ok()
}

/// `f`'s time, and the minor page faults it took.
fn timed(f: &dyn Fn() -> usize) -> (f64, Option<u64>) {
    let before = minor_faults();
    let t = time(f);
    let faults = before.and_then(|b| Some(minor_faults()?.saturating_sub(b)));
    (t, faults)
}

fn time(f: &dyn Fn() -> usize) -> f64 {
    let t = Instant::now();
    black_box(f());
    t.elapsed().as_secs_f64()
}

/// The median of `v` (sorted in place).
pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `a` and `b` in `rounds` interleaved pairs (after one warm-up call
/// each).
pub(crate) fn interleaved(rounds: usize, a: &dyn Fn() -> usize, b: &dyn Fn() -> usize) -> Paired {
    let (mut ta, mut tb, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let (mut fa, mut fb) = (Some(0u64), Some(0u64));
    time(a);
    time(b);
    for round in 0..rounds {
        let ((x, px), (y, py)) = if round % 2 == 0 {
            let x = timed(a);
            (x, timed(b))
        } else {
            let y = timed(b);
            (timed(a), y)
        };
        fa = fa.zip(px).map(|(s, n)| s + n);
        fb = fb.zip(py).map(|(s, n)| s + n);
        ta.push(x);
        tb.push(y);
        ratio.push(y / x);
    }
    let per_call = |n: u64| n as f64 / rounds.max(1) as f64;
    Paired {
        ratio: median(&mut ratio),
        a: median(&mut ta),
        b: median(&mut tb),
        faults: fa.zip(fb).map(|(a, b)| (per_call(a), per_call(b))),
    }
}
