//! The repair of what a watch stream received so far, the stream going
//! on: what an LLM stream reports of a call's arguments after each
//! fragment (spec §13).

use super::Watch;
use crate::error::{Error, ErrorCode};
use crate::report::Repaired;

impl Watch {
    /// What [`repair_unchecked`](crate::repair_unchecked) gives for the
    /// input so far (the profile's refusals are not applied), the stream
    /// going on: the stream's engine copied and run to the end of what
    /// arrived, as [`Watch::finish`] runs it. It costs a copy of the
    /// engine's state and the assembly of the result, not a run over the
    /// input again — what an LLM stream reports of a call's arguments
    /// after each fragment (spec §13), and a best-effort current value to
    /// show while a reply streams.
    ///
    /// ```
    /// use jsonmend_engine::{Completeness, Options, Watch};
    /// let mut w = Watch::new(Options::default());
    /// w.feed("{\"city\": \"Par").unwrap();
    /// let now = w.repaired_so_far().unwrap();
    /// assert_eq!(now.text, "{\"city\": \"Par\"}");
    /// assert_eq!(now.completeness, Completeness::Partial);
    /// // The stream goes on.
    /// w.feed("is\"}").unwrap();
    /// assert_eq!(w.finish().unwrap().result.text, "{\"city\": \"Paris\"}");
    /// ```
    pub fn repaired_so_far(&self) -> Result<Repaired<'static>, Error> {
        let source = if self.source.is_final() {
            alloc::borrow::Cow::Borrowed(&self.source)
        } else {
            let mut s = self.source.clone();
            s.finish();
            alloc::borrow::Cow::Owned(s)
        };
        let input = source.input();
        let src = source.engine_src().unwrap_or(input);
        let engine = match (&self.failed, &self.engine) {
            (Some(e), _) => Err(e.clone()),
            (None, Some(e)) => Ok(e.clone().rebind(src)),
            (None, None) => Err(Error::new(ErrorCode::E090, "watch engine lost")),
        };
        let engine = engine.and_then(|mut e| {
            e.src_str = source.engine_text();
            e.partial = false;
            e.utf8_runs = source.utf8_known();
            e.run()?;
            Ok(e)
        });
        let (shift, escaped) = (source.shift(), source.escaped());
        let repaired = match engine {
            // Cut off inside a value (an LLM's arguments while they
            // arrive): no strict check of the whole input first.
            Ok(e) if e.truncated => {
                crate::finish::finish_truncated(input, e, shift, escaped, &self.opts)
            }
            engine => crate::finish::finish_stream(input, engine, shift, escaped, &self.opts),
        };
        repaired.map(Repaired::into_owned)
    }
}

#[cfg(test)]
mod tests {
    use crate::finish::repair_bytes_unchecked;
    use crate::{Options, Watch};

    /// Every input of the adam2go corpus and of the conformance cases.
    fn inputs() -> Vec<String> {
        let mut texts = Vec::new();
        for (lines, pointer) in [
            (
                include_str!("../../tests/vectors/adam2go-corpus.jsonl"),
                "/input",
            ),
            (
                include_str!("../../tests/conformance/cases.jsonl"),
                "/params/text",
            ),
        ] {
            for line in lines.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
                if let Some(text) = v.pointer(pointer).and_then(serde_json::Value::as_str) {
                    texts.push(text.to_string());
                }
            }
        }
        texts
    }

    /// After each feed, in chunks of 1, 7 and 64 bytes (cutting
    /// characters too), the repair so far is one-shot repair of the bytes
    /// fed: text, repairs, completeness, readiness inputs and all.
    #[test]
    fn the_repair_so_far_is_repair_of_the_input_so_far() {
        let mut failures = Vec::new();
        let mut checked = 0usize;
        for input in inputs() {
            let bytes = input.as_bytes();
            for size in [1usize, 7, 64] {
                // Every prefix of the shorter inputs, about 200 of the longer.
                if size == 1 && bytes.len() > 2048 {
                    continue;
                }
                let every = (bytes.len() / (200 * size)).max(1);
                let mut w = Watch::new(Options::default());
                for (k, chunk) in bytes.chunks(size).enumerate() {
                    let _ = w.feed_bytes(chunk);
                    let end = ((k + 1) * size).min(bytes.len());
                    if k % every != 0 && end != bytes.len() {
                        continue;
                    }
                    let prefix = bytes.get(..end).unwrap_or_default();
                    let expected =
                        format!("{:?}", repair_bytes_unchecked(prefix, &Options::default()));
                    let got = format!("{:?}", w.repaired_so_far());
                    checked += 1;
                    if got != expected && failures.len() < 5 {
                        failures.push(format!(
                            "{:?} in {size}-byte feeds, {end} bytes:\n got {got}\nwant {expected}",
                            String::from_utf8_lossy(prefix)
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(checked > 10_000, "{checked} prefixes");
    }
}
