//! The conformance checks through the example CLI, as an outside checker
//! runs them: every vector decoded by `gcx decode` (default and
//! `--go-compat`), and every JSON-driven vector encoded by `gcx encode`
//! (`--generic` for `wire.EncodeAny`, the benchmark layout otherwise; both
//! modes).
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test"
)]

mod support {
    pub(crate) mod base64;
    pub(crate) mod fixtures;
    pub(crate) mod vectors;
}

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `target/<profile>/examples/gcx`, built by `cargo test` with the tests.
fn cli() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir
        .join("examples")
        .join(format!("gcx{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", "gcx-wire", "--example", "gcx"])
            .status()
            .unwrap();
        assert!(status.success());
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
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out.stdout, out.status.success())
}

use support::vectors::load as vectors;

#[test]
fn decode_through_the_cli() {
    let mut agree = 0;
    let mut exact = 0;
    for v in &vectors() {
        let (out, ok) = run(&["decode", "--go-compat"], &v.gcx);
        let got: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(got, v.decoded, "{} --go-compat", v.case);
        assert_eq!(
            ok,
            v.decoded.get("error").is_none(),
            "{} exit status",
            v.case
        );
        exact += 1;
        let (out, ok) = run(&["decode"], &v.gcx);
        let got: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let same =
            got["sections"] == v.decoded["sections"] && ok == v.decoded.get("error").is_none();
        if same {
            agree += 1;
        } else {
            assert!(
                ["dec/gcx1-no-space", "dec/empty-payload"].contains(&v.case.as_str()),
                "{}",
                v.case
            );
        }
    }
    assert_eq!((exact, agree), (105, 103));
}

#[test]
fn encode_through_the_cli() {
    let fixtures = support::fixtures::fixtures(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gcx-bench"),
    );
    let mut identical = 0;
    for v in vectors() {
        let generic = v.path == "wire.EncodeAny";
        if !generic && v.path != "bench.encodeAsGCX" {
            continue;
        }
        // Fixture vectors are encoded from the YAML input text.
        let stem = v.case.trim_start_matches("generic/");
        let input = match fixtures.iter().find(|f| f.stem == stem) {
            Some(f) => f.input.clone().into_bytes(),
            None => v.input.clone(),
        };
        let mut args = vec!["encode", "--tool", v.tool.as_str()];
        if generic {
            args.push("--generic");
        }
        let (go, ok) = run(&[args.as_slice(), &["--go-compat"]].concat(), &input);
        assert!(ok, "{}", v.case);
        if v.case == "any/first-cell-gcx1" {
            assert_ne!(go, v.gcx, "the first-cell escape");
            continue;
        }
        assert!(go == v.gcx, "{} --go-compat", v.case);
        let (strict, ok) = run(&args, &input);
        if ok {
            assert!(strict == v.gcx, "{} strict", v.case);
            identical += 1;
        }
    }
    // 20 + 20 fixtures, 7 `any/` and 6 `bench/` lossless vectors.
    assert_eq!(identical, 53);
}
