//! RFC 4180 quoted fields: doubled quotes, embedded line breaks; read and
//! write.
//!
//! A [`Reader`] yields one [`Field`] at a time, telling whether a
//! delimiter, a line end or the end of the input followed it, so it works
//! for one record or a whole document. Fields borrow from the input; only
//! a quoted field with a doubled quote (or, in lenient mode, text after its
//! closing quote) needs an owned copy.
//!
//! ```
//! use wire_lex::csv::{Dialect, FieldEnd, Reader};
//!
//! let input = b"id,text\n1,\"say \"\"hi\"\"\r\nbye\"\n";
//! let mut values = Vec::new();
//! for field in Reader::new(input, Dialect::RFC4180) {
//!     let field = field?;
//!     values.push((field.value()?.into_owned(), field.end));
//! }
//! assert_eq!(values[3], ("say \"hi\"\r\nbye".to_string(), FieldEnd::Record));
//! # Ok::<(), wire_lex::Error>(())
//! ```
//!
//! Line ends are LF or CR LF; a CR elsewhere in an unquoted field is data.

mod dialect;
mod field;
mod reader;
mod write;

pub use dialect::{Dialect, QuoteStyle, Strictness, Terminator};
pub use field::{Field, FieldEnd};
pub use reader::Reader;
pub use write::{needs_quotes, write_field, write_record};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use alloc::{string::String, vec::Vec};

    fn read(input: &[u8], dialect: Dialect) -> Vec<Result<(String, FieldEnd), Error>> {
        Reader::new(input, dialect)
            .map(|f| f.map(|f| (f.value().unwrap().into_owned(), f.end)))
            .collect()
    }

    fn ok(v: &str, end: FieldEnd) -> Result<(String, FieldEnd), Error> {
        Ok((v.to_string(), end))
    }

    #[test]
    fn records_and_empty_fields() {
        use FieldEnd::*;
        let d = Dialect::RFC4180;
        assert_eq!(read(b"", d), []);
        assert_eq!(read(b"\n", d), [ok("", Record)]);
        assert_eq!(read(b",", d), [ok("", Delimiter), ok("", Eof)]);
        assert_eq!(read(b"a\r\nb\r", d), [ok("a", Record), ok("b", Eof)]);
        assert_eq!(read(b"a\rb", d), [ok("a\rb", Eof)]);
        assert_eq!(read(b"\"\"\n", d), [ok("", Record)]);
        assert_eq!(read(b"\"a\"\r\n\"b\"", d), [ok("a", Record), ok("b", Eof)]);
    }

    #[test]
    fn strict_errors_carry_offsets() {
        let d = Dialect::RFC4180;
        assert_eq!(
            read(b"x,\"ab", d),
            [
                ok("x", FieldEnd::Delimiter),
                Err(Error::UnterminatedQuote { offset: 2 })
            ]
        );
        assert_eq!(
            read(b"ab\"c", d),
            [Err(Error::QuoteInUnquotedField { offset: 2 })]
        );
        assert_eq!(
            read(b"\"a\"\rb", d),
            [Err(Error::TextAfterClosingQuote { offset: 3 })]
        );
    }

    #[test]
    fn lenient_follows_python_csv() {
        use FieldEnd::*;
        let d = Dialect::RFC4180.strictness(Strictness::Lenient);
        assert_eq!(read(b"ab\"c,d", d), [ok("ab\"c", Delimiter), ok("d", Eof)]);
        assert_eq!(read(b"\"a\"b\"c\n", d), [ok("ab\"c", Record)]);
        assert_eq!(read(b"\"open,\n", d), [ok("open,\n", Eof)]);
        assert_eq!(read(b"\"a\"\"", d), [ok("a\"", Eof)]);
    }

    #[test]
    fn writer_round_trips_awkward_fields() {
        let d = Dialect::RFC4180;
        let cells: [&[u8]; 7] = [b"", b"\"", b"a,b", b"\r", b"x\r\n", b" sp ", b"\"\""];
        let mut out = Vec::new();
        write_record(cells, &d, &mut out).unwrap();
        let back: Vec<Vec<u8>> = Reader::new(&out, d)
            .map(|f| f.unwrap().value_bytes().into_owned())
            .collect();
        assert_eq!(back, cells.map(<[u8]>::to_vec));
    }
}
