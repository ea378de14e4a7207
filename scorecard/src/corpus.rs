//! The cases: the 20 Gortex benchmark fixtures, one realistic response per
//! jcodemunch tier-1 tool (from the MUNCH reference vectors), our generic
//! MCP results, or a user's directory of JSON files.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where a case comes from; decides the JSON baseline and the GCX1 layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// A Gortex benchmark fixture: Go `json.Marshal` baseline, per-tool
    /// GCX1 layout.
    Gortex,
    /// A jcodemunch tier-1 tool response.
    Jcodemunch,
    /// Any other MCP result (ours, or `--cases DIR`).
    Generic,
}

impl Group {
    /// The name used in tables and in `--json`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Group::Gortex => "gortex",
            Group::Jcodemunch => "jcodemunch",
            Group::Generic => "generic",
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One tool response to encode in every format.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case name (a fixture stem, a vector name or a file stem).
    pub name: String,
    /// Its group.
    pub group: Group,
    /// The tool that produced it (selects MUNCH tier-1 and GCX1 layouts).
    pub tool: String,
    /// The response as JSON text, as it was given.
    pub json: String,
}

/// A corpus that could not be read.
#[derive(Debug)]
pub struct CorpusError(pub String);

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CorpusError {}

fn read(path: &Path) -> Result<String, CorpusError> {
    std::fs::read_to_string(path).map_err(|e| CorpusError(format!("{}: {e}", path.display())))
}

/// The files of `dir` ending in `.ext`, sorted by name.
fn files(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, CorpusError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| CorpusError(format!("{}: {e}", dir.display())))?;
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    Ok(out)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The workspace root (the scorecard is a development tool of this tree).
#[must_use]
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A Gortex fixture: its `tool:` line and its `input: |` block of
/// two-space-indented JSON.
fn gortex_fixture(name: String, text: &str) -> Case {
    let mut tool = String::new();
    let mut json = String::new();
    let mut in_block = false;
    for line in text.lines() {
        if in_block {
            if let Some(rest) = line.strip_prefix("  ") {
                json.push_str(rest);
                json.push('\n');
                continue;
            }
            if line.trim().is_empty() {
                json.push('\n');
                continue;
            }
            in_block = false;
        }
        if let Some(t) = line.strip_prefix("tool:") {
            t.trim().clone_into(&mut tool);
        } else if line.starts_with("input: |") {
            in_block = true;
        }
    }
    Case {
        name,
        group: Group::Gortex,
        tool,
        json,
    }
}

/// The 20 Gortex fixtures (`gcx-wire/tests/fixtures/gcx-bench`).
///
/// # Errors
/// When the directory or a file cannot be read.
pub fn gortex(root: &Path) -> Result<Vec<Case>, CorpusError> {
    files(&root.join("gcx-wire/tests/fixtures/gcx-bench"), "yaml")?
        .into_iter()
        .map(|p| Ok(gortex_fixture(stem(&p), &read(&p)?)))
        .collect()
}

/// The jcodemunch cases named in `scorecard/corpus/jcodemunch.txt`, taken
/// from the reference vectors' `input`s.
///
/// # Errors
/// When a file cannot be read or a listed vector is missing.
pub fn jcodemunch(root: &Path) -> Result<Vec<Case>, CorpusError> {
    let list = read(&root.join("scorecard/corpus/jcodemunch.txt"))?;
    let mut vectors = Vec::new();
    for file in ["jcodemunch-1.108.399.jsonl", "extra-1.108.399.jsonl"] {
        let path = root.join("munch-core/tests/vectors").join(file);
        for line in read(&path)?.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| CorpusError(format!("{}: {e}", path.display())))?;
            vectors.push(v);
        }
    }
    let mut out = Vec::new();
    for name in list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let v = vectors
            .iter()
            .find(|v| v.get("name").and_then(|n| n.as_str()) == Some(name))
            .ok_or_else(|| CorpusError(format!("no MUNCH vector named {name}")))?;
        let tool = v.get("tool").and_then(|t| t.as_str()).unwrap_or_default();
        let input = v.get("input").cloned().unwrap_or_default();
        out.push(Case {
            name: name.to_owned(),
            group: Group::Jcodemunch,
            tool: tool.to_owned(),
            json: serde_json::to_string(&input).unwrap_or_default(),
        });
    }
    Ok(out)
}

/// Every `*.json` file of `dir` as a generic case; the tool is `tool` or
/// the file stem.
///
/// # Errors
/// When the directory or a file cannot be read.
pub fn directory(dir: &Path, tool: Option<&str>) -> Result<Vec<Case>, CorpusError> {
    files(dir, "json")?
        .into_iter()
        .map(|p| {
            let name = stem(&p);
            Ok(Case {
                tool: tool.map_or_else(|| name.clone(), str::to_owned),
                name,
                group: Group::Generic,
                json: read(&p)?,
            })
        })
        .collect()
}

/// The bundled corpus: Gortex, jcodemunch, then our generic cases.
///
/// # Errors
/// When a part of it cannot be read.
pub fn bundled(root: &Path) -> Result<Vec<Case>, CorpusError> {
    let mut cases = gortex(root)?;
    cases.extend(jcodemunch(root)?);
    cases.extend(directory(&root.join("scorecard/corpus/generic"), None)?);
    Ok(cases)
}
