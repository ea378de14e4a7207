//! The committed maps hash to the pins the spec gives them (§2.1, §2.3).
#![allow(clippy::unwrap_used, reason = "test")]

mod support {
    pub(crate) mod maps;
}

use leaf_meta::MapId;

#[test]
fn committed_maps_match_their_pins() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/maps");
    for (file, pin) in support::maps::MAPS {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        assert_eq!(
            MapId::of_bytes(&bytes),
            MapId::parse(pin).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn pin_parsing_follows_the_spec() {
    let lower = "62c2f94fcbdb9b49d51632314e64aa65894496bc39751cb90866049657a262ad";
    let canonical = format!("sha256:{lower}");
    for given in [
        canonical.clone(),
        lower.to_string(),
        lower.to_uppercase(),
        format!("SHA256:{}", lower.to_uppercase()),
        format!("Sha256:{lower}"),
    ] {
        assert_eq!(MapId::parse(&given).unwrap().as_str(), canonical, "{given}");
    }
    for bad in [
        "",
        "sha256:",
        "sha1:abc",
        "sha256:xyz",
        "not-a-hash",
        &lower[1..],
        &format!("{lower}0"),
        &format!("sha512:{lower}"),
    ] {
        assert!(MapId::parse(bad).is_err(), "{bad}");
    }
}
