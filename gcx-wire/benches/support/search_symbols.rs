//! A generated `search_symbols` result: 13 fields per row, code-search
//! shaped cells, about one row in a hundred with an escaped TAB.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

pub const FIELDS: [&str; 13] = [
    "id",
    "kind",
    "name",
    "path",
    "path_abs",
    "line",
    "sig",
    "enclosing",
    "is_test",
    "test_role",
    "test_runner",
    "type_flavor",
    "ui_component",
];

pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn word(&mut self, min: u64, max: u64) -> String {
        let len = min + self.next() % (max - min + 1);
        (0..len)
            .map(|_| (b'a' + (self.next() % 26) as u8) as char)
            .collect()
    }
}

/// Rows of cell strings (unescaped).
pub fn rows(n: usize) -> Vec<[String; 13]> {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    (0..n)
        .map(|i| {
            let dir = rng.word(3, 8);
            let file = format!("internal/{dir}/{}.go", rng.word(4, 10));
            let name = rng.word(4, 14);
            let kind = ["function", "method", "type", "interface"][i % 4].to_string();
            let mut sig = format!("func {name}(ctx context.Context, {}) error", rng.word(2, 8));
            if i % 100 == 0 {
                sig.push_str("\t// with a tab");
            }
            [
                format!("{file}::{name}"),
                kind,
                name,
                file.clone(),
                format!("/home/dev/src/project/{file}"),
                (rng.next() % 5000).to_string(),
                sig,
                if i % 3 == 0 {
                    rng.word(4, 12)
                } else {
                    String::new()
                },
                (i % 7 == 0).to_string(),
                if i % 7 == 0 {
                    "unit".into()
                } else {
                    String::new()
                },
                if i % 7 == 0 {
                    "go test".into()
                } else {
                    String::new()
                },
                String::new(),
                String::new(),
            ]
        })
        .collect()
}

pub fn gcx_payload(rows: &[[String; 13]]) -> Vec<u8> {
    let mut out = format!(
        "GCX1 tool=search_symbols fields={} rows={}\n",
        FIELDS.join(","),
        rows.len()
    )
    .into_bytes();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            gcx_wire::ESCAPES
                .escape_into(cell.as_bytes(), &mut out)
                .unwrap();
        }
        out.push(b'\n');
    }
    out
}

pub fn json_payload(rows: &[[String; 13]]) -> Vec<u8> {
    let array: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let obj: serde_json::Map<String, serde_json::Value> = FIELDS
                .iter()
                .zip(row)
                .map(|(f, c)| (f.to_string(), serde_json::Value::String(c.clone())))
                .collect();
            serde_json::Value::Object(obj)
        })
        .collect();
    serde_json::to_vec(&array).unwrap()
}
