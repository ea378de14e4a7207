//! The walk of a value's tree that the Python text writers share
//! (`json.dumps`, `repr` of lists and dicts): containers are opened and
//! closed with an explicit stack, so a value of any depth is written
//! without recursion.

use alloc::vec::Vec;
use serde_json::Value;

use crate::value::{Kind, kind};

/// What a walk writes, step by step in text order.
pub(crate) trait Steps<'v> {
    /// A list (`true`) or a dict (`false`) opens.
    fn open(&mut self, list: bool);
    /// A value that is not a container (Python's view: the float
    /// sentinel object is a float).
    fn scalar(&mut self, k: Kind<'v>);
    /// An item or member follows another in the same container.
    fn separator(&mut self);
    /// A dict member's key; its value follows.
    fn key(&mut self, k: &'v str);
    /// The innermost open list (`true`) or dict (`false`) closes.
    fn close(&mut self, list: bool);
}

/// An open container: the rest of its items or members, and whether none
/// was written yet.
enum Open<'v> {
    List(core::slice::Iter<'v, Value>, bool),
    Dict(serde_json::map::Iter<'v>, bool),
}

/// Walks `v` depth first, handing each step to `on`; returns the nesting
/// depth of its JSON containers (0 for a scalar).
pub(crate) fn walk<'v, S: Steps<'v>>(v: &'v Value, on: &mut S) -> usize {
    let mut stack: Vec<Open<'v>> = Vec::new();
    let mut next = Some(v);
    let mut depth = 0;
    loop {
        if let Some(v) = next.take() {
            if matches!(v, Value::Array(_) | Value::Object(_)) {
                depth = depth.max(stack.len() + 1);
            }
            match kind(v) {
                Kind::List(items) => {
                    on.open(true);
                    stack.push(Open::List(items.iter(), true));
                }
                Kind::Dict(map) => {
                    on.open(false);
                    stack.push(Open::Dict(map.iter(), true));
                }
                other => on.scalar(other),
            }
        }
        let Some(top) = stack.last_mut() else {
            return depth;
        };
        match top {
            Open::List(it, first) => match it.next() {
                Some(item) => {
                    if !core::mem::take(first) {
                        on.separator();
                    }
                    next = Some(item);
                }
                None => {
                    on.close(true);
                    stack.pop();
                }
            },
            Open::Dict(it, first) => match it.next() {
                Some((k, item)) => {
                    if !core::mem::take(first) {
                        on.separator();
                    }
                    on.key(k);
                    next = Some(item);
                }
                None => {
                    on.close(false);
                    stack.pop();
                }
            },
        }
    }
}
