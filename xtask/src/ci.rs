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
    // munch-core without serde_json's arbitrary_precision (its own tests
    // turn it on, spec D5, and a workspace build unifies it everywhere).
    step(
        "test munch-core in its default configuration",
        cargo()
            .args(["test", "-p", "munch-bench"])
            .env("MUNCH_DEFAULT_CONFIGURATION", "1"),
    )?;
    // Spec vectors against the code (with a diff), reference vectors
    // against their origin records.
    crate::vectors::run(&[String::from("--check")])?;
    // Tests behind optional features: (crate, feature, which tests).
    for (krate, feature, test) in [
        ("leaf-meta", "nfc", &["--test", "ids_vectors"][..]),
        // Spec §19's work counter (a feature, so release builds pay nothing).
        (
            "jsonmend-engine",
            "work-counter",
            &["--test", "work_counter"],
        ),
        // The watch floor's internals (their examples; the bench is
        // linted below).
        (
            "jsonmend-engine",
            "watch-floor",
            &["--doc", "watch/floor.rs"],
        ),
    ] {
        feature_checks(krate, feature, test)?;
    }
    // munch-core against the Python reference (spec §12's optional job):
    // skipped with a message when PyPI cannot be reached.
    match crate::munch_ref::install() {
        Ok(_) => crate::munch_diff::run(&[String::from("2000")])?,
        Err(e) => eprintln!("xtask: skipped the munch reference differential (no reference: {e})"),
    }
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

/// Tests (`test`: `cargo test` arguments choosing them) and clippy with
/// one optional feature of a crate switched on.
fn feature_checks(krate: &str, feature: &str, test: &[&str]) -> Result<(), String> {
    let mut cmd = cargo();
    cmd.args(["test", "-p", krate, "--features", feature])
        .args(test);
    step(&format!("test {krate} --features {feature}"), &mut cmd)?;
    step(
        &format!("clippy {krate} --features {feature}"),
        cargo().args([
            "clippy",
            "-p",
            krate,
            "--features",
            feature,
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )
}
