//! wasm-bindgen-test suite: the wasm32 global allocator (talc, set in src/lib.rs) under the
//! client's allocation patterns, in Node and in headless Chromium (scripts/test-wasm.sh). It
//! replaces the native tests of the former home-made allocator (src/heap.rs): what users
//! see is that values of every size and alignment round-trip, and that memory freed by one
//! call is reused by the next instead of growing the module's memory without bound.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

/// Pages (64 KiB) of the module's memory.
fn pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

#[repr(align(4096))]
struct Page([u8; 4096]);

#[repr(align(65536))]
struct Big([u8; 16]);

#[wasm_bindgen_test]
fn values_of_every_size_and_alignment_round_trip() {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for (i, size) in [
        0usize,
        1,
        7,
        8,
        9,
        100,
        4095,
        4097,
        65_536,
        1 << 20,
        3 << 20,
    ]
    .into_iter()
    .enumerate()
    {
        let v = vec![i as u8 + 1; size];
        assert_eq!(v.len(), size);
        kept.push(v);
    }
    for (i, v) in kept.iter().enumerate() {
        assert!(v.iter().all(|&b| b == i as u8 + 1), "buffer {i} intact");
    }
    let pages_: Vec<Box<Page>> = (0..8).map(|n| Box::new(Page([n; 4096]))).collect();
    for (n, p) in pages_.iter().enumerate() {
        assert_eq!(&**p as *const Page as usize % 4096, 0, "4 KiB alignment");
        assert!(p.0.iter().all(|&b| b == n as u8));
    }
    let big = Box::new(Big([7; 16]));
    assert_eq!(&*big as *const Big as usize % 65_536, 0, "64 KiB alignment");
    assert_eq!(big.0, [7; 16]);
}

#[wasm_bindgen_test]
fn growing_a_buffer_keeps_its_contents() {
    let mut s = String::new();
    let mut other = Vec::new();
    for i in 0..200_000u32 {
        s.push(char::from(b'a' + (i % 26) as u8));
        if i % 1000 == 0 {
            other.push(vec![0u8; (i / 1000) as usize]); // interleaved allocations
        }
    }
    assert_eq!(s.len(), 200_000);
    assert!(s
        .bytes()
        .enumerate()
        .all(|(i, b)| b == b'a' + (i % 26) as u8));
    assert_eq!(other.len(), 200);
}

#[wasm_bindgen_test]
fn freed_memory_is_reused() {
    // Warm up, then allocate and free 4 MiB 32 times (128 MiB in all): memory grows by about
    // one buffer, not by 32.
    drop(vec![1u8; 4 << 20]);
    let before = pages();
    for round in 0..32u8 {
        let v = vec![round; 4 << 20];
        assert_eq!(v[(4 << 20) - 1], round);
    }
    let grown = pages() - before;
    assert!(
        grown <= 2 * 64,
        "memory grew by {grown} pages for 4 MiB buffers freed each round"
    );
}
