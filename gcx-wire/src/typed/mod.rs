//! Typed rows (feature `serde`): rows into `Deserialize` types by field
//! name, and `Serialize` records written as rows.
//!
//! Reading is by name, like `csv::StringRecord::deserialize`: extra
//! columns are ignored, missing ones are `None` (or `#[serde(default)]`),
//! order does not matter, and of repeated names the last wins. An empty
//! cell is `None` for an `Option`, `""` for a string and an error for a
//! number or bool. Numbers read decimal and Go `'g'` text (`1e+06`, `NaN`,
//! `+Inf`); sequences, maps and nested structs read the cell as JSON.
//!
//! ```
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Hit<'a> {
//!     id: &'a str,
//!     line: u32,
//!     sig: Option<String>,
//! }
//!
//! let payload = gcx_wire::from_slice(b"GCX1 tool=s fields=line,id,extra\n3\ta.go::F\tx\n")?;
//! let hits: Vec<Hit<'_>> = payload.sections[0].rows_as().collect::<Result<_, _>>()?;
//! assert_eq!(hits, [Hit { id: "a.go::F", line: 3, sig: None }]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod de;
mod error;
mod json_ser;
mod ser;

pub(crate) use ser::PendingHeader;

use alloc::borrow::Cow;

pub use error::TypedError;

use crate::payload::Section;

/// Deserializes one row given its field names and cells (the same length;
/// extra cells or names are ignored).
///
/// # Errors
/// [`TypedError`] naming the field whose cell did not parse.
///
/// ```
/// use std::borrow::Cow;
/// let fields = [Cow::Borrowed(&b"n"[..])];
/// let cells = [Cow::Borrowed(&b"1e+06"[..])];
/// let (n,): (f64,) = gcx_wire::typed::from_row(&fields, &cells)?;
/// assert_eq!(n, 1e6);
/// # Ok::<(), gcx_wire::typed::TypedError>(())
/// ```
pub fn from_row<'de, T: serde::Deserialize<'de>>(
    fields: &[Cow<'de, [u8]>],
    cells: &[Cow<'de, [u8]>],
) -> Result<T, TypedError> {
    T::deserialize(de::RowDeserializer { fields, cells })
}

impl<'a> Section<'a> {
    /// Row `i` as a `T` (see the [module docs](crate::typed)).
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a\n7\n")?;
    /// let row: std::collections::BTreeMap<String, u8> = p.sections[0].row_as(0).unwrap()?;
    /// assert_eq!(row["a"], 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn row_as<T: serde::Deserialize<'a>>(&self, i: usize) -> Option<Result<T, TypedError>> {
        self.row(i)
            .map(|cells| from_row(&self.header.fields, cells))
    }

    /// Every row as a `T`.
    ///
    /// ```
    /// let p = gcx_wire::from_slice(b"GCX1 tool=t fields=a,b\n1\t2\n3\t4\n")?;
    /// let pairs: Vec<(u8, u8)> = p.sections[0].rows_as().collect::<Result<_, _>>()?;
    /// assert_eq!(pairs, [(1, 2), (3, 4)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rows_as<'s, T: serde::Deserialize<'a> + 's>(
        &'s self,
    ) -> impl Iterator<Item = Result<T, TypedError>> + 's {
        self.rows()
            .map(move |cells| from_row(&self.header.fields, cells))
    }
}
