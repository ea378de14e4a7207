//! `scorecard [--markdown | --json] [--metric M] [--cases DIR [--tool T]]`
//! (run through `cargo xtask scorecard`).

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use scorecard::corpus;
use scorecard::render;
use scorecard::score::Scorecard;
use scorecard::tokens::{Counter, Metric};

const USAGE: &str = "\
usage: cargo xtask scorecard [--markdown | --json] [--metric bytes|cl100k|o200k|qwen2]
                             [--cases DIR [--tool NAME]]

  (default)      readable tables on stdout, progress on stderr
  --markdown     the same tables as Markdown
  --json         one object: {\"cases\": [...], \"medians\": {...}, \"group_medians\": {...}}
  --metric M     one metric per case, the formats side by side (default:
                 every metric, one row per case and format)
  --cases DIR    your own responses: every DIR/*.json, one response per file,
                 tool name from the file name unless --tool is given
";

struct Args {
    markdown: bool,
    json: bool,
    metric: Option<Metric>,
    cases: Option<PathBuf>,
    tool: Option<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        markdown: false,
        json: false,
        metric: None,
        cases: None,
        tool: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--markdown" => out.markdown = true,
            "--json" => out.json = true,
            "--metric" => {
                let m = value("--metric")?;
                out.metric = Some(Metric::parse(&m).ok_or_else(|| format!("unknown metric {m}"))?);
            }
            "--cases" => out.cases = Some(PathBuf::from(value("--cases")?)),
            "--tool" => out.tool = Some(value("--tool")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if out.markdown && out.json {
        return Err(String::from("--markdown and --json exclude each other"));
    }
    if out.tool.is_some() && out.cases.is_none() {
        return Err(String::from("--tool goes with --cases"));
    }
    Ok(out)
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let root = corpus::root();
    let cases = match &args.cases {
        Some(dir) => corpus::directory(dir, args.tool.as_deref())?,
        None => corpus::bundled(&root)?,
    };
    if cases.is_empty() {
        return Err("no cases (the directory has no *.json file)".into());
    }
    let started = Instant::now();
    // Progress redraws one line on a terminal, and stays quiet in logs.
    let tty = std::io::stderr().is_terminal();
    let clear = if tty { "\x1b[2K\r" } else { "" };
    if tty {
        eprint!("scorecard: loading tokenizers");
    }
    let counter = Counter::load(&root)?;
    let total = cases.len();
    let card = Scorecard::measure(&cases, &counter, |i, name| {
        if tty {
            eprint!("{clear}scorecard: [{}/{total}] {name}", i + 1);
        }
    })?;
    eprintln!(
        "{clear}scorecard: {total} cases, {} payloads measured in {:.1} s",
        card.rows.len(),
        started.elapsed().as_secs_f64()
    );
    let text = if args.json {
        let mut t = serde_json::to_string_pretty(&render::json(&card))?;
        t.push('\n');
        t
    } else {
        render::report(&card, args.metric, args.markdown)
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&args) {
        Ok(a) => a,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("scorecard: {msg}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scorecard: {e}");
            ExitCode::FAILURE
        }
    }
}
