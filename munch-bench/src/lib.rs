//! The criterion benches of munch-core (`cargo bench -p munch-bench`, or
//! `cargo xtask bench munch`, which adds the Python reference on the same
//! document). They live in a package of their own so that they measure
//! munch-core in its default configuration: munch-core's tests and example
//! CLI turn on `serde_json/arbitrary_precision` (spec D5), and a
//! dev-dependency's features reach every target of its package.
#![no_std]
