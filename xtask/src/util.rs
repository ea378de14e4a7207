//! Running cargo and friends from the project root.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// The workspace root (the parent of `xtask/`).
pub(crate) fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or(manifest.clone(), PathBuf::from)
}

/// `cargo` as the one that runs us, falling back to PATH.
pub(crate) fn cargo() -> Command {
    let bin = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(bin);
    cmd.current_dir(root());
    cmd
}

/// Runs `cmd` as step `name`, echoing it and its duration; fails on a
/// non-zero exit.
pub(crate) fn step(name: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: ── {name}: {}", render(cmd));
    let start = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("{name}: cannot start {}: {e}", render(cmd)))?;
    let secs = start.elapsed().as_secs_f64();
    if status.success() {
        eprintln!("xtask: ✓ {name} ({secs:.1}s)");
        Ok(())
    } else {
        Err(format!("{name} failed ({status}) after {secs:.1}s"))
    }
}

/// A command line as a shell would show it.
pub(crate) fn render(cmd: &Command) -> String {
    let mut out = String::new();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            out.push_str(&format!("{}={} ", k.to_string_lossy(), v.to_string_lossy()));
        }
    }
    out.push_str(&cmd.get_program().to_string_lossy());
    for arg in cmd.get_args() {
        out.push(' ');
        out.push_str(&arg.to_string_lossy());
    }
    out
}

/// The library crates of the workspace (everything `no_std` is checked on).
pub(crate) const LIBRARIES: [&str; 5] = [
    "wire-lex",
    "munch-core",
    "gcx-wire",
    "leaf-meta",
    "jsonmend-engine",
];

/// Optional features that must build without `std` too, per crate.
pub(crate) const NO_STD_FEATURES: [(&str, &str); 2] =
    [("gcx-wire", "alloc,serde"), ("leaf-meta", "alloc,nfc")];
