//! The three committed maps and their pins (spec §2.1, §2.3), shared by the
//! tests that load or hash them.

pub(crate) const MAPS: [(&str, &str); 3] = [
    (
        "qwen2.62c2f94fcbdb.json",
        "62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad",
    ),
    (
        "qwen2.887311099cdc.json",
        "887311099cdc09e7022001a01fa1da396750d669b7ed2c242a000b9badd09791",
    ),
    (
        "r50k_base.json",
        "bbbb06e4f44c0317b3282ec98fb07991694ba3d4e82b88d7e77fb44b9209ff32",
    ),
];
