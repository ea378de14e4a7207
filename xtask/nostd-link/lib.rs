//! A `#![no_std]` staticlib that links every toolwire library.
#![no_std]
#![allow(unsafe_code)]

extern crate alloc;

// Name every library so each one is linked, not just resolved.
use gcx_wire as _;
use jsonmend_engine as _;
use leaf_meta as _;
use munch_core as _;

use core::alloc::{GlobalAlloc, Layout};

struct NoHeap;

// SAFETY: returning null is the documented way to report allocation failure.
unsafe impl GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _layout: Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static HEAP: NoHeap = NoHeap;

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Exercises wire-lex so its code is instantiated in this no_std build.
#[unsafe(no_mangle)]
pub extern "C" fn toolwire_nostd_link(ptr: *const u8, len: usize) -> usize {
    if ptr.is_null() {
        return 0;
    }
    // SAFETY: the C caller passes a valid buffer of `len` bytes.
    let input = unsafe { core::slice::from_raw_parts(ptr, len) };
    let mut cells = 0;
    for line in wire_lex::Lines::new(input, wire_lex::LineConfig::default()).flatten() {
        cells += wire_lex::Fields::new(line.bytes, line.offset, b'\t').count();
    }
    let table = wire_lex::EscapeTable::new(b'\\').with(b'\t', b't');
    let owned = table.unescape(input, 0).map_or(0, |v| v.len());
    cells + owned + wire_lex::csv::Reader::new(input, wire_lex::csv::Dialect::RFC4180).count()
}

/// Exercises munch-core (decode, encode and the verified ladder) so its
/// code is instantiated in this no_std build.
#[unsafe(no_mangle)]
pub extern "C" fn toolwire_nostd_munch(ptr: *const u8, len: usize) -> usize {
    if ptr.is_null() {
        return 0;
    }
    // SAFETY: the C caller passes a valid buffer of `len` bytes.
    let input = unsafe { core::slice::from_raw_parts(ptr, len) };
    let Ok(text) = core::str::from_utf8(input) else {
        return 0;
    };
    match munch_core::decode(text) {
        Ok(value) => munch_core::encode("search_symbols", &value, &munch_core::Options::default()).text.len(),
        Err(e) => e.offset,
    }
}

/// Exercises jsonmend-engine (repair, analyze, the protocol call) so its
/// code is instantiated in this no_std build.
#[unsafe(no_mangle)]
pub extern "C" fn toolwire_nostd_jsonmend(ptr: *const u8, len: usize) -> usize {
    if ptr.is_null() {
        return 0;
    }
    // SAFETY: the C caller passes a valid buffer of `len` bytes.
    let input = unsafe { core::slice::from_raw_parts(ptr, len) };
    let opts = jsonmend_engine::Options::default();
    let plan = jsonmend_engine::analyze(input, &opts).to_json().len();
    match jsonmend_engine::repair_bytes(input, &opts) {
        Ok(r) => r.text.len() + plan,
        Err(e) => e.to_json().len() + plan,
    }
}
