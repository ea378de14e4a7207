//! About 1 MB of mixed text from fixed seeds: ~50% English prose, 24%
//! Python, 11% JSON, 15% CJK/Hangul with emoji and digits.
#![allow(dead_code, unreachable_pub, clippy::indexing_slicing)]

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() % items.len()]
    }
}

pub fn corpus() -> String {
    let words = [
        "the",
        "tool",
        "returns",
        "a",
        "result",
        "with",
        "several",
        "blocks",
        "of",
        "text",
        "and",
        "server",
        "client",
        "request",
        "session",
        "configuration",
        "however",
        "because",
        "important",
        "question",
        "developer's",
        "isn't",
        "they're",
        "reasonable",
        "performance",
        "measured",
        "throughput",
        "Tokenization",
        "model",
        "context",
    ];
    let python = [
        "def handle_request(self, payload: dict) -> Response:\n",
        "    if not payload.get(\"id\"):\n        raise ValueError(f\"missing id in {payload!r}\")\n",
        "    for index, item in enumerate(self.items[:limit]):\n        total += item.weight * 0.75\n",
        "class ToolServer(BaseServer):\n    \"\"\"Serves MCP tools over stdio.\"\"\"\n",
        "    return {\"ok\": True, \"count\": len(results), \"elapsed_ms\": round(t1 - t0, 3)}\n",
    ];
    let json = [
        "{\"id\":\"a.go::F\",\"kind\":\"function\",\"line\":42,\"score\":0.93}",
        "{\"path\":\"src/main.rs\",\"matches\":[{\"line\":7,\"text\":\"fn main() {\"}]}",
        "[1, 2, 3, {\"nested\": {\"deep\": [true, false, null]}}]",
    ];
    let cjk = [
        "日本語のテキストと数字 2024年11月29日 ",
        "한국어 문장입니다 😀🎉 ",
        "中文内容测试，价格 ¥1234.56 ",
        "🇯🇵 👩‍💻 東京都 ",
    ];
    let mut rng = Rng(0x00C0_FFEE);
    let mut out = String::with_capacity(1 << 20);
    while out.len() < 1 << 20 {
        match rng.next() % 100 {
            0..=49 => {
                for _ in 0..12 {
                    out.push_str(rng.pick(&words));
                    out.push(' ');
                }
                out.push_str(". ");
            }
            50..=73 => out.push_str(rng.pick(&python)),
            74..=84 => out.push_str(rng.pick(&json)),
            _ => out.push_str(rng.pick(&cjk)),
        }
    }
    out
}
