//! The adversarial families of spec §18 (plus many tag names and nested
//! single-element tuples): inputs that defeat naive repair loops. Each is
//! built at about `n` bytes.

/// The family names.
pub(crate) const FAMILIES: &[&str] = &[
    "quote-storm",
    "unclosed-frags",
    "newline-members",
    "trailing-commas",
    "deep",
    "closer-runs",
    "long-bare",
    "dense-comments",
    "key-in-string",
    "tags",
    "tuples",
];

/// One family at about `n` bytes.
pub(crate) fn family(name: &str, n: usize) -> String {
    let mut s = String::new();
    let fill = |s: &mut String, piece: &str| {
        while s.len() < n {
            s.push_str(piece);
        }
    };
    match name {
        "quote-storm" => {
            s.push_str("{\"a\": \"");
            fill(&mut s, "x \" y ");
            s.push_str("\"}");
        }
        "unclosed-frags" => {
            s.push_str("{\"a\": \"start");
            fill(&mut s, ", frag \"q\"");
        }
        "newline-members" => {
            s.push('{');
            let mut i = 0;
            while s.len() < n {
                s.push_str(&format!("\"k{i}\": {i}\n"));
                i += 1;
            }
            s.push('}');
        }
        "trailing-commas" => {
            s.push('[');
            fill(&mut s, "[1,],{\"a\":1,},");
            s.push(']');
        }
        "deep" => {
            s.push_str(&"[".repeat(1000));
            fill(&mut s, "1,");
            s.push('1');
        }
        "closer-runs" => {
            s.push('[');
            fill(&mut s, "1]]]]]]]]]],");
        }
        "long-bare" => {
            s.push_str("{\"a\": ");
            fill(&mut s, "word ");
            s.push('}');
        }
        "dense-comments" => {
            s.push('[');
            fill(&mut s, "1,/*c*/ // x\n");
            s.push(']');
        }
        "key-in-string" => {
            s.push_str("{\"a\": \"");
            fill(&mut s, ",\"k\":");
            s.push_str("\"}");
        }
        "tags" => {
            let mut i = 0;
            while s.len() < n {
                s.push_str(&format!("<t{i}> "));
                i += 1;
            }
            s.push_str("{\"a\":1}");
        }
        _ => {
            s.push_str(&"(".repeat(1000));
            s.push('"');
            fill(&mut s, "abcdefgh");
            s.push('"');
            s.push_str(&")".repeat(1000));
        }
    }
    s
}
