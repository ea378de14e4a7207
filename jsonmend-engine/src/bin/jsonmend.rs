//! `jsonmend`: the command-line face of the engine (spec §15).
//!
//! stdout carries only JSON; diagnostics go to stderr; exit codes follow
//! the E-code table.

use std::io::{Read, Write};
use std::process::ExitCode;

use jsonmend_engine::{Error, ErrorCode, Options, Profile, RepairPlan, Repaired, Schema};

const USAGE: &str = "\
usage: jsonmend serve --stdio
       jsonmend repair    [--profile P] [--schema S | --schema-json FILE] [--max-loss N] [--no-skip-prose] [--max-depth N] [--json] [-v] [FILE]
       jsonmend analyze   [same options] [FILE]
       jsonmend validate  [same options] [FILE]
       jsonmend readiness [--schema S | --schema-json FILE] [--no-skip-prose] [FILE]
       jsonmend --version | --help

Reads FILE (or stdin when absent or `-`), writes the repaired JSON to stdout.";

struct Args {
    command: String,
    opts: Options,
    schema: Option<String>,
    schema_json: Option<String>,
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
        schema: None,
        schema_json: None,
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
            "--schema" => args.schema = Some(value("--schema")?),
            "--schema-json" => args.schema_json = Some(value("--schema-json")?),
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
    if let Some(hint) = &e.retry_hint {
        let _ = writeln!(err, "jsonmend: hint: {hint}");
    }
}

/// The declaration from `--schema` or `--schema-json FILE` (`E020` for both).
fn load_schema(args: &Args) -> Result<Option<Schema>, Error> {
    match (&args.schema, &args.schema_json) {
        (Some(_), Some(_)) => Err(Error::new(
            ErrorCode::E020,
            "invalid schema: both schema and schema_json given at column 1",
        )),
        (Some(s), None) => Schema::parse(s).map(Some),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error::new(ErrorCode::E070, format!("{path}: {e}")))?;
            Schema::from_json_schema(&text).map(Some)
        }
        (None, None) => Ok(None),
    }
}

fn print_line(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
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

fn fail(e: &Error, json: bool) -> ExitCode {
    report_error(e);
    if json {
        print_line(&format!("{{\"ok\":false,\"error\":{}}}", e.to_json()));
    }
    exit(e.code.exit())
}

fn run(mut args: Args) -> ExitCode {
    let input = match read_input(args.file.as_deref()) {
        Ok(i) => i,
        Err(e) => return fail(&e, args.json),
    };
    let schema = load_schema(&args);
    match args.command.as_str() {
        "repair" => {
            match schema {
                Ok(s) => args.opts.schema = s,
                Err(e) => return fail(&e, args.json),
            }
            match jsonmend_engine::repair_bytes(&input, &args.opts) {
                Ok(r) => {
                    if args.verbose {
                        report_repairs(&r);
                    }
                    if args.json {
                        print_line(&format!("{{\"ok\":true,\"result\":{}}}", r.to_json()));
                    } else {
                        print_line(&r.text);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e, args.json),
            }
        }
        "analyze" => {
            let plan = match schema {
                Ok(s) => {
                    args.opts.schema = s;
                    jsonmend_engine::analyze(&input, &args.opts)
                }
                Err(e) => RepairPlan::from_error(e, &input, None),
            };
            if args.verbose {
                if let Some(r) = &plan.result {
                    report_repairs(r);
                }
            }
            print_line(&plan.to_json());
            ExitCode::SUCCESS
        }
        "validate" => {
            match schema {
                Ok(s) => args.opts.schema = s,
                Err(e) => return fail(&e, args.json),
            }
            let v = jsonmend_engine::validate(&input, &args.opts);
            if let (false, Some(e)) = (v.valid, &v.error) {
                report_error(e);
            }
            print_line(&v.to_json());
            let ok = v.valid && v.schema.as_ref().is_none_or(|s| s.ok());
            if ok { ExitCode::SUCCESS } else { exit(1) }
        }
        "readiness" => {
            match schema {
                Ok(s) => args.opts.schema = s,
                Err(e) => return fail(&e, args.json),
            }
            print_line(&jsonmend_engine::readiness(&input, &args.opts).to_json());
            ExitCode::SUCCESS
        }
        "serve" => {
            report_error(&usage("serve needs --stdio"));
            exit(2)
        }
        other => {
            report_error(&usage(&format!("unknown command {other}")));
            exit(2)
        }
    }
}

/// Lines longer than this get a buffer of [`jsonmend_engine::MAX_LINE`]
/// bytes, which is not kept for the next line.
const LONG_LINE: usize = 1 << 20;

/// `jsonmend serve --stdio`: JSONL requests on stdin, one response line
/// per request on stdout (flushed per line), lines read with bounded memory.
fn serve() -> ExitCode {
    use std::io::BufRead;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut session = jsonmend_engine::Session::new();
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    let answer = |session: &mut jsonmend_engine::Session, line: &[u8], oversized: bool| {
        let reply = if oversized {
            Some(jsonmend_engine::Session::oversized())
        } else {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.handle(line)))
                .unwrap_or_else(|_| {
                    Some(jsonmend_engine::Session::internal_error("handler panicked"))
                })
        };
        let Some(reply) = reply else { return false };
        // The line and its LF in one write: written apart, a line longer
        // than stdout's buffer went out in one system call and the LF in
        // another.
        let mut text = reply.line;
        text.push('\n');
        let mut out = stdout.lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        // Its memory serves the next reply.
        session.recycle(text);
        reply.shutdown
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return ExitCode::SUCCESS,
        };
        if chunk.is_empty() {
            if (!line.is_empty() || oversized) && answer(&mut session, &line, oversized) {
                return ExitCode::SUCCESS;
            }
            return ExitCode::SUCCESS;
        }
        let (piece, end, used) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (chunk.get(..i).unwrap_or_default(), true, i + 1),
            None => (chunk, false, chunk.len()),
        };
        if !oversized {
            let len = line.len() + piece.len();
            if len > jsonmend_engine::MAX_LINE {
                oversized = true;
                line = Vec::new();
            } else {
                if len > line.capacity() && len > LONG_LINE {
                    // Past a megabyte the buffer goes straight to the
                    // line limit: one allocation of one size for every
                    // long line, not a doubling series whose freed
                    // pieces of every size stay in the process.
                    line.reserve_exact(jsonmend_engine::MAX_LINE - line.len());
                }
                line.extend_from_slice(piece);
            }
        }
        input.consume(used);
        if end {
            let bye = answer(&mut session, &line, oversized);
            line.clear();
            if line.capacity() > LONG_LINE {
                // A long line's buffer is not kept for the short ones.
                line = Vec::new();
            }
            oversized = false;
            if bye {
                return ExitCode::SUCCESS;
            }
        }
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some("serve")
        && argv.get(1).map(String::as_str) == Some("--stdio")
        && argv.len() == 2
    {
        // A panic message must never reach stdout; stderr only.
        std::panic::set_hook(Box::new(|info| {
            eprintln!("jsonmend: internal error: {info}")
        }));
        return serve();
    }
    let mut raw = argv.into_iter().peekable();
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
