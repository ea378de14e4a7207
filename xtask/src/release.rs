//! `cargo xtask release CRATE [--level major|minor|patch] [--execute]`:
//! releases one crate. Without `--execute` it checks and shows what it
//! would do (packaging included, nothing written); with it, it writes the
//! version and changelog, commits, tags `CRATE-vX.Y.Z` and publishes.

use std::fs;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::util::{cargo, root, step};

/// The library crates and the spec each one implements (build metadata of
/// their versions, e.g. `1.0.0+munch-1`).
const CRATES: [(&str, Option<&str>); 5] = [
    ("wire-lex", None),
    ("munch-core", Some("munch-1")),
    ("gcx-wire", Some("gcx-1")),
    ("leaf-meta", Some("leaf-1")),
    ("jsonmend-engine", Some("jsonmend-1")),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Major,
    Minor,
    Patch,
}

struct Args {
    krate: &'static str,
    spec: Option<&'static str>,
    /// `None`: minor, or no bump at all for a first release.
    level: Option<Level>,
    execute: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let usage = || {
        format!(
            "usage: cargo xtask release CRATE [--level major|minor|patch] [--execute]\n  CRATE: {}",
            CRATES.map(|(c, _)| c).join(", ")
        )
    };
    let mut krate = None;
    let mut level = None;
    let mut execute = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--execute" => execute = true,
            "--level" => {
                level = Some(match it.next().map(String::as_str) {
                    Some("major") => Level::Major,
                    Some("minor") => Level::Minor,
                    Some("patch") => Level::Patch,
                    _ => return Err(usage()),
                });
            }
            name => {
                let found = CRATES.iter().find(|(c, _)| *c == name).ok_or_else(usage)?;
                krate = Some(*found);
            }
        }
    }
    let (krate, spec) = krate.ok_or_else(usage)?;
    Ok(Args {
        krate,
        spec,
        level,
        execute,
    })
}

/// `git ARGS` in the workspace root: its trimmed stdout, or why it failed.
fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `(major, minor, patch)` of `X.Y.Z[+meta]`.
fn semver(v: &str) -> Result<(u64, u64, u64), String> {
    let core = v.split(['+', '-']).next().unwrap_or_default();
    let parts: Vec<u64> = core
        .split('.')
        .map(|p| p.parse().map_err(|_| format!("not a SemVer version: {v}")))
        .collect::<Result<_, _>>()?;
    match parts.as_slice() {
        [a, b, c] => Ok((*a, *b, *c)),
        _ => Err(format!("not a SemVer version: {v}")),
    }
}

fn bump((major, minor, patch): (u64, u64, u64), level: Level) -> (u64, u64, u64) {
    match level {
        Level::Major => (major + 1, 0, 0),
        Level::Minor => (major, minor + 1, 0),
        Level::Patch => (major, minor, patch + 1),
    }
}

/// The quoted value of the first `key = "…"` line of `toml` at or after
/// the `[section]` header.
fn toml_string(toml: &str, section: &str, key: &str) -> Option<String> {
    let body = toml.split(&format!("[{section}]\n")).nth(1)?;
    body.lines()
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
        .and_then(|rest| rest.split('"').next())
        .map(str::to_owned)
}

/// The crate's current version (its own, or the workspace's).
fn current_version(krate: &str) -> Result<String, String> {
    let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml"))
        .map_err(|e| format!("{krate}/Cargo.toml: {e}"))?;
    if let Some(v) = toml_string(&manifest, "package", "version") {
        return Ok(v);
    }
    let workspace = fs::read_to_string(root().join("Cargo.toml")).map_err(|e| e.to_string())?;
    toml_string(&workspace, "workspace.package", "version")
        .ok_or_else(|| String::from("no version in the manifests"))
}

/// The last release tag of `krate` and whether its directory changed since.
fn last_release(krate: &str) -> Result<(Option<String>, bool), String> {
    let tags = git(&["tag", "--list", &format!("{krate}-v*"), "--sort=-v:refname"])?;
    match tags.lines().next() {
        None => Ok((None, true)),
        Some(tag) => {
            let changed = !git(&["diff", "--name-only", tag, "HEAD", "--", krate])?.is_empty();
            Ok((Some(tag.to_owned()), changed))
        }
    }
}

/// Today (UTC) as `YYYY-MM-DD` (civil-from-days, proleptic Gregorian).
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The changelog with its `## Unreleased` entries filed under `version`.
fn changelog_release(text: &str, version: &str, date: &str) -> Result<String, String> {
    let head = "## Unreleased\n";
    let at = text
        .find(head)
        .ok_or("CHANGELOG.md has no `## Unreleased` section")?;
    let rest = text.get(at + head.len()..).unwrap_or_default();
    let entries = rest.split("\n## ").next().unwrap_or_default();
    if entries.trim().is_empty() {
        return Err(String::from(
            "CHANGELOG.md: `## Unreleased` is empty — nothing to release",
        ));
    }
    Ok(format!(
        "{}## Unreleased\n\n## {version} — {date}\n{rest}",
        text.get(..at).unwrap_or_default()
    ))
}

/// The manifest with its package version set to `version`.
fn manifest_with_version(manifest: &str, version: &str) -> String {
    let mut done = false;
    manifest
        .lines()
        .map(|l| {
            if !done && (l == "version.workspace = true" || l.starts_with("version = \"")) {
                done = true;
                format!("version = \"{version}\"")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let args = parse(args)?;
    let krate = args.krate;
    let mode = if args.execute { "release" } else { "dry run" };
    eprintln!("xtask: ── release {krate} ({mode})");

    let dirty = git(&["status", "--porcelain"])?;
    if !dirty.is_empty() {
        return Err(format!(
            "the workspace is not clean; commit or stash first:\n{dirty}"
        ));
    }
    eprintln!("xtask: ✓ workspace clean");

    let current = current_version(krate)?;
    let (last, changed) = last_release(krate)?;
    // A first release ships the version in the manifest unless a level is
    // asked for.
    let level = match (args.level, &last) {
        (Some(level), _) => Some(level),
        (None, Some(_)) => Some(Level::Minor),
        (None, None) => None,
    };
    let (major, minor, patch) = match level {
        Some(level) => bump(semver(&current)?, level),
        None => semver(&current)?,
    };
    let plain = format!("{major}.{minor}.{patch}");
    let version = match args.spec {
        Some(spec) => format!("{plain}+{spec}"),
        None => plain.clone(),
    };
    let tag = format!("{krate}-v{plain}");
    if !git(&["tag", "--list", &tag])?.is_empty() {
        return Err(format!("tag {tag} already exists"));
    }
    match &last {
        Some(t) if !changed => eprintln!("xtask: note: {krate} has not changed since {t}"),
        Some(t) => eprintln!("xtask: {krate} changed since {t}"),
        None => eprintln!("xtask: {krate} was never released"),
    }
    let how = level.map_or_else(|| String::from("first release"), |l| format!("{l:?} bump"));
    eprintln!("xtask: version {current} → {version} ({how}), tag {tag}");

    let changelog_path = root().join(krate).join("CHANGELOG.md");
    let changelog =
        fs::read_to_string(&changelog_path).map_err(|e| format!("{krate}/CHANGELOG.md: {e}"))?;
    let new_changelog = changelog_release(&changelog, &version, &today())?;
    eprintln!(
        "xtask: CHANGELOG.md: `## Unreleased` entries become `## {version} — {}`",
        today()
    );

    // A crate built on wire-lex is packaged with it while wire-lex has
    // unreleased changes (cargo resolves it from the package set).
    let manifest_path = root().join(krate).join("Cargo.toml");
    let manifest = fs::read_to_string(&manifest_path).map_err(|e| e.to_string())?;
    let mut packages = vec![krate];
    if krate != "wire-lex" && manifest.contains("wire-lex") {
        let (wl_tag, wl_changed) = last_release("wire-lex")?;
        if wl_changed {
            let why = wl_tag.map_or_else(
                || String::from("was never released"),
                |t| format!("changed since {t}"),
            );
            if args.execute {
                return Err(format!(
                    "wire-lex {why}: release it first (`cargo xtask release wire-lex --execute`)"
                ));
            }
            eprintln!("xtask: wire-lex {why}: packaged first, with {krate}");
            packages.insert(0, "wire-lex");
        }
    }
    let mut publish = cargo();
    publish.arg("publish");
    for p in &packages {
        publish.args(["-p", p]);
    }

    if !args.execute {
        step("cargo publish --dry-run", publish.arg("--dry-run"))?;
        eprintln!(
            "xtask: dry run done. `--execute` would: set {krate}/Cargo.toml version = \"{version}\"{}, \
             update CHANGELOG.md, commit `release {krate} {version}`, tag {tag}, and run `cargo publish -p {krate}`",
            if krate == "wire-lex" {
                " (and the workspace requirement)"
            } else {
                ""
            }
        );
        return Ok(());
    }

    fs::write(&manifest_path, manifest_with_version(&manifest, &version))
        .map_err(|e| e.to_string())?;
    if krate == "wire-lex" {
        let ws_path = root().join("Cargo.toml");
        let ws = fs::read_to_string(&ws_path).map_err(|e| e.to_string())?;
        let old = format!("wire-lex = {{ path = \"wire-lex\", version = \"{current}\"");
        let new = format!("wire-lex = {{ path = \"wire-lex\", version = \"{plain}\"");
        fs::write(&ws_path, ws.replace(&old, &new)).map_err(|e| e.to_string())?;
    }
    fs::write(&changelog_path, new_changelog).map_err(|e| e.to_string())?;
    step(
        "cargo publish --dry-run",
        cargo().args(["publish", "--dry-run", "--allow-dirty", "-p", krate]),
    )?;
    git(&["commit", "-qam", &format!("release {krate} {version}")])?;
    git(&["tag", &tag])?;
    eprintln!("xtask: ✓ committed and tagged {tag}");
    step("cargo publish", cargo().args(["publish", "-p", krate])).map_err(|e| {
        format!(
            "{e}\nthe release is committed and tagged ({tag}); publish it with `cargo publish -p {krate}` once that is fixed"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_bump_by_semver() {
        assert_eq!(semver("0.1.0+munch-1"), Ok((0, 1, 0)));
        assert_eq!(bump((0, 1, 3), Level::Minor), (0, 2, 0));
        assert_eq!(bump((1, 2, 3), Level::Major), (2, 0, 0));
        assert_eq!(bump((1, 2, 3), Level::Patch), (1, 2, 4));
        assert!(semver("1.2").is_err());
    }

    #[test]
    fn the_changelog_files_unreleased_entries_under_the_version() {
        let text =
            "# Changelog\n\n## Unreleased\n\n- New thing.\n\n## 0.1.0 — 2026-01-01\n\n- Old.\n";
        let out = changelog_release(text, "0.2.0+munch-1", "2026-12-01").unwrap_or_default();
        assert_eq!(
            out,
            "# Changelog\n\n## Unreleased\n\n## 0.2.0+munch-1 — 2026-12-01\n\n- New thing.\n\n## 0.1.0 — 2026-01-01\n\n- Old.\n"
        );
        assert!(changelog_release("# Changelog\n\n## Unreleased\n\n## 0.1.0\n", "1", "d").is_err());
    }

    #[test]
    fn the_manifest_version_is_replaced_once() {
        let m = "[package]\nname = \"x\"\nversion.workspace = true\n[dependencies]\ny = { version = \"1\" }\n";
        assert_eq!(
            manifest_with_version(m, "0.2.0+x-1"),
            "[package]\nname = \"x\"\nversion = \"0.2.0+x-1\"\n[dependencies]\ny = { version = \"1\" }\n"
        );
    }

    #[test]
    fn today_is_a_calendar_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
