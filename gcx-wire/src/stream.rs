//! The streaming decoder ("GCX1-stream"): chunks of any size in, the
//! one-shot decoder's events out, as soon as each line is complete.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::error::DecodeError;
use crate::reader::{DecodeOptions, Event, Item, LineDecoder};

/// Decodes a payload that arrives in chunks (SSE, chunked HTTP, a pipe).
///
/// [`push`](StreamDecoder::push) takes any chunk (one byte is fine) and
/// appends the events of every line it completes; [`finish`](StreamDecoder::finish)
/// decodes a final line without LF. For any split of an input, the events
/// and the error are exactly those of the one-shot [`Reader`](crate::Reader).
/// A line is buffered only while it is incomplete, and never beyond
/// `max_line_bytes`; every byte is scanned once, so the total work is
/// linear in the input.
///
/// ```
/// use gcx_wire::{Event, StreamDecoder};
///
/// let mut dec = StreamDecoder::new(Default::default());
/// let mut events = Vec::new();
/// for chunk in [&b"GCX1 tool=t fie"[..], b"lds=a,b\n1\t", b"2\r", b"\n3"] {
///     dec.push(chunk, &mut events)?;
/// }
/// assert_eq!(events.len(), 2); // the header and row 1
/// dec.finish(&mut events)?;
/// assert_eq!(events[2], Event::Row(vec![b"3".to_vec().into(), b"".to_vec().into()]));
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct StreamDecoder {
    decoder: LineDecoder,
    /// The incomplete line so far (raw: CR not yet stripped).
    partial: Vec<u8>,
    /// Offset of the first byte of the incomplete line.
    line_start: usize,
    /// Bytes pushed so far.
    consumed: usize,
    done: bool,
}

impl StreamDecoder {
    /// A decoder with the given options.
    ///
    /// ```
    /// let dec = gcx_wire::StreamDecoder::new(Default::default());
    /// assert_eq!(dec.buffered(), 0);
    /// ```
    #[must_use]
    pub fn new(options: DecodeOptions) -> Self {
        StreamDecoder {
            decoder: LineDecoder::new(&options),
            partial: Vec::new(),
            line_start: 0,
            consumed: 0,
            done: false,
        }
    }

    /// Bytes held for the incomplete line.
    ///
    /// ```
    /// let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    /// dec.push(b"GCX1 to", &mut Vec::new())?;
    /// assert_eq!(dec.buffered(), 7);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.partial.len()
    }

    /// Feeds a chunk; events of the lines it completes are appended to
    /// `out`. After an error the decoder ignores further input.
    ///
    /// # Errors
    /// The first [`DecodeError`], as the one-shot decoder reports it.
    ///
    /// ```
    /// let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    /// let mut out = Vec::new();
    /// assert!(dec.push(b"GCX1 tool=t fields=a\n1\t2\n", &mut out).is_err());
    /// assert_eq!(out.len(), 1);
    /// ```
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<Event<'static>>) -> Result<(), DecodeError> {
        self.push_with(chunk, |event| out.push(event.into_owned()))
    }

    /// Feeds a chunk and hands each event to `f`, borrowed: from the chunk
    /// for lines that lie inside it (no copy), from the decoder's line
    /// buffer for lines that spanned chunks.
    ///
    /// # Errors
    /// As for [`push`](StreamDecoder::push).
    ///
    /// ```
    /// let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    /// let mut rows = 0;
    /// dec.push_with(b"GCX1 tool=t fields=a\nx\ny\n", |e| {
    ///     rows += matches!(e, gcx_wire::Event::Row(_)) as usize
    /// })?;
    /// assert_eq!(rows, 2);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    pub fn push_with(
        &mut self,
        chunk: &[u8],
        mut f: impl FnMut(Event<'_>),
    ) -> Result<(), DecodeError> {
        if self.done {
            return Ok(());
        }
        let result = self.push_lines(chunk, &mut f);
        self.done = result.is_err();
        result
    }

    fn push_lines(
        &mut self,
        chunk: &[u8],
        f: &mut impl FnMut(Event<'_>),
    ) -> Result<(), DecodeError> {
        let max = self.decoder.max_line_len();
        let mut rest = chunk;
        while let Some(lf) = wire_lex::Cursor::new(rest).find(b'\n') {
            let (head, tail) = rest.split_at(lf);
            rest = tail.get(1..).unwrap_or_default();
            let offset = self.line_start;
            let raw_len = self.partial.len() + head.len();
            self.consumed += lf + 1;
            self.line_start = self.consumed;
            if raw_len > max {
                return Err(self.decoder.too_long(offset));
            }
            if self.partial.is_empty() {
                self.emit(head, offset, f)?;
            } else {
                let mut line = core::mem::take(&mut self.partial);
                line.extend_from_slice(head);
                let emitted = self.emit(&line, offset, f);
                line.clear();
                self.partial = line;
                emitted?;
            }
        }
        if self.partial.len() + rest.len() > max {
            return Err(self.decoder.too_long(self.line_start));
        }
        self.partial.extend_from_slice(rest);
        self.consumed += rest.len();
        Ok(())
    }

    /// Decodes one complete raw line (one trailing CR is stripped here).
    fn emit(
        &mut self,
        raw: &[u8],
        offset: usize,
        f: &mut impl FnMut(Event<'_>),
    ) -> Result<(), DecodeError> {
        let bytes = raw.strip_suffix(b"\r").unwrap_or(raw);
        // Rows reserve their width; other lines allocate nothing.
        let mut cells = Vec::new();
        let split = wire_lex::Fields::new(bytes, offset, b'\t');
        match self.decoder.line(bytes, offset, split, &mut cells)? {
            None => {}
            Some(Item::Header(h)) => f(Event::Header(h)),
            Some(Item::Comment(c)) => f(Event::Comment(Cow::Borrowed(c))),
            Some(Item::Row) => f(Event::Row(cells)),
        }
        Ok(())
    }

    /// Ends the input: decodes the final line if it has no LF.
    ///
    /// # Errors
    /// As for [`push`](StreamDecoder::push).
    ///
    /// ```
    /// let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    /// let mut out = Vec::new();
    /// dec.push(b"GCX1 tool=t fields=a\nlast", &mut out)?;
    /// dec.finish(&mut out)?;
    /// assert_eq!(out.len(), 2);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    pub fn finish(&mut self, out: &mut Vec<Event<'static>>) -> Result<(), DecodeError> {
        self.finish_with(|event| out.push(event.into_owned()))
    }

    /// [`finish`](StreamDecoder::finish), handing the events to `f`.
    ///
    /// # Errors
    /// As for [`push`](StreamDecoder::push).
    ///
    /// ```
    /// let mut dec = gcx_wire::StreamDecoder::new(Default::default());
    /// dec.push_with(b"GCX1 tool=t fields=a\nlast", |_| {})?;
    /// let mut last = None;
    /// dec.finish_with(|e| last = Some(e.into_owned()))?;
    /// assert!(matches!(last, Some(gcx_wire::Event::Row(_))));
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    pub fn finish_with(&mut self, mut f: impl FnMut(Event<'_>)) -> Result<(), DecodeError> {
        if self.done {
            return Ok(());
        }
        self.done = true;
        let line = core::mem::take(&mut self.partial);
        if !line.is_empty() {
            self.emit(&line, self.line_start, &mut f)?;
        }
        self.decoder.end(self.consumed)
    }
}
