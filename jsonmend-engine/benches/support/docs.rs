//! The bench documents of spec §18, generated (seed 42): `valid.json`, an
//! array of mixed records with nesting and non-ASCII text, 1-space indent;
//! `defects.json`, the same records each with two defects (single quotes,
//! bare keys, trailing commas, Python literals, a `//` comment, a newline
//! instead of a comma) — repaired, it has `valid.json`'s value.

/// A small deterministic generator (xorshift).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const NAMES: &[&str] = &[
    "Ada", "Grace", "Linus", "Zoë", "Jürgen", "Søren", "María", "李雷", "Анна", "Ngozi",
];
const CITIES: &[&str] = &[
    "Paris",
    "北京",
    "São Paulo",
    "Zürich",
    "Москва",
    "Lagos",
    "東京",
    "Kraków",
];
const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "café",
    "naïve",
    "résumé",
    "über",
    "日本語",
    "emoji 🎉",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Defect {
    SingleQuotes,
    BareKeys,
    TrailingCommas,
    PythonLiterals,
    Comment,
    NewlineCommas,
}

const DEFECTS: [Defect; 6] = [
    Defect::SingleQuotes,
    Defect::BareKeys,
    Defect::TrailingCommas,
    Defect::PythonLiterals,
    Defect::Comment,
    Defect::NewlineCommas,
];

struct Writer<'a> {
    out: &'a mut String,
    defects: &'a [Defect],
}

impl Writer<'_> {
    fn has(&self, d: Defect) -> bool {
        self.defects.contains(&d)
    }
    fn string(&mut self, s: &str) {
        let q = if self.has(Defect::SingleQuotes) {
            '\''
        } else {
            '"'
        };
        self.out.push(q);
        for c in s.chars() {
            match c {
                '"' if q == '"' => self.out.push_str("\\\""),
                '\'' if q == '\'' => self.out.push_str("\\'"),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                c => self.out.push(c),
            }
        }
        self.out.push(q);
    }
    fn key(&mut self, k: &str, indent: usize) {
        for _ in 0..indent {
            self.out.push(' ');
        }
        if self.has(Defect::BareKeys) {
            self.out.push_str(k);
        } else {
            self.string(k);
        }
        self.out.push_str(": ");
    }
    fn literal(&mut self, v: Option<bool>) {
        let py = self.has(Defect::PythonLiterals);
        self.out.push_str(match (v, py) {
            (Some(true), false) => "true",
            (Some(false), false) => "false",
            (None, false) => "null",
            (Some(true), true) => "True",
            (Some(false), true) => "False",
            (None, true) => "None",
        });
    }
    /// Separator after a member that is not the last.
    fn sep(&mut self, comment: bool) {
        if self.has(Defect::NewlineCommas) {
            self.out.push('\n');
        } else {
            self.out.push_str(",\n");
        }
        if comment && self.has(Defect::Comment) {
            self.out.push_str("  // reviewed\n");
        }
    }
    /// After the last member.
    fn end(&mut self) {
        if self.has(Defect::TrailingCommas) {
            self.out.push(',');
        }
        self.out.push('\n');
    }
}

fn record(rng: &mut Rng, i: u64, w: &mut Writer<'_>) {
    let name = NAMES[rng.below(NAMES.len() as u64) as usize];
    let city = CITIES[rng.below(CITIES.len() as u64) as usize];
    w.out.push_str(" {\n");
    w.key("id", 2);
    w.out.push_str(&i.to_string());
    w.sep(true);
    w.key("name", 2);
    w.string(&format!("{name} #{i}"));
    w.sep(false);
    w.key("score", 2);
    w.out
        .push_str(&format!("{}.{}", rng.below(1000), rng.below(100)));
    w.sep(false);
    w.key("active", 2);
    w.literal(Some(rng.below(2) == 0));
    w.sep(false);
    w.key("tags", 2);
    w.out.push('[');
    let n = 1 + rng.below(3);
    for t in 0..n {
        if t > 0 {
            w.out.push_str(", ");
        }
        w.string(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    if w.has(Defect::TrailingCommas) {
        w.out.push(',');
    }
    w.out.push(']');
    w.sep(false);
    w.key("address", 2);
    w.out.push_str("{\n");
    w.key("city", 3);
    w.string(city);
    w.sep(false);
    w.key("zip", 3);
    w.string(&format!("{:05}", rng.below(100_000)));
    w.sep(false);
    w.key("parent", 3);
    w.literal(None);
    w.end();
    w.out.push_str("  }");
    w.sep(false);
    w.key("note", 2);
    w.string(&format!(
        "said \"{}\" at {}:{:02}\nline two",
        WORDS[rng.below(10) as usize],
        rng.below(24),
        rng.below(60)
    ));
    w.end();
    w.out.push_str(" }");
}

/// `(valid, defects)` with `records` records each.
#[allow(dead_code)]
pub(crate) fn documents(records: u64) -> (String, String) {
    let mut pair = Pair::new();
    for _ in 0..records {
        pair.push_record();
    }
    pair.done()
}

/// `(valid, defects)` with as many records each as make both at least
/// `bytes` long: what a bench names "a 150 KB document" is one.
#[allow(dead_code)]
pub(crate) fn documents_of(bytes: usize) -> (String, String) {
    let mut pair = Pair::new();
    // (The closing `\n]\n` counts.)
    while pair.valid.len().min(pair.defects.len()) + 3 < bytes {
        pair.push_record();
    }
    pair.done()
}

/// The two documents as they grow, record by record, from the same seeds.
struct Pair {
    valid: String,
    defects: String,
    rng_v: Rng,
    rng_d: Rng,
    pick: Rng,
    records: u64,
}

impl Pair {
    fn new() -> Pair {
        Pair {
            valid: String::from("[\n"),
            defects: String::from("[\n"),
            rng_v: Rng(42),
            rng_d: Rng(42),
            pick: Rng(4242),
            records: 0,
        }
    }

    fn push_record(&mut self) {
        let i = self.records;
        self.records += 1;
        if i > 0 {
            self.valid.push_str(",\n");
            self.defects.push_str(",\n");
        }
        record(
            &mut self.rng_v,
            i,
            &mut Writer {
                out: &mut self.valid,
                defects: &[],
            },
        );
        let a = DEFECTS[self.pick.below(6) as usize];
        let mut b = DEFECTS[self.pick.below(6) as usize];
        if b == a {
            b = DEFECTS[(DEFECTS.iter().position(|&d| d == a).unwrap_or(0) + 1) % 6];
        }
        record(
            &mut self.rng_d,
            i,
            &mut Writer {
                out: &mut self.defects,
                defects: &[a, b],
            },
        );
    }

    fn done(mut self) -> (String, String) {
        self.valid.push_str("\n]\n");
        self.defects.push_str("\n]\n");
        (self.valid, self.defects)
    }
}
