//! Python's text forms of values, as the reference writes and reads them:
//! `int()`, `float()`, `repr(float)`, `json.dumps`/`json.loads` and the
//! `repr` of lists and dicts. All of it is the crate's own code, `no_std`.

pub(crate) mod float_repr;
pub(crate) mod json_compare;
pub(crate) mod json_parse;
pub(crate) mod json_sink;
pub(crate) mod json_write;
pub(crate) mod number;
pub(crate) mod repr;
pub(crate) mod walk;
