//! The least any delta reader that parses the repaired text does: one
//! pass over strict JSON writing an `add` per value, an `append` per
//! non-empty string and a `close` per string and container, each with its
//! JSON Pointer, into one buffer as the stream's `Deltas` keeps them (a
//! path and a text per delta). No `at`, no repairs, no events, no
//! escapes decoded: a bound from below for `watch/reader.rs`, not a
//! reader.

/// One delta: its op and the spans of its path and text in the buffer.
struct Item {
    op: u8,
    path: (usize, usize),
    text: (usize, usize),
}

/// Deltas as a feed keeps them: paths and texts side by side.
#[derive(Default)]
pub(crate) struct Sink {
    buf: String,
    items: Vec<Item>,
}

impl Sink {
    fn put(&mut self, s: &str) -> (usize, usize) {
        let start = self.buf.len();
        self.buf.push_str(s);
        (start, self.buf.len())
    }

    fn push(&mut self, op: u8, path: &str, text: &str) {
        let path = self.put(path);
        let text = self.put(text);
        self.items.push(Item { op, path, text });
    }

    /// How many deltas of each op: `add`, `append`, `close`.
    pub(crate) fn counts(&self) -> [usize; 3] {
        let mut n = [0; 3];
        for it in &self.items {
            if let Some(c) = n.get_mut(usize::from(it.op)) {
                *c += 1;
            }
        }
        n
    }

    /// Bytes of paths and texts kept.
    pub(crate) fn bytes(&self) -> usize {
        self.items
            .iter()
            .map(|it| it.path.1 - it.path.0 + it.text.1 - it.text.0)
            .sum()
    }
}

const ADD: u8 = 0;
const APPEND: u8 = 1;
const CLOSE: u8 = 2;

/// An open container: whether it is an object, its path's length, its
/// items so far.
struct Frame {
    object: bool,
    len: usize,
    items: usize,
}

/// Reads the deltas of `text` (strict JSON, as one-shot repair writes it)
/// into `sink`, a new sink per `feed` bytes of text as a stream's feeds
/// get; the number of deltas.
pub(crate) fn read(text: &str, feed: usize, sink: &mut Sink) -> usize {
    let b = text.as_bytes();
    let mut total = 0;
    let mut frames: Vec<Frame> = Vec::new();
    let mut path = String::new();
    let mut key = (0, 0);
    let mut expect_key = false;
    let mut next_feed = feed;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if i >= next_feed {
            total += sink.items.len();
            sink.items.clear();
            sink.buf.clear();
            next_feed += feed;
        }
        match c {
            b',' => {
                expect_key = frames.last().is_some_and(|f| f.object);
                i += 1;
            }
            b'{' | b'[' => {
                value_path(&mut frames, &mut path, text, key);
                sink.push(ADD, &path, if c == b'{' { "{}" } else { "[]" });
                frames.push(Frame {
                    object: c == b'{',
                    len: path.len(),
                    items: 0,
                });
                expect_key = c == b'{';
                i += 1;
            }
            b'}' | b']' => {
                if let Some(f) = frames.pop() {
                    path.truncate(f.len);
                }
                sink.push(CLOSE, &path, "");
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let mut end = start;
                while let Some(k) = b
                    .get(end..)
                    .and_then(|r| r.iter().position(|&x| x == b'"' || x == b'\\'))
                {
                    end += k;
                    if b.get(end) == Some(&b'"') {
                        break;
                    }
                    end += 2;
                }
                let end = end.min(b.len());
                i = end + 1;
                if expect_key {
                    key = (start, end);
                    expect_key = false;
                    continue;
                }
                value_path(&mut frames, &mut path, text, key);
                sink.push(ADD, &path, "\"\"");
                if end > start {
                    sink.push(APPEND, &path, text.get(start - 1..=end).unwrap_or(""));
                }
                sink.push(CLOSE, &path, "");
            }
            b' ' | b'\n' | b'\t' | b'\r' | b':' => i += 1,
            _ => {
                let start = i;
                i += b
                    .get(i..)
                    .and_then(|r| {
                        r.iter().position(|&x| {
                            matches!(x, b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r')
                        })
                    })
                    .unwrap_or(b.len() - i)
                    .max(1);
                value_path(&mut frames, &mut path, text, key);
                sink.push(ADD, &path, text.get(start..i).unwrap_or(""));
            }
        }
    }
    total + sink.items.len()
}

/// Sets `path` to the path of the value beginning in the innermost open
/// container (the member of `key`, or the next item), and counts it.
fn value_path(frames: &mut [Frame], path: &mut String, text: &str, key: (usize, usize)) {
    let Some(f) = frames.last_mut() else {
        path.clear();
        return;
    };
    path.truncate(f.len);
    path.push('/');
    if f.object {
        path.push_str(text.get(key.0..key.1).unwrap_or(""));
    } else {
        push_int(path, f.items);
    }
    f.items += 1;
}

/// Appends `n` in decimal.
fn push_int(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[k..] {
        out.push(char::from(d));
    }
}
