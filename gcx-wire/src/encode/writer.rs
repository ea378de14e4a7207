//! The low-level writer: headers, rows and comments, Go-exact (§2, §5).

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::cell::Cell;
use super::error::{EncodeError, HeaderPart, HeaderProblem};
use crate::escape::ESCAPES;

/// What to do with values GCX1 cannot carry.
///
/// ```
/// use gcx_wire::encode::{Encoder, Mode};
///
/// let mut strict = Encoder::new();
/// strict.header("t", &["a", "b"])?;
/// assert!(strict.row(["x\r", "y"]).is_err());
///
/// let mut go = Encoder::with_mode(Mode::GoCompat);
/// go.header("t", &["a", "b"])?;
/// go.row(["x\r", "y"])?; // Go deletes the CR
/// assert_eq!(go.finish(), b"GCX1 tool=t fields=a,b\nx\ty\n");
/// # Ok::<(), gcx_wire::encode::EncodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Refuse (with a typed error, writing nothing for the offending header
    /// or row) whatever would not decode back as written. The default.
    #[default]
    Strict,
    /// Write what the Go reference writes (CR deleted, header hazards raw,
    /// blank rows written).
    GoCompat,
}

/// Writes a GCX1 payload: a header, its rows and comments, the next
/// header, … Output goes to an internal buffer ([`Encoder::finish`]).
///
/// In both modes a row whose first cell would start with `#` or `GCX1` gets
/// one extra `\` in front, which every decoder reads back as the original
/// text (Go writes it raw and loses the row).
///
/// ```
/// use gcx_wire::encode::Encoder;
///
/// let mut enc = Encoder::new();
/// enc.header_meta("search", &["id", "line"], &[("total", "2"), ("rows", "2")])?;
/// enc.row(["a.go::F", "3"])?;
/// enc.row(["#hash", ""])?;
/// enc.comment("2 result(s)")?;
/// assert_eq!(
///     enc.finish(),
///     b"GCX1 tool=search fields=id,line rows=2 total=2\na.go::F\t3\n\\#hash\t\n# 2 result(s)\n"
/// );
/// # Ok::<(), gcx_wire::encode::EncodeError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    out: Vec<u8>,
    mode: Mode,
    fields: Vec<Vec<u8>>,
    in_section: bool,
    failed: Option<Box<EncodeError>>,
    /// A typed header waiting for its first record's field names.
    #[cfg(feature = "serde")]
    pub(crate) pending: Option<crate::typed::PendingHeader>,
}

impl Encoder {
    /// A strict encoder.
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a"])?;
    /// assert!(enc.row(["x\ry"]).is_err()); // a CR would not come back
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Encoder::default()
    }

    /// An encoder in `mode`.
    ///
    /// ```
    /// use gcx_wire::encode::{Encoder, Mode};
    /// let mut go = Encoder::with_mode(Mode::GoCompat);
    /// go.header("t", &["a"])?;
    /// go.row([""])?; // a blank line, as Go writes it
    /// assert_eq!(go.finish(), b"GCX1 tool=t fields=a\n\n");
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    #[must_use]
    pub fn with_mode(mode: Mode) -> Self {
        Encoder {
            mode,
            ..Encoder::default()
        }
    }

    /// The current section's field names.
    #[cfg(feature = "serde")]
    pub(crate) fn field_names(&self) -> &[Vec<u8>] {
        &self.fields
    }

    /// The bytes written so far.
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a"])?;
    /// assert_eq!(enc.as_bytes(), b"GCX1 tool=t fields=a\n");
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.out
    }

    /// The payload.
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a", "b"])?;
    /// enc.row(["1", "x\ty"])?;
    /// let payload = enc.finish();
    /// assert_eq!(payload, b"GCX1 tool=t fields=a,b\n1\tx\\ty\n");
    /// let back = gcx_wire::from_slice(&payload)?;
    /// assert_eq!(back.sections[0].rows().next().unwrap()[1], &b"x\ty"[..]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    fn check_sticky(&self) -> Result<(), EncodeError> {
        match &self.failed {
            Some(e) => Err(EncodeError::Stopped(e.clone())),
            None => Ok(()),
        }
    }

    fn stop(&mut self, err: EncodeError) -> EncodeError {
        self.failed = Some(Box::new(err.clone()));
        err
    }

    /// Starts a section without meta: `GCX1 tool=… fields=…`.
    ///
    /// # Errors
    /// As for [`Encoder::header_meta`].
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a", "b"])?;
    /// assert_eq!(enc.as_bytes(), b"GCX1 tool=t fields=a,b\n");
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    pub fn header<T, F>(&mut self, tool: T, fields: &[F]) -> Result<(), EncodeError>
    where
        T: AsRef<[u8]>,
        F: AsRef<[u8]>,
    {
        self.header_meta(tool, fields, &[] as &[(&[u8], &[u8])])
    }

    /// Starts a section: `GCX1 tool=… fields=… k=v…`, meta sorted bytewise
    /// by key (stable for repeated keys).
    ///
    /// # Errors
    /// Strict mode: [`EncodeError::InvalidHeader`] for the first part (in
    /// header order) that GCX1 cannot carry.
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header_meta("t", &["a"], &[("z", "1"), ("B", "2")])?;
    /// assert_eq!(enc.as_bytes(), b"GCX1 tool=t fields=a B=2 z=1\n");
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    pub fn header_meta<T, F, K, V>(
        &mut self,
        tool: T,
        fields: &[F],
        meta: &[(K, V)],
    ) -> Result<(), EncodeError>
    where
        T: AsRef<[u8]>,
        F: AsRef<[u8]>,
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.check_sticky()?;
        let tool = tool.as_ref();
        let mut sorted: Vec<(&[u8], &[u8])> =
            meta.iter().map(|(k, v)| (k.as_ref(), v.as_ref())).collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        let mut line = Vec::with_capacity(64);
        line.extend_from_slice(b"GCX1 tool=");
        self.put(&mut line, tool);
        line.extend_from_slice(b" fields=");
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            self.put(&mut line, f.as_ref());
        }
        for (k, v) in &sorted {
            line.push(b' ');
            self.put(&mut line, k);
            line.push(b'=');
            self.put(&mut line, v);
        }
        if self.mode == Mode::Strict {
            let fields: Vec<&[u8]> = fields.iter().map(AsRef::as_ref).collect();
            check_header(tool, &fields, &sorted, &line).map_err(|e| self.stop(e))?;
        }
        line.push(b'\n');
        self.out.extend_from_slice(&line);
        self.fields = fields.iter().map(|f| f.as_ref().to_vec()).collect();
        self.in_section = true;
        Ok(())
    }

    /// Escapes `value` into `line` (CR deleted, as Go does; strict mode
    /// rejects CR before writing).
    fn put(&self, line: &mut Vec<u8>, value: &[u8]) {
        // A Vec sink never reports a full buffer.
        let _ = ESCAPES.escape_into(value, line);
    }

    /// Writes a row: values in field order, padded with empty cells.
    ///
    /// # Errors
    /// [`EncodeError::TooManyValues`] (both modes, sticky); strict mode:
    /// [`EncodeError::CarriageReturn`], [`EncodeError::BlankRow`].
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a", "b", "c"])?;
    /// enc.row([gcx_wire::encode::Cell::from(1u8)])?;
    /// assert!(enc.as_bytes().ends_with(b"\n1\t\t\n"));
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    pub fn row<'c, I>(&mut self, values: I) -> Result<(), EncodeError>
    where
        I: IntoIterator,
        I::Item: Into<Cell<'c>>,
    {
        self.check_sticky()?;
        if !self.in_section {
            return Err(EncodeError::NoHeader);
        }
        let width = self.fields.len();
        let start = self.out.len();
        let mut written = 0;
        let mut values = values.into_iter();
        while let Some(value) = values.next() {
            if written == width {
                self.out.truncate(start);
                let values = width + 1 + values.count();
                return Err(self.stop(EncodeError::TooManyValues {
                    values,
                    fields: width,
                }));
            }
            if written > 0 {
                self.out.push(b'\t');
            }
            if !self.write_cell(written == 0, value.into()) {
                self.out.truncate(start);
                let field = self.fields.get(written).cloned().unwrap_or_default();
                return Err(EncodeError::CarriageReturn { field });
            }
            written += 1;
        }
        // Go-exact padding: always `width - 1` TABs in all.
        let tabs = if written == 0 {
            width.saturating_sub(1)
        } else {
            width - written
        };
        self.out.resize(self.out.len() + tabs, b'\t');
        if self.mode == Mode::Strict && self.out.len() == start {
            return Err(EncodeError::BlankRow);
        }
        self.out.push(b'\n');
        Ok(())
    }

    /// Appends one cell's escaped text; `false` if strict mode refuses it
    /// (a CR).
    fn write_cell(&mut self, first: bool, cell: Cell<'_>) -> bool {
        match cell {
            Cell::Null => true,
            Cell::Bytes(text) => self.write_text(first, text),
            Cell::Bool(b) => {
                self.out
                    .extend_from_slice(if b { b"true" } else { b"false" });
                true
            }
            Cell::Int(i) => {
                if i < 0 {
                    self.out.push(b'-');
                }
                push_decimal(&mut self.out, i.unsigned_abs());
                true
            }
            Cell::Uint(u) => {
                push_decimal(&mut self.out, u);
                true
            }
            // Float text needs no escape and never starts with `#`/`GCX1`.
            Cell::F64(_) | Cell::F32(_) => {
                self.out.extend_from_slice(&cell.text());
                true
            }
        }
    }

    /// Appends text escaped, with the first-cell guard.
    #[inline]
    fn write_text(&mut self, first: bool, text: &[u8]) -> bool {
        if first && (text.starts_with(b"#") || text.starts_with(crate::TAG)) {
            self.out.push(b'\\');
        }
        if !ESCAPES.needs_escaping(text) {
            self.out.extend_from_slice(text);
            return true;
        }
        if self.mode == Mode::Strict && text.contains(&b'\r') {
            return false;
        }
        // A Vec sink never reports a full buffer.
        let _ = ESCAPES.escape_into(text, &mut self.out);
        true
    }

    /// Writes a comment line: `# ` + text with every LF replaced by a
    /// space (nothing else is escaped, as in Go).
    ///
    /// # Errors
    /// [`EncodeError::NoHeader`] before the first header; a sticky error.
    ///
    /// ```
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.header("t", &["a"])?;
    /// enc.comment("two\nlines")?;
    /// assert!(enc.as_bytes().ends_with(b"# two lines\n"));
    /// # Ok::<(), gcx_wire::encode::EncodeError>(())
    /// ```
    pub fn comment(&mut self, text: impl AsRef<[u8]>) -> Result<(), EncodeError> {
        self.check_sticky()?;
        if !self.in_section {
            return Err(EncodeError::NoHeader);
        }
        self.out.extend_from_slice(b"# ");
        self.out.extend(
            text.as_ref()
                .iter()
                .map(|&b| if b == b'\n' { b' ' } else { b }),
        );
        self.out.push(b'\n');
        Ok(())
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(slot) = buf.get_mut(at) {
            *slot = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(buf.get(at..).unwrap_or_default());
}

fn invalid(part: HeaderPart, reason: HeaderProblem) -> EncodeError {
    EncodeError::InvalidHeader { part, reason }
}

/// CR or SP in any part.
fn common(part: HeaderPart, value: &[u8]) -> Result<(), EncodeError> {
    if value.contains(&b'\r') {
        return Err(invalid(part, HeaderProblem::CarriageReturn));
    }
    if value.contains(&b' ') {
        return Err(invalid(part, HeaderProblem::Space));
    }
    Ok(())
}

/// Strict header checks, in header order (§R4).
fn check_header(
    tool: &[u8],
    fields: &[&[u8]],
    meta: &[(&[u8], &[u8])],
    line: &[u8],
) -> Result<(), EncodeError> {
    if tool.is_empty() {
        return Err(invalid(HeaderPart::Tool, HeaderProblem::Empty));
    }
    common(HeaderPart::Tool, tool)?;
    for f in fields {
        common(HeaderPart::Field, f)?;
        if f.contains(&b',') {
            return Err(invalid(HeaderPart::Field, HeaderProblem::Comma));
        }
        if f.contains(&b'\\') {
            return Err(invalid(HeaderPart::Field, HeaderProblem::Backslash));
        }
    }
    for (k, v) in meta {
        common(HeaderPart::MetaKey, k)?;
        if k.contains(&b'=') {
            return Err(invalid(HeaderPart::MetaKey, HeaderProblem::Equals));
        }
        if *k == b"tool" || *k == b"fields" {
            return Err(invalid(HeaderPart::MetaKey, HeaderProblem::ReservedKey));
        }
        common(HeaderPart::MetaValue, v)?;
    }
    let last = core::str::from_utf8(line)
        .ok()
        .and_then(|s| s.chars().next_back())
        .or_else(|| {
            line.utf8_chunks()
                .last()
                .and_then(|c| c.valid().chars().next_back())
        });
    if last.is_some_and(char::is_whitespace) {
        let part = match (meta.last(), fields.is_empty()) {
            (Some(_), _) => HeaderPart::MetaValue,
            (None, false) => HeaderPart::Field,
            (None, true) => HeaderPart::Tool,
        };
        return Err(invalid(part, HeaderProblem::TrailingWhitespace));
    }
    Ok(())
}
