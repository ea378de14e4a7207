//! Spec vectors of leaf-meta's own encoder (`tests/vectors/toolwire-leaf.jsonl`):
//! canonical texts (prose, code, JSON, scripts, emoji, whitespace runs,
//! special-token text) through the three bundled maps. `cargo xtask
//! vectors` regenerates the file; `--check` (in CI) shows drift as a diff.
#![allow(clippy::unwrap_used, reason = "test")]

mod support {
    pub(crate) mod maps;
}

#[path = "../../xtask/shared/golden.rs"]
mod golden;
#[path = "../../xtask/shared/golden_json.rs"]
mod golden_json;

use leaf_meta::{LeafMap, MapId};
use serde_json::json;

const TEXTS: [(&str, &str); 14] = [
    ("prose", "The quick brown fox jumps over the lazy dog."),
    (
        "contractions",
        "I'm sure they'll say it's fine, we've done it, you'd agree.",
    ),
    (
        "digits",
        "Order 1234567890 costs 3.14159 EUR (2026-12-01, 09:41).",
    ),
    (
        "code",
        "fn main() {\n    let xs: Vec<u32> = (0..10).collect();\n    println!(\"{xs:?}\");\n}\n",
    ),
    (
        "json",
        "{\"id\":\"src/app.py::main#function\",\"line\":42,\"score\":0.93,\"tags\":[\"a\",\"b\"]}",
    ),
    ("whitespace", "a  b   c\t\td\n\n\ne    \n  \u{a0}f"),
    ("cjk", "東京は日本の首都です。北京是中国的首都。"),
    ("cyrillic_greek", "Привет, мир! Γειά σου Κόσμε!"),
    ("emoji", "ship it 🚀🚀 — done ✅ (👩‍💻 + 🧑🏽‍🔬)"),
    (
        "combining",
        "e\u{301}le\u{300}ve, Å vs A\u{30a}, ﬁ ligature",
    ),
    (
        "special_text",
        "before <|endoftext|> after <|im_start|>user",
    ),
    (
        "repeats",
        "================================================================",
    ),
    ("mixed_scripts", "résumé naïve café Straße İstanbul ǅ"),
    ("empty", ""),
];

#[test]
fn golden_vectors_match_the_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps");
    let mut lines = Vec::new();
    for (file, pin) in support::maps::MAPS {
        let map = LeafMap::from_file(dir.join(file), &MapId::parse(pin).unwrap()).unwrap();
        for (name, text) in TEXTS {
            let ids = map.encode(text);
            assert_eq!(map.decode(&ids), text.as_bytes(), "{file} {name}");
            lines.push(golden_json::line(&[
                ("map", json!(file)),
                ("name", json!(name)),
                ("text", json!(text)),
                ("ids", json!(ids)),
            ]));
        }
    }
    golden::check("toolwire-leaf.jsonl", &lines);
}
