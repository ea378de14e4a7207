//! The example CLI as an outside checker drives it: `ids` on a line of each
//! map's vectors (the library test covers every line through the same
//! code), `wrap` on every wrap example, `read` with and without `--expect`.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn cli() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = dir
        .join("examples")
        .join(format!("leaf{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let ok = Command::new(env!("CARGO"))
            .args(["build", "-p", "leaf-meta", "--example", "leaf"])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
    path
}

fn run(args: &[&str], stdin: &[u8]) -> (Vec<u8>, bool) {
    let mut child = Command::new(cli())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.stdout, out.status.success())
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn map_file(pin: &str) -> String {
    let file = match &pin[7..15] {
        "62c2f94f" => "qwen2.62c2f94fcbdb.json",
        "88731109" => "qwen2.887311099cdc.json",
        _ => "r50k_base.json",
    };
    root()
        .join("tests/maps")
        .join(file)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn ids_through_the_cli() {
    let text = std::fs::read_to_string(root().join("tests/vectors/ids.jsonl")).unwrap();
    let mut seen = std::collections::HashSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let pin = v["map_id"].as_str().unwrap();
        // The longest line per map, to keep the debug-build run short.
        if !seen.insert(pin.to_string()) {
            continue;
        }
        let (out, ok) = run(
            &["ids", "--map", &map_file(pin), "--pin", pin],
            v["text"].as_str().unwrap().as_bytes(),
        );
        assert!(ok);
        let got: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(got, v["ids"], "{}", v["text"]);
    }
    assert!(seen.len() >= 2);
}

#[test]
fn wrap_and_read_through_the_cli() {
    let ex: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/vectors/wrap-examples.json")).unwrap(),
    )
    .unwrap();
    let pin = ex["map_hash"].as_str().unwrap();
    let map = map_file(pin);
    for case in ex["wrap"].as_array().unwrap() {
        if case["options"].get("minTextLength").is_some() {
            continue; // the CLI uses default options
        }
        let (out, ok) = run(
            &["wrap", "--map", &map, "--pin", pin],
            case["input"].to_string().as_bytes(),
        );
        assert!(ok);
        let got: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(got, case["output"], "{}", case["name"]);
    }
    let input = ex["reader"]["input"].to_string();
    let (out, ok) = run(&["read"], input.as_bytes());
    assert!(ok);
    let got: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(got, ex["reader"]["takeIds"]);
    let (_, ok) = run(&["read", "--expect", pin], input.as_bytes());
    assert!(!ok, "a payload of another map must exit 1");
}
