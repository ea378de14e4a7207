//! The reference vectors (`tests/vectors/gcx-go-0.1.0.jsonl`), loaded once
//! per test binary in one shape for every test.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::panic)]

use gcx_wire::json;

pub struct Vector {
    pub case: String,
    pub kind: String,
    pub path: String,
    pub tool: String,
    /// The payload's exact bytes (`gcx_b64` when present).
    pub gcx: Vec<u8>,
    /// The Go decoder's result.
    pub decoded: serde_json::Value,
    /// The encoder input as given (`wire.Encoder` ops and the rest).
    pub json: serde_json::Value,
    /// The encoder input as JSON text with its number literals kept.
    pub input: Vec<u8>,
    pub reencode_identical: bool,
}

impl Vector {
    /// The vector named `case`.
    pub fn named<'v>(all: &'v [Vector], case: &str) -> &'v Vector {
        all.iter()
            .find(|v| v.case == case)
            .unwrap_or_else(|| panic!("no vector {case}"))
    }
}

pub fn load() -> Vec<Vector> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/gcx-go-0.1.0.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            // Our own reader keeps the number literals of `json`.
            let literal = json::parse(line.as_bytes()).unwrap();
            let mut input = Vec::new();
            json::write_go_json(literal.get("json").unwrap(), &mut input);
            let gcx = match v.get("gcx_b64").and_then(serde_json::Value::as_str) {
                Some(b64) => super::base64::decode(b64),
                None => v["gcx"].as_str().unwrap().as_bytes().to_vec(),
            };
            assert_eq!(gcx.len() as u64, v["gcx_bytes"].as_u64().unwrap());
            let s = |k: &str| v[k].as_str().unwrap().to_string();
            Vector {
                case: s("case"),
                kind: s("kind"),
                path: s("path"),
                tool: s("tool"),
                gcx,
                decoded: v["decoded"].clone(),
                json: v["json"].clone(),
                input,
                reencode_identical: v["reencode_identical"] == true,
            }
        })
        .collect()
}
