//! The spec-vector check every crate's `tests/golden.rs` includes (through
//! `#[path]`, so the five crates share one copy): with `TOOLWIRE_VECTORS_OUT`
//! set (by `cargo xtask vectors`) the produced lines are written into that
//! directory; otherwise they must equal the committed
//! `tests/vectors/<file>`, and drift names its first line.
#![allow(clippy::unwrap_used, clippy::panic, reason = "test helper")]

pub(crate) fn check(file: &str, lines: &[String]) {
    let got = lines.join("\n") + "\n";
    if let Some(dir) = std::env::var_os("TOOLWIRE_VECTORS_OUT") {
        std::fs::write(std::path::Path::new(&dir).join(file), got).unwrap();
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(file);
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != got {
        let first = want
            .lines()
            .zip(got.lines())
            .position(|(w, g)| w != g)
            .unwrap_or_else(|| want.lines().count().min(got.lines().count()));
        panic!(
            "{file} drifted from the code (first difference at line {}; {} lines committed, {} produced): \
             `cargo xtask vectors --check` shows the diff, `cargo xtask vectors` accepts it",
            first + 1,
            want.lines().count(),
            got.lines().count()
        );
    }
}
