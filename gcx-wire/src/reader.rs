//! The one-shot decoder: lines → header / row / comment events (§10).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use wire_lex::{Fields, LineConfig, Lines};

use crate::error::{DecodeError, DecodeErrorKind};
use crate::escape::unescape;
use crate::header::Header;
use crate::payload::{Comment, Payload, Section};

/// Decoder settings.
///
/// ```
/// let opts = gcx_wire::DecodeOptions { max_line_bytes: 1 << 10, ..Default::default() };
/// let long = format!("GCX1 tool=x fields=a\n{}\n", "y".repeat(2000));
/// let err = gcx_wire::from_slice_with(long.as_bytes(), &opts).unwrap_err();
/// assert!(matches!(err.kind, gcx_wire::DecodeErrorKind::LineTooLong { limit: 1024 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// A line is accepted iff its length (without the LF, with any CR) is
    /// **less than** this (Go's 4 MiB scanner buffer:
    /// [`DEFAULT_MAX_LINE_BYTES`](crate::DEFAULT_MAX_LINE_BYTES)).
    pub max_line_bytes: usize,
    /// Behave exactly as the Go reference where the defaults deliberately
    /// differ: an empty input is an `UnexpectedEof` error, a blank first
    /// line is `NotGcx`, and a header is any line starting with the 4 bytes
    /// `GCX1` (so `GCX1tool=x` is accepted and `GCX2 …` is `NotGcx`).
    pub go_compat: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_line_bytes: crate::DEFAULT_MAX_LINE_BYTES,
            go_compat: false,
        }
    }
}

/// One decoded line that carries something.
///
/// ```
/// use gcx_wire::{Event, Reader};
///
/// let events: Vec<Event<'_>> = Reader::new(b"GCX1 tool=t fields=a\n# hi\nx\n", Default::default())
///     .collect::<Result<_, _>>()?;
/// assert!(matches!(events[0], Event::Header(_)));
/// assert_eq!(events[1], Event::Comment(b"hi"[..].into()));
/// assert_eq!(events[2], Event::Row(vec![b"x"[..].into()]));
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A header: a new section starts.
    Header(Header<'a>),
    /// A row of the current section: exactly as many cells as it has
    /// fields (short rows padded with empty cells).
    Row(Vec<Cow<'a, [u8]>>),
    /// A comment: the text after `#` and one optional space, not unescaped.
    Comment(Cow<'a, [u8]>),
}

impl Event<'_> {
    /// The same event owning its bytes.
    ///
    /// ```
    /// let e = gcx_wire::Event::Comment(b"hi"[..].into()).into_owned();
    /// assert_eq!(e, gcx_wire::Event::Comment(b"hi".to_vec().into()));
    /// ```
    #[must_use]
    pub fn into_owned(self) -> Event<'static> {
        match self {
            Event::Header(h) => Event::Header(h.into_owned()),
            Event::Row(cells) => Event::Row(
                cells
                    .into_iter()
                    .map(|c| Cow::Owned(c.into_owned()))
                    .collect(),
            ),
            Event::Comment(c) => Event::Comment(Cow::Owned(c.into_owned())),
        }
    }
}

/// What a line decoded to; row cells went to the caller's vector.
pub(crate) enum Item<'a> {
    Header(Header<'a>),
    Row,
    Comment(&'a [u8]),
}

/// The per-line rules of §10 with the state they need, shared by the
/// one-shot [`Reader`] and the streaming decoder (which split lines
/// differently but must decode them identically).
#[derive(Clone, Debug)]
pub(crate) struct LineDecoder {
    /// Lines seen so far (the current line's 1-based number once counted).
    line_no: usize,
    /// Field count of the current section; `None` before the first header.
    width: Option<usize>,
    limit: usize,
    go_compat: bool,
}

impl LineDecoder {
    pub(crate) fn new(options: &DecodeOptions) -> Self {
        LineDecoder {
            line_no: 0,
            width: None,
            limit: options.max_line_bytes,
            go_compat: options.go_compat,
        }
    }

    /// The longest accepted line (without LF, with CR).
    pub(crate) fn max_line_len(&self) -> usize {
        self.limit.saturating_sub(1)
    }

    fn error(&self, kind: DecodeErrorKind, offset: usize) -> DecodeError {
        DecodeError {
            kind,
            line: self.line_no,
            offset,
        }
    }

    /// The next line (starting at `offset`) is over the cap.
    pub(crate) fn too_long(&mut self, offset: usize) -> DecodeError {
        self.line_no += 1;
        self.error(DecodeErrorKind::LineTooLong { limit: self.limit }, offset)
    }

    /// The input ended (at `offset`).
    pub(crate) fn end(&self, offset: usize) -> Result<(), DecodeError> {
        if self.go_compat && self.width.is_none() {
            return Err(self.error(DecodeErrorKind::UnexpectedEof, offset));
        }
        Ok(())
    }

    /// Decodes one line (CR already stripped) that starts at `offset`;
    /// `Ok(None)` for a line that carries nothing (blank).
    /// `split` must be the line's fields on TAB (the caller knows the
    /// cheapest way to build it).
    pub(crate) fn line<'l>(
        &mut self,
        bytes: &'l [u8],
        offset: usize,
        split: Fields<'l>,
        cells: &mut Vec<Cow<'l, [u8]>>,
    ) -> Result<Option<Item<'l>>, DecodeError> {
        self.line_no += 1;
        let Some(width) = self.width else {
            if bytes.is_empty() && !self.go_compat {
                return Ok(None);
            }
            let prefix: &[u8] = if self.go_compat { crate::TAG } else { b"GCX" };
            if !bytes.starts_with(prefix) {
                let got = bytes.get(..10).unwrap_or(bytes).to_vec();
                return Err(self.error(DecodeErrorKind::NotGcx { got }, offset));
            }
            return self.header(bytes, offset).map(Some);
        };
        match bytes.first() {
            None => Ok(None),
            Some(b'#') => {
                let text = bytes.get(1..).unwrap_or_default();
                Ok(Some(Item::Comment(text.strip_prefix(b" ").unwrap_or(text))))
            }
            Some(_) if bytes.starts_with(crate::TAG) => self.header(bytes, offset).map(Some),
            Some(_) => self
                .row(bytes, offset, width, split, cells)
                .map(|()| Some(Item::Row)),
        }
    }

    fn row<'l>(
        &self,
        bytes: &'l [u8],
        offset: usize,
        width: usize,
        split: Fields<'l>,
        cells: &mut Vec<Cow<'l, [u8]>>,
    ) -> Result<(), DecodeError> {
        let start = cells.len();
        cells.reserve(width);
        let escaped = wire_lex::Cursor::new(bytes).find(b'\\').is_some();
        for cell in split {
            if cells.len() - start == width {
                cells.truncate(start);
                let got = bytes.iter().filter(|&&b| b == b'\t').count() + 1;
                let kind = DecodeErrorKind::TooManyCells {
                    got,
                    declared: width,
                };
                return Err(self.error(kind, offset));
            }
            cells.push(if escaped {
                unescape(cell.bytes)
            } else {
                Cow::Borrowed(cell.bytes)
            });
        }
        cells.resize(start + width, Cow::Borrowed(&[]));
        Ok(())
    }

    /// Checks the tag (exactly `GCX1`, then a space or the end, unless
    /// Go-compatible) and parses the header.
    fn header<'l>(&mut self, bytes: &'l [u8], offset: usize) -> Result<Item<'l>, DecodeError> {
        let tag = bytes.split(|&b| b == b' ').next().unwrap_or(bytes);
        if tag != crate::TAG && !self.go_compat {
            let tag = tag.to_vec();
            return Err(self.error(DecodeErrorKind::UnsupportedVersion { tag }, offset));
        }
        let header = Header::parse(bytes).map_err(|kind| self.error(kind, offset))?;
        self.width = Some(header.fields.len());
        Ok(Item::Header(header))
    }
}

/// The event iterator over a whole payload in memory. Stops after the
/// first error.
///
/// ```
/// let mut r = gcx_wire::Reader::new(b"GCX1 tool=t fields=a\n1\t2\n", Default::default());
/// assert!(r.next().unwrap().is_ok());
/// assert!(r.next().unwrap().is_err());
/// assert!(r.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    lines: Lines<'a>,
    decoder: LineDecoder,
    done: bool,
}

impl<'a> Reader<'a> {
    /// A reader over `input`.
    ///
    /// ```
    /// assert_eq!(gcx_wire::Reader::new(b"", Default::default()).count(), 0);
    /// ```
    #[must_use]
    pub fn new(input: &'a [u8], options: DecodeOptions) -> Self {
        let decoder = LineDecoder::new(&options);
        let config = LineConfig::default().max_line_len(Some(decoder.max_line_len()));
        Reader {
            lines: Lines::new(input, config),
            decoder,
            done: false,
        }
    }

    /// The next event; a row's cells are appended to `cells` (so a caller
    /// collecting many rows allocates once).
    pub(crate) fn next_into(
        &mut self,
        cells: &mut Vec<Cow<'a, [u8]>>,
    ) -> Option<Result<Item<'a>, DecodeError>> {
        if self.done {
            return None;
        }
        let result = loop {
            let line = match self.lines.next() {
                None => match self.decoder.end(self.lines.offset()) {
                    Ok(()) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => break Err(e),
                },
                Some(Err(e)) => break Err(self.decoder.too_long(e.offset().unwrap_or(0))),
                Some(Ok(line)) => line,
            };
            match self
                .decoder
                .line(line.bytes, line.offset, line.fields(b'\t'), cells)
            {
                Ok(None) => continue,
                Ok(Some(item)) => break Ok(item),
                Err(e) => break Err(e),
            }
        };
        if result.is_err() {
            self.done = true;
        }
        Some(result)
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Event<'a>, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut cells = Vec::new();
        Some(self.next_into(&mut cells)?.map(|item| match item {
            Item::Header(h) => Event::Header(h),
            Item::Row => Event::Row(cells),
            Item::Comment(c) => Event::Comment(Cow::Borrowed(c)),
        }))
    }
}

/// Decodes a whole payload; on error also returns the sections read before
/// it, as the Go reference keeps them (a section whose header parsed keeps
/// the rows before the error; one whose header failed is not added).
///
/// ```
/// let (payload, err) = gcx_wire::decode_partial(b"GCX1 tool=t fields=a\n1\n2\t3\n", &Default::default());
/// assert_eq!(payload.sections[0].row_count(), 1);
/// assert!(err.is_some());
/// ```
#[must_use]
pub fn decode_partial<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
) -> (Payload<'a>, Option<DecodeError>) {
    let mut reader = Reader::new(input, *options);
    let mut sections: Vec<Section<'a>> = Vec::new();
    let mut cells = Vec::new();
    let mut error = None;
    while let Some(item) = reader.next_into(&mut cells) {
        match item {
            Ok(Item::Header(header)) => {
                if let Some(last) = sections.last_mut() {
                    last.cells = core::mem::take(&mut cells);
                }
                sections.push(Section::new(header));
            }
            Ok(Item::Row) => {}
            Ok(Item::Comment(text)) => {
                if let Some(last) = sections.last_mut() {
                    let rows = if last.header.fields.is_empty() {
                        0
                    } else {
                        cells.len() / last.header.fields.len()
                    };
                    last.comments.push(Comment { row: rows, text });
                }
            }
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    if let Some(last) = sections.last_mut() {
        last.cells = cells;
    }
    (Payload { sections }, error)
}

/// Decodes a whole payload with the default options.
///
/// # Errors
/// The first [`DecodeError`]; use [`decode_partial`] to keep what was read
/// before it.
///
/// ```
/// let p = gcx_wire::from_slice(b"GCX1 tool=a fields=v\n1\nGCX1 tool=b fields=v\n2\n")?;
/// assert_eq!(p.sections.len(), 2);
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
pub fn from_slice(input: &[u8]) -> Result<Payload<'_>, DecodeError> {
    from_slice_with(input, &DecodeOptions::default())
}

/// [`from_slice`] with options.
///
/// # Errors
/// The first [`DecodeError`].
///
/// ```
/// let opts = gcx_wire::DecodeOptions::default();
/// assert!(gcx_wire::from_slice_with(b"", &opts)?.sections.is_empty());
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
pub fn from_slice_with<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
) -> Result<Payload<'a>, DecodeError> {
    match decode_partial(input, options) {
        (payload, None) => Ok(payload),
        (_, Some(err)) => Err(err),
    }
}
