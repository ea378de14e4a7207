//! tm2's transform: optional plate fields removed when null.

use alloc::string::String;
use serde_json::{Map, Value};

/// Drops `drifter_count` and `nexus_alert` from plates where they are null.
pub(crate) fn decode(result: &mut Map<String, Value>) {
    let Some(Value::Array(plates)) = result.get_mut("plates") else {
        return;
    };
    for plate in plates {
        if let Value::Object(p) = plate {
            for key in ["drifter_count", "nexus_alert"] {
                if p.get(key).is_some_and(Value::is_null) {
                    p.shift_remove(key);
                }
            }
        }
    }
}
