//! `jsonmend`: the command-line face of the engine (spec §15).
//!
//! stdout carries only JSON; diagnostics go to stderr; exit codes follow
//! the E-code table.

use std::io::{Read, Write};
use std::process::ExitCode;

use jsonmend_engine::{Error, ErrorCode, Options, Profile, Repaired};

const USAGE: &str = "\
usage: jsonmend repair    [--profile P] [--max-loss N] [--no-skip-prose] [--max-depth N] [--json] [-v] [FILE]
       jsonmend analyze   [same options] [FILE]
       jsonmend validate  [same options] [FILE]
       jsonmend --version | --help

Reads FILE (or stdin when absent or `-`), writes the repaired JSON to stdout.";

struct Args {
    command: String,
    opts: Options,
    json: bool,
    verbose: bool,
    file: Option<String>,
}

fn usage(msg: &str) -> Error {
    Error::new(ErrorCode::E050, msg.to_string())
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, Error> {
    let command = it.next().ok_or_else(|| usage("missing command"))?;
    let mut args = Args {
        command,
        opts: Options::default(),
        json: false,
        verbose: false,
        file: None,
    };
    let mut max_loss = None;
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| usage(&format!("{name} needs a value")))
        };
        match a.as_str() {
            "--profile" => args.opts.profile = Profile::parse(&value("--profile")?)?,
            "--max-loss" => {
                let v = value("--max-loss")?;
                let n: u32 = v
                    .parse()
                    .ok()
                    .filter(|n| *n <= 1000)
                    .ok_or_else(|| usage("max_loss must be an integer 0-1000"))?;
                max_loss = Some(n);
            }
            "--max-depth" => {
                let v = value("--max-depth")?;
                args.opts.max_depth = v
                    .parse()
                    .map_err(|_| usage("max_depth must be an integer"))?;
            }
            "--no-skip-prose" => args.opts.skip_prose = false,
            "--json" => args.json = true,
            "-v" | "--verbose" => args.verbose = true,
            f if !f.starts_with('-') || f == "-" => {
                if args.file.is_some() {
                    return Err(usage("more than one FILE"));
                }
                args.file = Some(f.to_string());
            }
            other => return Err(usage(&format!("unknown option {other}"))),
        }
    }
    args.opts.max_loss = max_loss;
    Ok(args)
}

fn read_input(file: Option<&str>) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    match file {
        None | Some("-") => std::io::stdin()
            .read_to_end(&mut buf)
            .map(|_| buf)
            .map_err(|e| Error::new(ErrorCode::E070, format!("<stdin>: {e}"))),
        Some(path) => {
            std::fs::read(path).map_err(|e| Error::new(ErrorCode::E070, format!("{path}: {e}")))
        }
    }
}

fn report_error(e: &Error) {
    let mut err = std::io::stderr().lock();
    let _ = match e.offset {
        Some(_) => writeln!(
            err,
            "jsonmend: {} at line {}, column {}: {}",
            e.code, e.line, e.column, e.message
        ),
        None => writeln!(err, "jsonmend: {}: {}", e.code, e.message),
    };
}

fn report_repairs(r: &Repaired<'_>) {
    let mut err = std::io::stderr().lock();
    for x in &r.repairs {
        let _ = writeln!(
            err,
            "jsonmend: {} {} {}:{} {}",
            x.rule.code(),
            x.rule.threshold(),
            x.line,
            x.column,
            x.message()
        );
    }
}

fn exit(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

fn run(args: Args) -> ExitCode {
    let input = match read_input(args.file.as_deref()) {
        Ok(i) => i,
        Err(e) => {
            report_error(&e);
            return exit(e.code.exit());
        }
    };
    match args.command.as_str() {
        "repair" => match jsonmend_engine::repair_bytes(&input, &args.opts) {
            Ok(r) => {
                if args.verbose {
                    report_repairs(&r);
                }
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(r.text.as_bytes());
                let _ = out.write_all(b"\n");
                ExitCode::SUCCESS
            }
            Err(e) => {
                report_error(&e);
                exit(e.code.exit())
            }
        },
        other => {
            report_error(&usage(&format!("unknown command {other}")));
            exit(2)
        }
    }
}

fn main() -> ExitCode {
    let mut raw = std::env::args().skip(1).peekable();
    match raw.peek().map(String::as_str) {
        None | Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("--version" | "-V") => {
            println!("jsonmend {} (protocol 1)", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    match parse_args(raw) {
        Ok(args) => run(args),
        Err(e) => {
            report_error(&e);
            eprintln!("{USAGE}");
            exit(e.code.exit())
        }
    }
}
