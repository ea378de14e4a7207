//! A byte-driven generator of tool responses rich in MUNCH hazards: the
//! tier-1 schemas' keys, tables, `_meta`, legend-bait paths, `@`, digits,
//! quotes, blank lines, CR, non-ASCII whitespace, big and non-finite
//! numbers.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::{Map, Number, Value, json};

pub const TOOLS: [&str; 17] = [
    "find_references",
    "find_importers",
    "get_call_hierarchy",
    "get_dependency_graph",
    "get_blast_radius",
    "get_impact_preview",
    "get_signal_chains",
    "get_dependency_cycles",
    "get_tectonic_map",
    "search_symbols",
    "search_text",
    "search_ast",
    "get_file_outline",
    "get_repo_outline",
    "get_ranked_context",
    "get_hotspots",
    "tool with space",
];

const KEYS: [&str; 48] = [
    "repo",
    "file",
    "id",
    "name",
    "kind",
    "line",
    "score",
    "results",
    "matches",
    "references",
    "symbols",
    "cycles",
    "plates",
    "chains",
    "callers",
    "edges",
    "_meta",
    "timing_ms",
    "truncated",
    "verdict",
    "receipts",
    "query",
    "result_count",
    "specifier",
    "match_type",
    "text",
    "before",
    "in",
    "language",
    "details",
    "warning",
    "low_warning",
    "negative_evidence",
    "a.b",
    "@x",
    "__tables",
    "__json.x",
    "t,x",
    "k=v",
    " sp",
    "x:y",
    "p|q",
    "files",
    "length",
    "more_files",
    "summary",
    "pattern",
    "symbol",
];

const PIECES: [&str; 32] = [
    "src/",
    "app/",
    "main.py",
    "@",
    "@1",
    "@@",
    "0",
    "7",
    "12",
    "\\",
    "/",
    ",",
    "\"",
    "\n",
    "\r",
    "\n\n",
    " ",
    "\u{a0}",
    "\u{2028}",
    "T",
    "F",
    "",
    "²",
    "é",
    "\u{1f}",
    "=",
    ":",
    "|",
    "#",
    "a",
    "::f#function",
    "\t",
];

pub struct Gen<'a> {
    data: &'a [u8],
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen { data }
    }
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }
    pub fn tool(&mut self) -> &'static str {
        TOOLS[usize::from(self.byte()) % TOOLS.len()]
    }
    fn key(&mut self) -> String {
        let b = self.byte();
        if b % 8 == 0 {
            self.string()
        } else {
            KEYS[usize::from(b) % KEYS.len()].to_string()
        }
    }
    fn string(&mut self) -> String {
        let n = self.byte() % 5;
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(PIECES[usize::from(self.byte()) % PIECES.len()]);
        }
        s
    }
    fn number(&mut self) -> Value {
        match self.byte() % 12 {
            0 => json!(0),
            1 => json!(-7),
            2 => Value::Number(serde_json::from_str::<Number>("18446744073709551617").unwrap()),
            3 => json!(1.5),
            4 => json!(-0.0),
            5 => json!({"$float": "nan"}),
            6 => json!({"$float": "-inf"}),
            7 => json!(1e16),
            8 => json!(0.0001),
            9 => json!(u64::from(self.byte()) * 1000),
            10 => json!(f64::from(self.byte()) / 8.0),
            _ => json!(i64::from(self.byte())),
        }
    }
    fn scalar(&mut self) -> Value {
        match self.byte() % 6 {
            0 => Value::Null,
            1 => Value::Bool(self.byte() % 2 == 0),
            2 | 3 => self.number(),
            _ => Value::String(self.string()),
        }
    }
    /// An array of objects sharing (usually) one key sequence.
    fn table(&mut self, depth: u8) -> Value {
        let n = self.byte() % 5;
        let ncols = 1 + self.byte() % 4;
        let cols: Vec<String> = (0..ncols).map(|_| self.key()).collect();
        let mut rows = Vec::new();
        for _ in 0..n {
            let mut row = Map::new();
            for c in &cols {
                let v = if self.byte() % 8 == 0 {
                    self.value(depth + 1)
                } else {
                    self.scalar()
                };
                row.insert(c.clone(), v);
            }
            if self.byte() % 16 == 0 {
                row.insert(self.key(), self.scalar());
            }
            rows.push(Value::Object(row));
        }
        Value::Array(rows)
    }
    pub fn value(&mut self, depth: u8) -> Value {
        if depth > 3 {
            return self.scalar();
        }
        match self.byte() % 8 {
            0 | 1 => self.table(depth),
            2 => self.object(depth + 1),
            3 => {
                let n = self.byte() % 3;
                Value::Array((0..n).map(|_| self.value(depth + 1)).collect())
            }
            _ => self.scalar(),
        }
    }
    /// A cell of a declared column type (`s`, `i`, `f`, `b`), sometimes
    /// null or of another type.
    fn typed(&mut self, ty: u8) -> Value {
        match self.byte() % 16 {
            0 => return Value::Null,
            1 => return self.scalar(),
            _ => {}
        }
        match ty {
            b'i' => json!(i64::from(self.byte()) - 20),
            b'f' => json!(f64::from(self.byte()) / 16.0),
            b'b' => Value::Bool(self.byte() % 2 == 0),
            _ => {
                let mut s = String::from(
                    ["src/app/", "src/lib/", "tests/", "@", ""][usize::from(self.byte() % 5)],
                );
                s.push_str(&self.string());
                if s.is_empty() {
                    s.push('x');
                }
                Value::String(s)
            }
        }
    }

    /// Rows with the given `name:type` columns.
    fn rows(&mut self, cols: &[&str]) -> Value {
        let n = self.byte() % 6;
        Value::Array(
            (0..n)
                .map(|_| {
                    let mut row = Map::new();
                    for c in cols {
                        let (name, ty) = c.split_once(':').unwrap_or((c, "s"));
                        if self.byte() % 12 != 0 {
                            row.insert(name.to_string(), self.typed(ty.as_bytes()[0]));
                        }
                    }
                    // Now and then a key no column has, a container in a
                    // column, or a row that is not a dict.
                    match self.byte() % 128 {
                        0 => {
                            row.insert(self.key(), self.value(2));
                        }
                        1 => {
                            let (name, _) = cols[0].split_once(':').unwrap_or((cols[0], "s"));
                            row.insert(name.to_string(), self.value(2));
                        }
                        2 => return self.value(2),
                        _ => {}
                    }
                    Value::Object(row)
                })
                .collect(),
        )
    }

    /// A response shaped like the tool's real output (tier-1 tools), with
    /// declared scalars, tables, `_meta` and the odd hazard.
    pub fn shaped(&mut self, tool: &str) -> Value {
        const SYM: &[&str] = &[
            "id:s",
            "name:s",
            "kind:s",
            "file:s",
            "line:i",
            "depth:i",
            "resolution:s",
            "via:s",
        ];
        let mut m = Map::new();
        m.insert("repo".into(), self.typed(b's'));
        match tool {
            "search_symbols" => {
                m.insert("result_count".into(), self.typed(b'i'));
                m.insert("query".into(), self.typed(b's'));
                let r = self.rows(&[
                    "id:s",
                    "name:s",
                    "kind:s",
                    "file:s",
                    "line:i",
                    "score:f",
                    "signature:s",
                    "summary:s",
                ]);
                m.insert("results".into(), r);
            }
            "find_importers" => {
                m.insert(
                    "importers".into(),
                    self.rows(&["file:s", "specifier:s", "has_importers:b"]),
                );
            }
            "get_call_hierarchy" => {
                m.insert("callers".into(), self.rows(SYM));
                m.insert("callees".into(), self.rows(SYM));
                m.insert("symbol".into(), json!({"id": "a::b", "line": 3}));
            }
            "get_ranked_context" => {
                let r = self.rows(&[
                    "id:s",
                    "name:s",
                    "kind:s",
                    "file:s",
                    "line:i",
                    "score:f",
                    "token_cost:i",
                    "summary:s",
                ]);
                m.insert("context_items".into(), r);
            }
            "get_dependency_graph" => {
                m.insert("edges".into(), self.rows(&["from:s", "to:s", "depth:i"]));
            }
            "get_tectonic_map" => {
                let r = self.rows(&[
                    "plate_id:i",
                    "anchor:s",
                    "file_count:i",
                    "cohesion:f",
                    "majority_directory:s",
                    "drifter_count:i",
                    "nexus_alert:b",
                ]);
                m.insert("plates".into(), r);
            }
            "find_references" => {
                let n = self.byte() % 4;
                let refs: Vec<Value> = (0..n)
                    .map(|_| json!({"file": self.typed(b's'), "matches": self.rows(&["specifier:s", "match_type:s"])}))
                    .collect();
                m.insert("references".into(), Value::Array(refs));
            }
            "search_text" => {
                let n = self.byte() % 4;
                let groups: Vec<Value> = (0..n)
                    .map(|_| json!({"file": self.typed(b's'), "matches": self.rows(&["line:i", "text:s"])}))
                    .collect();
                m.insert("results".into(), Value::Array(groups));
            }
            "search_ast" => {
                m.insert(
                    "matches".into(),
                    self.rows(&["file:s", "line:i", "language:s", "pattern:s", "marker:s"]),
                );
            }
            "get_dependency_cycles" => {
                let n = self.byte() % 3;
                let cycles: Vec<Value> = (0..n)
                    .map(|_| json!([self.typed(b's'), self.typed(b's')]))
                    .collect();
                m.insert("cycles".into(), Value::Array(cycles));
            }
            _ => {}
        }
        if self.byte() % 2 == 0 {
            m.insert("_meta".into(), json!({"timing_ms": self.typed(b'f'), "truncated": self.typed(b'b'), "verdict": {"ok": true}}));
        }
        if self.byte() % 4 == 0 {
            m.insert(self.key(), self.value(1));
        }
        Value::Object(m)
    }

    pub fn object(&mut self, depth: u8) -> Value {
        let n = self.byte() % 7;
        let mut m = Map::new();
        for _ in 0..n {
            let k = self.key();
            let v = self.value(depth);
            m.insert(k, v);
        }
        Value::Object(m)
    }
}
