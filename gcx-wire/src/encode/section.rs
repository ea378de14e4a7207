//! Re-encoding decoded sections (decode → encode round trip, §R5).

use super::cell::Cell;
use super::error::EncodeError;
use super::writer::Encoder;
use crate::payload::{Payload, Section};

impl Encoder {
    /// Writes a decoded section back: its header (meta as the Go decoder
    /// sees it: the last value of each key, sorted), its rows as ordered
    /// cells, and its comments where they were.
    ///
    /// # Errors
    /// As for [`Encoder::header_meta`] and [`Encoder::row`].
    ///
    /// ```
    /// use gcx_wire::encode::{Encoder, Mode};
    ///
    /// let input = b"GCX1 tool=t fields=a,b k=v\n1\t2\n# note\n3\t\n";
    /// let payload = gcx_wire::from_slice(input)?;
    /// let mut enc = Encoder::with_mode(Mode::GoCompat);
    /// enc.section(&payload.sections[0])?;
    /// assert_eq!(enc.finish(), input);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn section(&mut self, section: &Section<'_>) -> Result<(), EncodeError> {
        let h = &section.header;
        let mut meta: alloc::vec::Vec<(&[u8], &[u8])> =
            alloc::vec::Vec::with_capacity(h.meta.len());
        for (k, v) in &h.meta {
            meta.retain(|(key, _)| *key != k.as_ref());
            meta.push((k, v));
        }
        self.header_meta(&h.tool, &h.fields, &meta)?;
        let mut comments = section.comments.iter().peekable();
        for (i, row) in section.rows().enumerate() {
            while let Some(c) = comments.next_if(|c| c.row <= i) {
                self.comment(c.text)?;
            }
            self.row(row.iter().map(|c| Cell::Bytes(c)))?;
        }
        for c in comments {
            self.comment(c.text)?;
        }
        Ok(())
    }

    /// Writes every section of a decoded payload back.
    ///
    /// # Errors
    /// As for [`Encoder::section`].
    ///
    /// ```
    /// let input = b"GCX1 tool=a fields=v\nx\nGCX1 tool=b fields=v\ny\n";
    /// let mut enc = gcx_wire::encode::Encoder::new();
    /// enc.payload(&gcx_wire::from_slice(input)?)?;
    /// assert_eq!(enc.finish(), input);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payload(&mut self, payload: &Payload<'_>) -> Result<(), EncodeError> {
        payload.sections.iter().try_for_each(|s| self.section(s))
    }
}
