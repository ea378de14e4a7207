//! Where writers put their bytes: a growable `Vec<u8>` or a caller's buffer.

use crate::Error;

/// A destination for written bytes.
///
/// Implemented for `Vec<u8>` (with the `alloc` feature; never full) and for
/// [`SliceSink`], a caller-supplied fixed buffer that reports
/// [`Error::BufferFull`] instead of growing.
///
/// ```
/// use wire_lex::{ByteSink, SliceSink};
///
/// let mut buf = [0u8; 4];
/// let mut sink = SliceSink::new(&mut buf);
/// sink.put(b"abc")?;
/// assert!(sink.put(b"de").is_err());
/// assert_eq!(sink.written(), b"abc");
/// # Ok::<(), wire_lex::Error>(())
/// ```
pub trait ByteSink {
    /// Appends `bytes`, all or nothing.
    ///
    /// # Errors
    /// [`Error::BufferFull`] if they do not fit.
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error>;

    /// Appends one byte.
    ///
    /// # Errors
    /// [`Error::BufferFull`] if it does not fit.
    fn put_byte(&mut self, byte: u8) -> Result<(), Error> {
        self.put(&[byte])
    }
}

#[cfg(feature = "alloc")]
impl ByteSink for alloc::vec::Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn put_byte(&mut self, byte: u8) -> Result<(), Error> {
        self.push(byte);
        Ok(())
    }
}

impl<S: ByteSink + ?Sized> ByteSink for &mut S {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error> {
        (**self).put(bytes)
    }

    fn put_byte(&mut self, byte: u8) -> Result<(), Error> {
        (**self).put_byte(byte)
    }
}

/// A [`ByteSink`] over a caller's fixed buffer: the no-allocation way to
/// write or unescape.
///
/// ```
/// use wire_lex::{ByteSink, SliceSink};
///
/// let mut buf = [0u8; 8];
/// let mut sink = SliceSink::new(&mut buf);
/// sink.put_byte(b'x')?;
/// assert_eq!(sink.len(), 1);
/// # Ok::<(), wire_lex::Error>(())
/// ```
#[derive(Debug)]
pub struct SliceSink<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl<'b> SliceSink<'b> {
    /// An empty sink writing into `buf`.
    ///
    /// ```
    /// let mut buf = [0u8; 2];
    /// assert!(wire_lex::SliceSink::new(&mut buf).is_empty());
    /// ```
    #[must_use]
    pub fn new(buf: &'b mut [u8]) -> Self {
        SliceSink { buf, len: 0 }
    }

    /// The bytes written so far.
    ///
    /// ```
    /// use wire_lex::ByteSink;
    /// let mut buf = [0u8; 2];
    /// let mut sink = wire_lex::SliceSink::new(&mut buf);
    /// sink.put(b"hi").unwrap();
    /// assert_eq!(sink.written(), b"hi");
    /// ```
    #[must_use]
    pub fn written(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    /// How many bytes were written.
    ///
    /// ```
    /// let mut buf = [0u8; 2];
    /// assert_eq!(wire_lex::SliceSink::new(&mut buf).len(), 0);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was written.
    ///
    /// ```
    /// let mut buf = [0u8; 0];
    /// assert!(wire_lex::SliceSink::new(&mut buf).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl ByteSink for SliceSink<'_> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let capacity = self.buf.len();
        let end = self.len.checked_add(bytes.len());
        match end.and_then(|end| self.buf.get_mut(self.len..end)) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.len += bytes.len();
                Ok(())
            }
            None => Err(Error::BufferFull { capacity }),
        }
    }
}
