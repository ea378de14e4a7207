//! Decoded payloads: sections of ordered, padded cells plus comments.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::header::Header;

/// A decoded payload: its sections in order.
///
/// ```
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\nx\n")?;
/// assert_eq!(p.sections.len(), 1);
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Payload<'a> {
    /// The sections, in order.
    pub sections: Vec<Section<'a>>,
}

/// A comment line and where it sat.
///
/// ```
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\nx\n# truncated_by_budget=true\n")?;
/// let c = &p.sections[0].comments[0];
/// assert_eq!((c.row, c.text), (1, &b"truncated_by_budget=true"[..]));
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// How many rows of the section came before it.
    pub row: usize,
    /// The text after `#` and one optional space (never unescaped).
    pub text: &'a [u8],
}

/// One section: header, rows (stored as one flat run of cells, each row
/// exactly `header.fields.len()` cells) and comments.
///
/// ```
/// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a,b\n1\t2\n3\n")?;
/// let s = &p.sections[0];
/// let rows: Vec<Vec<&[u8]>> = s.rows().map(|r| r.iter().map(|c| c.as_ref()).collect()).collect();
/// assert_eq!(rows, [vec![&b"1"[..], b"2"], vec![&b"3"[..], b""]]);
/// # Ok::<(), gcx_wire::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// The header line.
    pub header: Header<'a>,
    /// Every cell of every row, row after row.
    pub cells: Vec<Cow<'a, [u8]>>,
    /// Comment lines, in order.
    pub comments: Vec<Comment<'a>>,
}

impl<'a> Section<'a> {
    pub(crate) fn new(header: Header<'a>) -> Self {
        Section {
            header,
            cells: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// The number of cells per row (the number of fields).
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a,b,c\n")?;
    /// assert_eq!(p.sections[0].width(), 3);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    #[must_use]
    pub fn width(&self) -> usize {
        self.header.fields.len()
    }

    /// The number of rows.
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\n1\n\n2\n")?;
    /// assert_eq!(p.sections[0].row_count(), 2);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    #[must_use]
    pub fn row_count(&self) -> usize {
        self.cells.len().checked_div(self.width()).unwrap_or(0)
    }

    /// Row `i`'s cells.
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\nx\n")?;
    /// assert_eq!(p.sections[0].row(0).unwrap()[0], &b"x"[..]);
    /// assert!(p.sections[0].row(1).is_none());
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    #[must_use]
    pub fn row(&self, i: usize) -> Option<&[Cow<'a, [u8]>]> {
        let w = self.width();
        let start = i.checked_mul(w)?;
        if w == 0 {
            return None;
        }
        self.cells.get(start..start.checked_add(w)?)
    }

    /// The rows in order.
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\nx\ny\n")?;
    /// assert_eq!(p.sections[0].rows().count(), 2);
    /// # Ok::<(), gcx_wire::DecodeError>(())
    /// ```
    pub fn rows(&self) -> core::slice::ChunksExact<'_, Cow<'a, [u8]>> {
        // A section without fields has no rows (any row line is an error),
        // so the width-1 chunks of its empty cell list are none.
        self.cells.chunks_exact(self.width().max(1))
    }
}
