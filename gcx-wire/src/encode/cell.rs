//! Cell values and their text (§7.1 `stringify`).

use alloc::borrow::Cow;
use alloc::string::String;

use super::float::{go_g32, go_g64};

/// A value to write in a cell, as the Go encoder renders it.
///
/// ```
/// use gcx_wire::encode::Cell;
///
/// assert_eq!(Cell::from(true).text(), &b"true"[..]);
/// assert_eq!(Cell::from(-42i64).text(), &b"-42"[..]);
/// assert_eq!(Cell::from(1e21f64).text(), &b"1e+21"[..]);
/// assert_eq!(Cell::Null.text(), &b""[..]);
/// assert_eq!(Cell::from("a\tb").text(), &b"a\tb"[..]); // escaped when written
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// Go `nil`: an empty cell.
    Null,
    /// Text or raw bytes, written as they are (then escaped).
    Bytes(&'a [u8]),
    /// `true` / `false`.
    Bool(bool),
    /// A signed integer in decimal.
    Int(i64),
    /// An unsigned integer in decimal.
    Uint(u64),
    /// A `float64`, Go `'g'` shortest text.
    F64(f64),
    /// A `float32`, Go `'g'` shortest text at 32 bits.
    F32(f32),
}

impl Cell<'_> {
    /// The cell's text before escaping.
    ///
    /// ```
    /// use gcx_wire::encode::Cell;
    /// assert_eq!(Cell::from(0.1f32).text(), &b"0.1"[..]);
    /// assert_eq!(Cell::from(u64::MAX).text(), &b"18446744073709551615"[..]);
    /// ```
    #[must_use]
    pub fn text(&self) -> Cow<'_, [u8]> {
        match *self {
            Cell::Null => Cow::Borrowed(&[]),
            Cell::Bytes(b) => Cow::Borrowed(b),
            Cell::Bool(true) => Cow::Borrowed(b"true"),
            Cell::Bool(false) => Cow::Borrowed(b"false"),
            Cell::Int(i) => Cow::Owned(alloc::format!("{i}").into_bytes()),
            Cell::Uint(u) => Cow::Owned(alloc::format!("{u}").into_bytes()),
            Cell::F64(x) => {
                let mut s = String::new();
                go_g64(x, &mut s);
                Cow::Owned(s.into_bytes())
            }
            Cell::F32(x) => {
                let mut s = String::new();
                go_g32(x, &mut s);
                Cow::Owned(s.into_bytes())
            }
        }
    }
}

impl<'a> From<&'a str> for Cell<'a> {
    fn from(s: &'a str) -> Self {
        Cell::Bytes(s.as_bytes())
    }
}

impl<'a> From<&'a [u8]> for Cell<'a> {
    fn from(b: &'a [u8]) -> Self {
        Cell::Bytes(b)
    }
}

impl<'a> From<&'a String> for Cell<'a> {
    fn from(s: &'a String) -> Self {
        Cell::Bytes(s.as_bytes())
    }
}

impl From<bool> for Cell<'_> {
    fn from(b: bool) -> Self {
        Cell::Bool(b)
    }
}

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Cell<'_> {
            fn from(i: $t) -> Self {
                Cell::Int(i64::from(i))
            }
        }
    )*};
}
signed!(i8, i16, i32, i64);

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Cell<'_> {
            fn from(u: $t) -> Self {
                Cell::Uint(u64::from(u))
            }
        }
    )*};
}
unsigned!(u8, u16, u32, u64);

impl From<f64> for Cell<'_> {
    fn from(x: f64) -> Self {
        Cell::F64(x)
    }
}

impl From<f32> for Cell<'_> {
    fn from(x: f32) -> Self {
        Cell::F32(x)
    }
}

impl<'a, T> From<Option<T>> for Cell<'a>
where
    T: Into<Cell<'a>>,
{
    fn from(v: Option<T>) -> Self {
        v.map_or(Cell::Null, Into::into)
    }
}
