//! Wrapping a real `rmcp` `CallToolResult`: serialize it, annotate every text
//! block with its qwen2 ids, send it as JSON, read it back into `rmcp`'s type
//! and take the ids out again.
//!
//! ```sh
//! cargo run -p leaf-meta --example rmcp_tool
//! ```
//! (`cargo test -p leaf-meta` runs the same round trip as a test.)
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use leaf_meta::{LeafMap, MapId, ReadOptions};
use rmcp::model::{CallToolResult, ContentBlock};

const MAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/maps/qwen2.62c2f94fcbdb.json"
);
const PIN: &str = "sha256:62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad";

/// Returns the ids read back from the wire, one entry per text block.
fn round_trip() -> Result<Vec<Option<Vec<u32>>>, Box<dyn std::error::Error>> {
    let pin = MapId::parse(PIN)?;
    let map = LeafMap::from_file(MAP, &pin)?;

    // A tool builds its result with rmcp as usual…
    let result = CallToolResult::success(vec![
        ContentBlock::text("It is currently 14:30 UTC."),
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::text(""),
    ]);
    // …and wraps it before sending (rmcp's own type, through serde).
    let wrapped: CallToolResult = leaf_meta::wrap_typed(&result, &map, &Default::default())?;
    let wire = serde_json::to_string(&wrapped)?;

    // The receiver parses rmcp's type (the payload rides in `_meta`), sends
    // it on, and a Codec-aware reader takes the ids, checking the pin.
    let received: CallToolResult = serde_json::from_str(&wire)?;
    let options = ReadOptions {
        expected: Some(pin),
        ..Default::default()
    };
    Ok(leaf_meta::take_ids_typed(&received, &options)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ids = round_trip()?;
    println!("{}", serde_json::json!(ids));
    Ok(())
}

#[test]
fn rmcp_result_survives_the_json_round_trip() {
    let ids = round_trip().expect("round trip");
    assert_eq!(
        ids,
        [
            Some(vec![2132, 374, 5023, 220, 16, 19, 25, 18, 15, 27403, 13]),
            Some(vec![])
        ]
    );
}
