//! The `no_std` checks: every library builds without `std`, and a
//! `#![no_std]` staticlib with its own panic handler links all of them, so a
//! dependency that pulls in `std` fails with E0152 (duplicate `panic_impl`).

use crate::util::{LIBRARIES, NO_STD_FEATURES, cargo, render, step};

const LINK_MANIFEST: &str = "xtask/nostd-link/Cargo.toml";
const LINK_TARGET_DIR: &str = "target/nostd-link";
/// Separate from `target/` so `-D warnings` does not invalidate its cache.
const BUILD_TARGET_DIR: &str = "target/nostd";

pub(crate) fn run() -> Result<(), String> {
    for lib in LIBRARIES {
        let extra = NO_STD_FEATURES
            .iter()
            .filter(|(l, _)| *l == lib)
            .map(|(_, f)| *f);
        for features in ["", "alloc"].into_iter().chain(extra) {
            let mut cmd = cargo();
            cmd.args(["build", "--quiet", "-p", lib, "--no-default-features"])
                .args(["--target-dir", BUILD_TARGET_DIR])
                .env("RUSTFLAGS", "-D warnings");
            if !features.is_empty() {
                cmd.args(["--features", features]);
            }
            let what = if features.is_empty() {
                "no_std".to_string()
            } else {
                format!("no_std+{features}")
            };
            step(&format!("{what} build {lib}"), &mut cmd)?;
        }
    }
    step("no_std link check", &mut link_check(false))?;
    prove_the_check_bites()
}

fn link_check(leak: bool) -> std::process::Command {
    let mut cmd = cargo();
    cmd.args([
        "build",
        "--quiet",
        "--manifest-path",
        LINK_MANIFEST,
        "--target-dir",
        LINK_TARGET_DIR,
    ]);
    if leak {
        cmd.args(["--features", "leak"]);
    }
    cmd
}

/// Builds the link check once more with `std` switched on in `wire-lex`; it
/// must fail with E0152, or the check proves nothing.
fn prove_the_check_bites() -> Result<(), String> {
    let mut cmd = link_check(true);
    eprintln!(
        "xtask: ── no_std link check must reject a std leak: {}",
        render(&cmd)
    );
    let out = cmd
        .output()
        .map_err(|e| format!("cannot start {}: {e}", render(&cmd)))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Err("the no_std link check accepted a crate that links std".into());
    }
    if !stderr.contains("E0152") {
        return Err(format!(
            "the leak build failed, but not with E0152 (duplicate lang item):\n{stderr}"
        ));
    }
    eprintln!("xtask: ✓ a std leak fails the link check with E0152");
    Ok(())
}
