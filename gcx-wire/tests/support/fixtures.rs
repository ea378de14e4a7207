//! Reading the benchmark fixtures (`tests/fixtures/gcx-bench/*.yaml`): a
//! `tool:` line and an `input: |` block of two-space-indented JSON.
#![allow(dead_code, unreachable_pub)]

pub struct Fixture {
    pub stem: String,
    pub tool: String,
    pub input: String,
}

pub fn parse_yaml(stem: &str, text: &str) -> Fixture {
    let mut tool = String::new();
    let mut input = String::new();
    let mut in_block = false;
    for line in text.lines() {
        if in_block {
            if let Some(rest) = line.strip_prefix("  ") {
                input.push_str(rest);
                input.push('\n');
                continue;
            }
            if line.trim().is_empty() {
                input.push('\n');
                continue;
            }
            in_block = false;
        }
        if let Some(t) = line.strip_prefix("tool:") {
            tool = t.trim().to_string();
        } else if line.starts_with("input: |") {
            in_block = true;
        }
    }
    Fixture {
        stem: stem.to_string(),
        tool,
        input,
    }
}

pub fn fixtures(dir: &std::path::Path) -> Vec<Fixture> {
    let mut out: Vec<Fixture> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            parse_yaml(&stem, &std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    out
}
