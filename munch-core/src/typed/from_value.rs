//! A decoded `serde_json::Value` into any type, through the borrowed
//! tree's `Deserializer` (which turns the `{"$float": …}` sentinel back
//! into an `f64`).

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::TypedError;
use crate::borrowed::{BorrowedValue, from_borrowed};

/// Converts a decoded value into `T`.
///
/// # Errors
/// The value does not fit `T`.
///
/// ```
/// let x: Vec<f64> = munch_core::from_value(serde_json::json!([1.0, {"$float": "-inf"}]))?;
/// assert_eq!(x, [1.0, f64::NEG_INFINITY]);
/// # Ok::<(), munch_core::TypedError>(())
/// ```
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, TypedError> {
    from_borrowed(BorrowedValue::from(v))
}
