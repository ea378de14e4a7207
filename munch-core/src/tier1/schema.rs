//! What a tier-1 schema declares (spec §7).

/// A column or scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Str,
    Int,
    Float,
    Bool,
}

impl Ty {
    /// The type's name in `__stypes` and gen1 `__tables`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Ty::Str => "str",
            Ty::Int => "int",
            Ty::Float => "float",
            Ty::Bool => "bool",
        }
    }
}

/// How a field read back is compared with its cell: its column's type, and
/// whether the column is interned.
pub(crate) type ColumnPlan = (Ty, bool);

/// A column: name and type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Col {
    pub(crate) name: &'static str,
    pub(crate) ty: Ty,
}

/// A `str` column.
pub(crate) const fn s(name: &'static str) -> Col {
    Col { name, ty: Ty::Str }
}

/// An `int` column.
pub(crate) const fn i(name: &'static str) -> Col {
    Col { name, ty: Ty::Int }
}

/// A `float` column.
pub(crate) const fn f(name: &'static str) -> Col {
    Col {
        name,
        ty: Ty::Float,
    }
}

/// A `bool` column.
pub(crate) const fn b(name: &'static str) -> Col {
    Col { name, ty: Ty::Bool }
}

/// A table: the response key holding its rows, its tag, its columns and
/// the columns legend-interned (in observation order).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    pub(crate) key: &'static str,
    pub(crate) tag: &'static str,
    pub(crate) cols: &'static [Col],
    pub(crate) intern: &'static [&'static str],
}

impl Table {
    /// Whether column `name` is interned.
    pub(crate) fn interned(&self, name: &str) -> bool {
        self.intern.contains(&name)
    }

    /// The place in `cols` of each interned column, in intern-list
    /// (observation) order. Every interned name is a column (a test checks
    /// every schema).
    pub(crate) fn intern_places(&self) -> alloc::vec::Vec<usize> {
        self.intern
            .iter()
            .filter_map(|n| self.cols.iter().position(|c| c.name == *n))
            .collect()
    }

    /// Per column, in order, whether it is interned (looked up once per
    /// table, not per cell).
    pub(crate) fn interned_columns(&self) -> alloc::vec::Vec<bool> {
        self.cols.iter().map(|c| self.interned(c.name)).collect()
    }

    /// Per column, in order, its type and whether it is interned: what a
    /// field read back is compared by.
    pub(crate) fn column_plan(&self) -> alloc::vec::Vec<ColumnPlan> {
        self.cols
            .iter()
            .map(|c| (c.ty, self.interned(c.name)))
            .collect()
    }
}

/// The tool-specific reshaping around the schema mechanism (spec §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transform {
    None,
    FindReferences,
    SearchText,
    SearchAst,
    FileOutline,
    DependencyCycles,
    TectonicMap,
}

/// The universal meta-JSON keys, in the PYTHONHASHSEED=0 set order of the
/// default set {verdict} ∪ universal (spec §7).
pub(crate) const META_JSON_DEFAULT: &[&str] = &[
    "receipts",
    "absence_evidence",
    "ignored_arguments",
    "verdict",
];

/// One tier-1 encoder/decoder.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Schema {
    pub(crate) id: &'static str,
    pub(crate) legacy: &'static [&'static str],
    pub(crate) tool: &'static str,
    pub(crate) tables: &'static [Table],
    pub(crate) scalars: &'static [&'static str],
    pub(crate) nested: &'static [(&'static str, &'static [&'static str])],
    /// Meta keys in the decode list's order.
    pub(crate) meta: &'static [&'static str],
    /// Meta-JSON keys (schema ∪ universal) in the seed-0 set order.
    pub(crate) meta_json: &'static [&'static str],
    pub(crate) blobs: &'static [&'static str],
    /// Fixed decode types of scalars (`_meta.`-prefixed names included).
    pub(crate) scalar_types: &'static [(&'static str, Ty)],
    pub(crate) transform: Transform,
}

/// Universal body keys: `negative_evidence` and any key containing
/// `warning` in any case.
pub(crate) fn is_universal_body_key(key: &str) -> bool {
    key == "negative_evidence" || contains_warning(key)
}

fn contains_warning(key: &str) -> bool {
    // Python `"warning" in key.lower()`: no non-ASCII character lowers to
    // one of these ASCII letters, so an ASCII case-insensitive search is
    // exact.
    key.as_bytes()
        .windows(7)
        .any(|w| w.eq_ignore_ascii_case(b"warning"))
}

#[cfg(test)]
mod tests {
    use crate::tier1::schemas;

    /// The encoder finds a row's cells by column name once and observes
    /// the interned ones from them: that needs distinct column names and
    /// every interned name among the columns.
    #[test]
    fn interned_names_are_distinct_columns() {
        let tables = schemas::ALL
            .iter()
            .flat_map(|s| s.tables.iter())
            .chain(schemas::FILE_OUTLINE_BATCH_TABLES);
        for t in tables {
            for (i, c) in t.cols.iter().enumerate() {
                assert!(
                    t.cols.iter().skip(i + 1).all(|d| d.name != c.name),
                    "{} repeats {}",
                    t.key,
                    c.name
                );
            }
            assert_eq!(t.intern_places().len(), t.intern.len(), "{}", t.key);
        }
    }
}
