//! `cargo xtask ci`: the whole gate CI runs, in the order that fails fastest.

use crate::util::{cargo, step};

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.first() {
        return Err(format!("ci takes no arguments (got `{extra}`)"));
    }
    step("fmt", cargo().args(["fmt", "--all", "--check"]))?;
    step(
        "clippy",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    // The README's test command.
    step("test", cargo().args(["test", "--workspace"]))?;
    // Spec vectors against the code (with a diff), reference vectors
    // against their origin records.
    crate::vectors::run(&[String::from("--check")])?;
    // Tests behind optional features.
    step(
        "test leaf-meta --features nfc",
        cargo().args([
            "test",
            "-p",
            "leaf-meta",
            "--features",
            "nfc",
            "--test",
            "ids_vectors",
        ]),
    )?;
    step(
        "clippy leaf-meta --features nfc",
        cargo().args([
            "clippy",
            "-p",
            "leaf-meta",
            "--features",
            "nfc",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    // Spec §19's work counter (a feature, so release builds pay nothing).
    step(
        "test jsonmend-engine --features work-counter",
        cargo().args([
            "test",
            "-p",
            "jsonmend-engine",
            "--features",
            "work-counter",
            "--test",
            "work_counter",
        ]),
    )?;
    step(
        "clippy jsonmend-engine --features work-counter",
        cargo().args([
            "clippy",
            "-p",
            "jsonmend-engine",
            "--features",
            "work-counter",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    crate::nostd::run()?;
    step(
        "doc",
        cargo()
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    step(
        "fuzz targets compile",
        cargo().args(["check", "--manifest-path", "fuzz/Cargo.toml", "--bins"]),
    )?;
    eprintln!("xtask: ci passed");
    Ok(())
}
