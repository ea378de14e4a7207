//! The radix tree an encoder walks to find a value's first matching legend
//! entry: one walk of the value, not one prefix test per entry (that would
//! be quadratic).
//!
//! The walk is a chain of dependent loads, one level after another, so
//! the tree is laid out for it: nodes in breadth-first order with each
//! node's children next to each other (a child's place is its parent's
//! `first_child` plus the lane its first byte matched, with no load in
//! between), and every node one cache line holding all a step reads.

use alloc::vec::Vec;

/// The legend entries' radix tree.
#[derive(Debug, Default)]
pub(crate) struct Tree<'v> {
    nodes: Vec<Node<'v>>,
    /// The first-byte tables of nodes with more than eight children: per
    /// byte, the child's lane plus one (0: none).
    wide: Vec<[u16; 256]>,
}

/// A node as walked.
#[derive(Debug, Default)]
struct Node<'v> {
    /// The label's first eight bytes (fewer: zero above them), and a mask
    /// of the bytes it has: a label of eight bytes or fewer is compared in
    /// one word, without loading the label itself.
    head: u64,
    head_mask: u64,
    /// The first bytes of up to eight children in lane order, one per byte
    /// of the word, and 0x80 in each lane that holds one.
    firsts: u64,
    lanes: u64,
    /// The edge label leading into the node.
    label: &'v [u8],
    /// The entry ending here (its index + 1; 0: none).
    entry: u32,
    /// The place of the first child; the others follow it in lane order.
    first_child: u32,
    /// With more than eight children: the place of its table in
    /// [`Tree::wide`] plus one. 0 otherwise.
    wide: u32,
    /// The smallest entry (index + 1) below this node, `u32::MAX` for
    /// none: a walk that already matched a smaller one can stop here.
    below: u32,
}

/// A node while the tree is built: children sorted by first byte.
#[derive(Debug, Default)]
struct Draft<'v> {
    label: &'v [u8],
    children: Vec<(u8, u32)>,
    entry: u32,
}

impl<'v> Tree<'v> {
    /// The tree over `list` (entry `i` is `list[i]`; a string listed twice
    /// keeps its first index).
    pub(crate) fn build(list: &[&'v str]) -> Tree<'v> {
        let drafts = drafts(list);
        // Breadth first: each node's children are appended together.
        let mut order: Vec<u32> = alloc::vec![0];
        let mut tree = Tree {
            nodes: Vec::with_capacity(drafts.len()),
            wide: Vec::new(),
        };
        let mut k = 0usize;
        // Each node's children: a range of `nodes`.
        let mut kids: Vec<(usize, usize)> = Vec::with_capacity(drafts.len());
        while let Some(d) = order.get(k).and_then(|&old| drafts.get(old as usize)) {
            let first_child = order.len() as u32;
            order.extend(d.children.iter().map(|c| c.1));
            kids.push((first_child as usize, d.children.len()));
            let node = tree.node(d, first_child);
            tree.nodes.push(node);
            k += 1;
        }
        // Children come after their parent: from the last node back, a
        // node's `below` is the least over its children and theirs.
        for (i, &(first, n)) in kids.iter().enumerate().rev() {
            let below = tree
                .nodes
                .get(first..first + n)
                .unwrap_or_default()
                .iter()
                .map(|c| c.below.min(if c.entry == 0 { u32::MAX } else { c.entry }))
                .min()
                .unwrap_or(u32::MAX);
            if let Some(node) = tree.nodes.get_mut(i) {
                node.below = below;
            }
        }
        tree
    }

    fn node(&mut self, d: &Draft<'v>, first_child: u32) -> Node<'v> {
        let mut head = [0u8; 8];
        let n = d.label.len().min(8);
        if let (Some(dst), Some(src)) = (head.get_mut(..n), d.label.get(..n)) {
            dst.copy_from_slice(src);
        }
        let mut node = Node {
            head: u64::from_le_bytes(head),
            head_mask: if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            },
            label: d.label,
            entry: d.entry,
            first_child,
            below: u32::MAX,
            ..Node::default()
        };
        if d.children.len() > 8 {
            let mut table = [0u16; 256];
            for (lane, &(b, _)) in d.children.iter().enumerate() {
                if let Some(slot) = table.get_mut(usize::from(b)) {
                    *slot = lane as u16 + 1;
                }
            }
            self.wide.push(table);
            node.wide = self.wide.len() as u32;
        } else {
            for (lane, &(b, _)) in d.children.iter().enumerate() {
                node.firsts |= u64::from(b) << (8 * lane);
                node.lanes |= 0x80 << (8 * lane);
            }
        }
        node
    }

    /// The smallest-index entry that is a prefix of `value` and for which
    /// `accept(rest)` holds of what follows it: the entry (index + 1) and
    /// its length in bytes.
    #[inline]
    pub(crate) fn first_match(
        &self,
        value: &str,
        accept: impl Fn(&str) -> bool,
    ) -> Option<(u32, usize)> {
        let bytes = value.as_bytes();
        let mut best: Option<(u32, usize)> = None;
        let mut at = 0usize;
        let mut depth = 0usize;
        while let Some(node) = self.nodes.get(at) {
            if node.entry != 0
                && best.is_none_or(|(e, _)| node.entry < e)
                && accept(value.get(depth..).unwrap_or_default())
            {
                best = Some((node.entry, depth));
                // Every entry further down comes later in the legend.
                if node.entry < node.below {
                    break;
                }
            }
            let Some(&b) = bytes.get(depth) else { break };
            let Some(lane) = self.lane(node, b) else {
                break;
            };
            let child = node.first_child as usize + lane;
            let Some(c) = self.nodes.get(child) else {
                break;
            };
            if !c.label_at(bytes, depth) {
                break;
            }
            depth += c.label.len();
            at = child;
        }
        best
    }

    /// The lane of `node`'s child whose label starts with `b`: with eight
    /// children or fewer every byte of `firsts` compared at once, with
    /// more one table lookup (no branch per probe either way).
    #[inline]
    fn lane(&self, node: &Node<'_>, b: u8) -> Option<usize> {
        if node.wide != 0 {
            let table = self.wide.get(node.wide as usize - 1)?;
            let k = *table.get(usize::from(b))?;
            return (k as usize).checked_sub(1);
        }
        let hits = wire_lex::byte_eq_mask(node.firsts, b) & node.lanes;
        (hits != 0).then(|| (hits.trailing_zeros() / 8) as usize)
    }
}

impl Node<'_> {
    /// Whether `bytes[at..]` starts with this node's label: one word
    /// compare when the label has eight bytes or fewer and eight bytes
    /// are left to read.
    #[inline]
    fn label_at(&self, bytes: &[u8], at: usize) -> bool {
        let len = self.label.len();
        if len <= 8 {
            if let Some(w) = bytes.get(at..at + 8) {
                let w = <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes);
                return (w ^ self.head) & self.head_mask == 0;
            }
        }
        bytes
            .get(at..at + len)
            .is_some_and(|b| crate::value::same_bytes(b, self.label))
    }
}

/// The length of the longest common prefix of `a` and `b`, in bytes.
pub(super) fn common_len(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0usize;
    while let (Some(x), Some(y)) = (a.get(i..i + 8), b.get(i..i + 8)) {
        let x = <[u8; 8]>::try_from(x).map_or(0, u64::from_le_bytes);
        let y = <[u8; 8]>::try_from(y).map_or(0, u64::from_le_bytes);
        if x != y {
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

/// The radix tree of `list`, node 0 the root, children sorted by first
/// byte.
fn drafts<'v>(list: &[&'v str]) -> Vec<Draft<'v>> {
    let mut tree = alloc::vec![Draft::default()];
    for (i, s) in list.iter().enumerate() {
        let mut rest = s.as_bytes();
        let mut at = 0usize;
        loop {
            let Some(&first) = rest.first() else {
                if let Some(node) = tree.get_mut(at) {
                    if node.entry == 0 {
                        node.entry = i as u32 + 1;
                    }
                }
                break;
            };
            let Some(node) = tree.get(at) else { break };
            match node.children.binary_search_by_key(&first, |c| c.0) {
                Err(k) => {
                    let new = tree.len() as u32;
                    tree.push(Draft {
                        label: rest,
                        entry: i as u32 + 1,
                        ..Draft::default()
                    });
                    if let Some(node) = tree.get_mut(at) {
                        node.children.insert(k, (first, new));
                    }
                    break;
                }
                Ok(k) => {
                    let child = node.children.get(k).map_or(0, |c| c.1 as usize);
                    let label = tree.get(child).map_or(&[][..], |c| c.label);
                    let common = common_len(label, rest);
                    if common < label.len() {
                        // Split the edge: a middle node takes the common part.
                        let (head, tail) = label.split_at(common);
                        let middle = tree.len() as u32;
                        let tail_first = tail.first().copied().unwrap_or(0);
                        tree.push(Draft {
                            label: head,
                            children: alloc::vec![(tail_first, child as u32)],
                            entry: 0,
                        });
                        if let Some(c) = tree.get_mut(child) {
                            c.label = tail;
                        }
                        if let Some(slot) = tree.get_mut(at).and_then(|n| n.children.get_mut(k)) {
                            slot.1 = middle;
                        }
                        at = middle as usize;
                    } else {
                        at = child;
                    }
                    rest = rest.get(common..).unwrap_or_default();
                }
            }
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::{Tree, common_len};

    /// The common prefix is found wherever it ends: in a word compared
    /// whole, at a word's edge, in the bytes after the last word.
    #[test]
    fn common_len_is_the_first_difference() {
        let a: alloc::vec::Vec<u8> = (0..40u8).collect();
        for n in 0..=40 {
            for cut in 0..=n {
                let mut b = a.get(..n).unwrap_or_default().to_vec();
                if let Some(x) = b.get_mut(cut) {
                    *x ^= 0x80;
                }
                let want = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                assert_eq!(common_len(&a, &b), want, "{n} {cut}");
                assert_eq!(common_len(&b, &a), want, "{n} {cut}");
            }
        }
    }
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A node is one cache line.
    #[test]
    fn a_node_is_one_cache_line() {
        assert_eq!(core::mem::size_of::<super::Node<'_>>(), 64);
    }

    /// The tree finds what a scan of the list in order finds, over small
    /// alphabets (deep, narrow trees) and large ones (nodes of more than
    /// eight children).
    #[test]
    fn first_match_is_the_first_listed_prefix() {
        let mut next = crate::test_rng::xorshift32(0x9e37_79b9);
        let small = ["a", "b", "/", "1", "é"];
        let large = [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "/", "1", "é", "😀",
        ];
        for alphabet in [&small[..], &large[..]] {
            let word = |next: &mut dyn FnMut() -> u32| {
                let n = next() % 6;
                (0..n)
                    .map(|_| alphabet[next() as usize % alphabet.len()])
                    .collect::<String>()
            };
            for _ in 0..300 {
                let mut list: Vec<String> = (0..(next() % 40)).map(|_| word(&mut next)).collect();
                list.retain(|s| !s.is_empty());
                let refs: Vec<&str> = list.iter().map(String::as_str).collect();
                let tree = Tree::build(&refs);
                for _ in 0..40 {
                    let v = word(&mut next);
                    for digit_rest in [false, true] {
                        let accept = |r: &str| !(digit_rest && r.starts_with('1'));
                        let want = refs
                            .iter()
                            .enumerate()
                            .find(|(_, p)| v.strip_prefix(**p).is_some_and(accept))
                            .map(|(i, p)| (i as u32 + 1, p.len()));
                        assert_eq!(tree.first_match(&v, accept), want, "{refs:?} {v:?}");
                    }
                }
            }
        }
    }
}
