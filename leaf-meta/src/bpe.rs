//! Byte-level BPE with rank = id (§3.7): a byte-string → id table and the
//! merge loop. Short pieces merge with a simple scan; long ones with a
//! heap over a linked list, so a hostile piece costs O(n log n), not
//! O(n²).

use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Reverse;

/// Byte strings → ids, open addressing over one byte arena.
#[derive(Clone, Debug, Default)]
pub(crate) struct TokenTable {
    arena: Vec<u8>,
    /// Per id: (start, len) in `arena`.
    spans: Vec<(u32, u32)>,
    /// Slot → id + 1 (0 = empty). Length is a power of two.
    slots: Vec<u32>,
    /// Slot → the upper half of its token's hash, checked before the bytes.
    tags: Vec<u32>,
}

fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

impl TokenTable {
    /// A table for ids `0..count`, to be filled with [`TokenTable::insert`].
    pub(crate) fn with_ids(count: usize, arena_bytes: usize) -> Self {
        let cap = (count * 2).next_power_of_two().max(16);
        TokenTable {
            arena: Vec::with_capacity(arena_bytes),
            spans: alloc::vec![(0, 0); count],
            slots: alloc::vec![0; cap],
            tags: alloc::vec![0; cap],
        }
    }

    /// The id of `bytes`, if it is a token.
    #[inline]
    pub(crate) fn get(&self, bytes: &[u8]) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let h = hash(bytes);
        let tag = (h >> 32) as u32;
        let mut at = (h as usize) & mask;
        loop {
            let slot = *self.slots.get(at)?;
            if slot == 0 {
                return None;
            }
            let id = slot - 1;
            if self.tags.get(at) == Some(&tag) && self.bytes(id) == bytes {
                return Some(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Records `bytes` as token `id`; `false` if `bytes` already has an id
    /// or `id` is out of range.
    pub(crate) fn insert(&mut self, id: u32, bytes: &[u8]) -> bool {
        if self.get(bytes).is_some() || id as usize >= self.spans.len() {
            return false;
        }
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(bytes);
        if let Some(span) = self.spans.get_mut(id as usize) {
            *span = (start, bytes.len() as u32);
        }
        let mask = self.slots.len() - 1;
        let h = hash(bytes);
        let mut at = (h as usize) & mask;
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == 0 {
                *slot = id + 1;
                if let Some(tag) = self.tags.get_mut(at) {
                    *tag = (h >> 32) as u32;
                }
                return true;
            }
            at = (at + 1) & mask;
        }
        false
    }

    /// The bytes of token `id` (empty if unknown).
    #[inline]
    pub(crate) fn bytes(&self, id: u32) -> &[u8] {
        let (start, len) = self.spans.get(id as usize).copied().unwrap_or((0, 0));
        self.arena
            .get(start as usize..start as usize + len as usize)
            .unwrap_or_default()
    }

    /// How many ids the table was built for.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }
}

/// Pieces up to this length merge with the quadratic scan (fast for the
/// short pieces real text has); longer ones use the heap.
const SHORT: usize = 48;

/// Appends the ids of `piece` (non-empty) to `out`. `limit`: only tokens
/// with an id below it may be formed (the load-time split check).
pub(crate) fn encode_piece(table: &TokenTable, piece: &[u8], limit: u32, out: &mut Vec<u32>) {
    if let Some(id) = table.get(piece).filter(|&id| id < limit) {
        out.push(id);
        return;
    }
    if piece.len() <= SHORT {
        merge_short(table, piece, limit, out);
    } else {
        merge_heap(table, piece, limit, out);
    }
}

fn rank(table: &TokenTable, bytes: &[u8], limit: u32) -> Option<u32> {
    table.get(bytes).filter(|&id| id < limit)
}

fn merge_short(table: &TokenTable, piece: &[u8], limit: u32, out: &mut Vec<u32>) {
    // Symbol boundaries and the rank of each adjacent pair, on the stack
    // (longer pieces go to the heap); a pair's rank is recomputed only
    // next to a merge.
    if piece.len() > SHORT {
        return merge_heap(table, piece, limit, out);
    }
    let n = piece.len();
    let mut bounds = [0usize; SHORT + 1];
    for (i, b) in bounds.iter_mut().enumerate().take(n + 1) {
        *b = i;
    }
    let mut len = n + 1;
    let pair = |bounds: &[usize], i: usize| -> Option<u32> {
        let (&a, &c) = (bounds.get(i)?, bounds.get(i + 2)?);
        rank(table, piece.get(a..c)?, limit)
    };
    let mut ranks = [None; SHORT];
    for (i, r) in ranks.iter_mut().enumerate().take(n.saturating_sub(1)) {
        *r = pair(bounds.get(..len).unwrap_or_default(), i);
    }
    loop {
        let pairs = len.saturating_sub(2);
        let mut best: Option<(u32, usize)> = None;
        for (i, r) in ranks.iter().enumerate().take(pairs) {
            if let Some(r) = *r {
                if best.is_none_or(|(br, _)| r < br) {
                    best = Some((r, i));
                }
            }
        }
        let Some((_, i)) = best else { break };
        // Drop boundary i + 1 and pair i.
        bounds.copy_within(i + 2..len, i + 1);
        ranks.copy_within(i + 1..pairs, i);
        len -= 1;
        let live = bounds.get(..len).unwrap_or_default();
        if i + 1 < len.saturating_sub(1) {
            if let Some(slot) = ranks.get_mut(i) {
                *slot = pair(live, i);
            }
        }
        if let Some(slot) = i.checked_sub(1).and_then(|j| ranks.get_mut(j)) {
            *slot = pair(live, i - 1);
        }
    }
    for w in bounds.get(..len).unwrap_or_default().windows(2) {
        if let [a, b] = *w {
            if let Some(id) = piece.get(a..b).and_then(|s| table.get(s)) {
                out.push(id);
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Node {
    start: usize,
    end: usize,
    prev: usize,
    next: usize,
    alive: bool,
}

const NONE: usize = usize::MAX;

fn merge_heap(table: &TokenTable, piece: &[u8], limit: u32, out: &mut Vec<u32>) {
    let n = piece.len();
    let mut nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            start: i,
            end: i + 1,
            prev: if i == 0 { NONE } else { i - 1 },
            next: if i + 1 == n { NONE } else { i + 1 },
            alive: true,
        })
        .collect();
    // (rank, left start, left node, right end): lowest rank, then leftmost.
    let mut heap: BinaryHeap<Reverse<(u32, usize, usize, usize)>> = BinaryHeap::new();
    let push = |heap: &mut BinaryHeap<_>, nodes: &[Node], left: usize| {
        let Some(l) = nodes.get(left) else { return };
        let Some(r) = nodes.get(l.next) else { return };
        if let Some(rk) = piece
            .get(l.start..r.end)
            .and_then(|b| rank(table, b, limit))
        {
            heap.push(Reverse((rk, l.start, left, r.end)));
        }
    };
    for i in 0..n {
        push(&mut heap, &nodes, i);
    }
    while let Some(Reverse((_, start, left, end))) = heap.pop() {
        let Some(l) = nodes.get(left).copied() else {
            continue;
        };
        let Some(r) = nodes.get(l.next).copied() else {
            continue;
        };
        // Stale: either side changed since the pair was queued.
        if !l.alive || !r.alive || l.start != start || r.end != end {
            continue;
        }
        let right = l.next;
        if let Some(node) = nodes.get_mut(left) {
            node.end = r.end;
            node.next = r.next;
        }
        if let Some(node) = nodes.get_mut(right) {
            node.alive = false;
        }
        if let Some(node) = nodes.get_mut(r.next) {
            node.prev = left;
        }
        push(&mut heap, &nodes, left);
        if l.prev != NONE {
            push(&mut heap, &nodes, l.prev);
        }
    }
    let mut at = 0;
    while at != NONE {
        let Some(node) = nodes.get(at) else { break };
        if let Some(id) = piece.get(node.start..node.end).and_then(|s| table.get(s)) {
            out.push(id);
        }
        at = node.next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy vocabulary: bytes a, b, c (ids 0–2), then merges.
    fn toy() -> TokenTable {
        let tokens: [&[u8]; 7] = [b"a", b"b", b"c", b"ab", b"abc", b"bc", b"aa"];
        let mut t = TokenTable::with_ids(tokens.len(), 16);
        for (id, tok) in tokens.iter().enumerate() {
            assert!(t.insert(id as u32, tok));
        }
        t
    }

    fn both(t: &TokenTable, piece: &[u8]) -> Vec<u32> {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        merge_short(t, piece, u32::MAX, &mut a);
        merge_heap(t, piece, u32::MAX, &mut b);
        assert_eq!(a, b, "{piece:?}");
        a
    }

    #[test]
    fn lowest_rank_first_and_leftmost() {
        let t = toy();
        assert_eq!(both(&t, b"abc"), [4]);
        assert_eq!(both(&t, b"bca"), [5, 0]);
        assert_eq!(both(&t, b"aaa"), [6, 0]);
        assert_eq!(both(&t, b"aaaa"), [6, 6]);
        assert_eq!(both(&t, b"cab"), [2, 3]);
    }

    #[test]
    fn heap_and_scan_agree_on_random_pieces() {
        let t = toy();
        let mut x = 7u64;
        for len in 1..200 {
            let piece: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b"abc"[(x % 3) as usize]
                })
                .collect();
            both(&t, &piece);
        }
    }

    #[test]
    fn duplicates_are_refused() {
        let mut t = toy();
        assert!(!t.insert(1, b"a"));
        assert_eq!(t.get(b"abc"), Some(4));
        assert_eq!(t.get(b"cc"), None);
        assert_eq!(t.bytes(5), b"bc");
    }
}
