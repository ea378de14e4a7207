//! The done-when checks through the example CLI, one process per
//! vector, as an outside checker runs them: decode equals `decoded` (or
//! the input where the reference crashed); compact equals the reference
//! bytes where lossless and seed-independent; `auto` picks what the
//! reference picks where it is lossless; verified output round-trips.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use munch_core::{KeyOrder, decode, first_mismatch};

/// `target/<profile>/examples/munch`, built by `cargo test` with the tests.
fn cli() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir
        .join("examples")
        .join(format!("munch{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", "munch-core", "--example", "munch"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    path
}

fn run(args: &[&str], stdin: &str) -> (String, bool) {
    let mut child = Command::new(cli())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
fn cli_decode_equals_reference() {
    let mut n = 0;
    for v in support::vectors() {
        let Some(payload) = v.str("compact") else {
            continue;
        };
        let (out, ok) = run(&["decode"], payload);
        assert!(ok, "{}", v.name);
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        let want = if v.get("decoded").is_null() {
            v.get("input")
        } else {
            v.get("decoded")
        };
        let order = if v.get("decoded").is_null() {
            KeyOrder::Any
        } else {
            KeyOrder::Exact
        };
        assert_eq!(first_mismatch(want, &got, order), None, "{}", v.name);
        n += 1;
    }
    assert_eq!(n, 61);
    let (_, ok) = run(&["decode"], "hello");
    assert!(!ok);
}

#[test]
fn cli_encode_matches_reference() {
    let (mut exact, mut auto_same) = (0, 0);
    for v in support::vectors() {
        let input = serde_json::to_string(v.get("input")).unwrap();
        let seed_dependent = v
            .str("compact")
            .is_some_and(|c| c.matches("__json._meta.").count() >= 2);
        let lossless = v.flag("roundtrip_equal");
        if lossless && !seed_dependent {
            let (out, ok) = run(
                &["encode", "--tool", &v.tool, "--format", "compact"],
                &input,
            );
            assert!(ok);
            if v.flag("key_order_preserved") {
                assert_eq!(out, v.str("compact").unwrap(), "{}", v.name);
            }
            let (out, _) = run(
                &[
                    "encode",
                    "--tool",
                    &v.tool,
                    "--format",
                    "compact",
                    "--mode",
                    "reference",
                ],
                &input,
            );
            assert_eq!(out, v.str("compact").unwrap(), "{}", v.name);
            exact += 1;
            let (out, _) = run(&["encode", "--tool", &v.tool, "--format", "auto"], &input);
            assert_eq!(
                out.starts_with("#MUNCH/"),
                v.flag("auto_is_munch"),
                "{} auto",
                v.name
            );
            auto_same += 1;
        }
        for format in ["compact", "auto"] {
            let (out, ok) = run(&["encode", "--tool", &v.tool, "--format", format], &input);
            assert!(ok);
            let back = decode(&out).unwrap();
            assert_eq!(
                first_mismatch(v.get("input"), &back, KeyOrder::Any),
                None,
                "{} {format}",
                v.name
            );
        }
    }
    assert_eq!((exact, auto_same), (30, 30));
}
