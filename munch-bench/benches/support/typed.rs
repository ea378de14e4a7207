//! The bench response as a caller would declare it, for the typed
//! decodes (`decode_into`, `decode_borrowed_into`) and `serde_json`'s
//! parse into the same types.
#![allow(dead_code)]

use serde::Deserialize;
use std::borrow::Cow;

/// The response as a caller would declare it (owned strings).
#[derive(Deserialize)]
pub(crate) struct Response {
    result_count: u64,
    query: String,
    repo: String,
    results: Vec<Row>,
}

#[derive(Deserialize)]
pub(crate) struct Row {
    id: String,
    name: String,
    kind: String,
    file: String,
    line: u64,
    score: f64,
    signature: String,
    summary: String,
}

/// The same, its strings borrowed from the payload where they can be.
#[derive(Deserialize)]
pub(crate) struct BorrowedResponse<'a> {
    result_count: u64,
    #[serde(borrow)]
    query: Cow<'a, str>,
    #[serde(borrow)]
    results: Vec<BorrowedRow<'a>>,
}

#[derive(Deserialize)]
pub(crate) struct BorrowedRow<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    file: Cow<'a, str>,
    line: u64,
    score: f64,
    #[serde(borrow)]
    summary: Cow<'a, str>,
}
