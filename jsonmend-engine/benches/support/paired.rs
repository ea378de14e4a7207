//! Interleaved pairs: each round times one call of each side back to back
//! (in alternating order), so a burst of load on this shared VM slows both
//! sides of a pair alike. Criterion's medians of two functions are taken
//! minutes apart.

use std::hint::black_box;
use std::time::Instant;

/// The medians of an interleaved run.
pub(crate) struct Paired {
    /// Median of the per-round ratios `b ÷ a`.
    pub(crate) ratio: f64,
    /// Median time of `a`, in seconds.
    pub(crate) a: f64,
    /// Median time of `b`, in seconds.
    pub(crate) b: f64,
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
    time(a);
    time(b);
    for round in 0..rounds {
        let (x, y) = if round % 2 == 0 {
            let x = time(a);
            (x, time(b))
        } else {
            let y = time(b);
            (time(a), y)
        };
        ta.push(x);
        tb.push(y);
        ratio.push(y / x);
    }
    Paired {
        ratio: median(&mut ratio),
        a: median(&mut ta),
        b: median(&mut tb),
    }
}
