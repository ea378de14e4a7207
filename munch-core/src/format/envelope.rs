//! The envelope (spec §2): header line, blocks split on `\n\n` with the
//! quote-balanced rejoin, and the header's `key=value` parts.

use alloc::vec::Vec;

use crate::unicode::{first_line, is_space};

/// The prefix that marks a MUNCH payload.
pub(crate) const HEADER_PREFIX: &str = "#MUNCH/";

/// The `enc=` value of a payload's header (the later key wins); `None`
/// when the header has none. The header is the first line up to a B
/// break.
pub(crate) fn header_enc(payload: &str) -> Option<&str> {
    let line = first_line(payload);
    let (_, rest) = line.split_once(' ')?;
    let mut enc = None;
    for part in rest.split(is_space).filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        if k == "enc" {
            enc = Some(v);
        }
    }
    enc
}

/// The blocks after the header line (cut at the first `\n`): split on
/// `\n\n`, re-joined while a block holds an odd number of `"`, all-W
/// blocks dropped, `\n` stripped from both ends.
pub(crate) fn blocks(payload: &str) -> Vec<&str> {
    let rest = payload.split_once('\n').map_or("", |(_, r)| r);
    let bytes = rest.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut quotes = 0usize;
    let mut pos = 0;
    // Walk separators; a block ends at a `\n\n` only when its quote
    // count (since `start`) is even.
    while let Some(sep) = memchr::memmem::find(bytes.get(pos..).unwrap_or_default(), b"\n\n") {
        let end = pos + sep;
        quotes += memchr::memchr_iter(b'"', bytes.get(pos..end).unwrap_or_default()).count();
        if quotes % 2 == 0 {
            keep(rest.get(start..end).unwrap_or_default(), &mut out);
            start = end + 2;
            quotes = 0;
        }
        pos = end + 2;
    }
    keep(rest.get(start..).unwrap_or_default(), &mut out);
    out
}

/// Keeps a block unless it is all W, with `\n` stripped from both ends.
fn keep<'a>(block: &'a str, out: &mut Vec<&'a str>) {
    if !block.chars().all(is_space) {
        out.push(block.trim_matches('\n'));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_rejoins() {
        let p = "#MUNCH/1 tool=x enc=fr2\n\n@1=a\n\nk=v\n\nr,\"x\n\ny\"\n\n \n\nr,b\n";
        assert_eq!(blocks(p), ["@1=a", "k=v", "r,\"x\n\ny\"", "r,b"]);
        assert_eq!(header_enc(p), Some("fr2"));
        assert_eq!(header_enc("#MUNCH/1 enc=a  enc=b\u{2028}enc=c"), Some("b"));
        assert_eq!(header_enc("#MUNCH/1"), None);
        // An unbalanced quote runs to the end as one block.
        assert_eq!(blocks("#MUNCH/1\n\na=\"x\n\nb"), ["a=\"x\n\nb"]);
        assert!(blocks("#MUNCH/1").is_empty());
    }
}
