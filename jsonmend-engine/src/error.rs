//! The E-codes of spec §8 and the typed error every entry point returns.

use alloc::string::String;
use core::fmt;

use crate::rules::Rule;

/// An error code of spec §8.
///
/// ```
/// use jsonmend_engine::ErrorCode;
/// let e = jsonmend_engine::repair_text("   ").unwrap_err();
/// assert_eq!(e.code, ErrorCode::E001);
/// assert_eq!((e.code.as_str(), e.code.exit()), ("E001", 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Nothing but whitespace.
    E001,
    /// No JSON value found.
    E002,
    /// A wrapper (fence, tag, `data:` line, call) without a value, or text
    /// after the value with `skip_prose: false`.
    E003,
    /// A lossy repair refused by the profile.
    E010,
    /// An ambiguous repair refused by the profile.
    E011,
    /// A repair refused by the profile (strict, or a denied rule).
    E012,
    /// More loss than `max_loss`.
    E013,
    /// An invalid schema declaration.
    E020,
    /// The declared schema is not satisfied.
    E021,
    /// Nesting deeper than `max_depth`.
    E040,
    /// Input larger than `max_input`.
    E041,
    /// A missing or invalid parameter, unknown method, CLI usage.
    E050,
    /// A malformed request line.
    E060,
    /// CLI I/O.
    E070,
    /// A caught panic.
    E090,
}

impl ErrorCode {
    /// The code text, e.g. `"E010"`.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::ErrorCode::E041.as_str(), "E041");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::E001 => "E001",
            ErrorCode::E002 => "E002",
            ErrorCode::E003 => "E003",
            ErrorCode::E010 => "E010",
            ErrorCode::E011 => "E011",
            ErrorCode::E012 => "E012",
            ErrorCode::E013 => "E013",
            ErrorCode::E020 => "E020",
            ErrorCode::E021 => "E021",
            ErrorCode::E040 => "E040",
            ErrorCode::E041 => "E041",
            ErrorCode::E050 => "E050",
            ErrorCode::E060 => "E060",
            ErrorCode::E070 => "E070",
            ErrorCode::E090 => "E090",
        }
    }

    /// The CLI exit code of spec §8.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::ErrorCode::E011.exit(), 5);
    /// ```
    pub fn exit(self) -> i32 {
        match self {
            ErrorCode::E001 | ErrorCode::E002 | ErrorCode::E003 => 4,
            ErrorCode::E010
            | ErrorCode::E011
            | ErrorCode::E012
            | ErrorCode::E013
            | ErrorCode::E021 => 5,
            ErrorCode::E020 | ErrorCode::E040 | ErrorCode::E041 | ErrorCode::E050 => 2,
            ErrorCode::E060 | ErrorCode::E070 | ErrorCode::E090 => 3,
        }
    }

    /// Whether the error carries a `retry_hint` (spec §8 "Hint").
    ///
    /// ```
    /// use jsonmend_engine::ErrorCode;
    /// assert!(ErrorCode::E010.has_hint());
    /// assert!(!ErrorCode::E060.has_hint()); // a malformed protocol line
    /// ```
    pub fn has_hint(self) -> bool {
        !matches!(
            self,
            ErrorCode::E020 | ErrorCode::E050 | ErrorCode::E060 | ErrorCode::E070 | ErrorCode::E090
        )
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fatal condition or a refusal: code, message and where.
///
/// ```
/// use jsonmend_engine::{repair, ErrorCode, Options, Profile};
/// let e = repair("{\"a\": 1,\n \"b\": [1 2]}", &Options::with_profile(Profile::Strict)).unwrap_err();
/// assert_eq!(e.code, ErrorCode::E012);
/// assert_eq!((e.line, e.column), (2, 10)); // the missing comma in `[1 2]`
/// assert!(e.retry_hint.is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The E-code.
    pub code: ErrorCode,
    /// The message of spec §8.
    pub message: String,
    /// Byte offset in the input, where one applies.
    pub offset: Option<usize>,
    /// 1-based line of `offset` (0 without an offset).
    pub line: usize,
    /// 1-based column of `offset` (0 without an offset).
    pub column: usize,
    /// The rule behind a refusal.
    pub rule: Option<Rule>,
    /// For `E013`: the loss in permille (used by the retry hint).
    pub loss_permille: Option<u32>,
    /// For `E010`–`E012` and `E021`: the problem text of the retry hint.
    pub problem: Option<String>,
    /// The `RetryHint::to_prompt()` text, for codes that have a hint (set by
    /// the entry points, which know the input and the declaration).
    pub retry_hint: Option<String>,
}

impl Error {
    /// An error without a position.
    ///
    /// ```
    /// use jsonmend_engine::{Error, ErrorCode};
    /// let e = Error::new(ErrorCode::E050, "unknown profile \"x\"");
    /// assert_eq!(e.code.exit(), 2);
    /// ```
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
            offset: None,
            line: 0,
            column: 0,
            rule: None,
            loss_permille: None,
            problem: None,
            retry_hint: None,
        }
    }

    /// Attaches the retry hint for `input` (and the canonical declaration).
    ///
    /// ```
    /// use jsonmend_engine::{Error, ErrorCode};
    /// let e = Error::new(ErrorCode::E002, "no JSON value found").with_hint(b"hello", None);
    /// assert!(e.retry_hint.unwrap().contains("no JSON value was found"));
    /// ```
    pub fn with_hint(mut self, input: &[u8], schema: Option<&str>) -> Error {
        self.retry_hint = crate::RetryHint::for_error(&self, input, schema).map(|h| h.to_prompt());
        self
    }

    /// The same error placed at `offset` of `input`.
    ///
    /// ```
    /// use jsonmend_engine::{Error, ErrorCode};
    /// let e = Error::new(ErrorCode::E040, "too deep").at(b"[\n[[", 3);
    /// assert_eq!((e.offset, e.line, e.column), (Some(3), 2, 2));
    /// ```
    pub fn at(mut self, input: &[u8], offset: usize) -> Error {
        let (line, column) = crate::position::line_column(input, offset);
        self.offset = Some(offset);
        self.line = line;
        self.column = column;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(_) => write!(
                f,
                "{} at line {}, column {}: {}",
                self.code, self.line, self.column, self.message
            ),
            None => write!(f, "{}: {}", self.code, self.message),
        }
    }
}

impl core::error::Error for Error {}
