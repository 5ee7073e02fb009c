//! A small size-class allocator for the wasm32 build.
//!
//! Why: std's default wasm allocator (dlmalloc) is about 7 KB of the module, a large share
//! of the 40 KB (gzip) budget. This client allocates little and briefly (request bodies,
//! messages, small vectors: response bodies stay in JavaScript), so power-of-two size
//! classes with one free list each are enough:
//!
//! * a request of `size` bytes with alignment `align` is served from class
//!   `k = log2(next_power_of_two(max(size, align, 8)))`;
//! * a block of class `k` is always aligned to `min(2^k, 64 KiB)`;
//! * freed blocks go on their class's free list and are reused for the same class only;
//! * new blocks are carved from a bump region grown with `memory.grow`; the alignment gap
//!   before a block is split into naturally aligned smaller blocks and put on their lists.
//!
//! Memory is never returned to the host (neither does dlmalloc on wasm32). The logic is
//! plain Rust over addresses ([`Heap`]) so it is tested natively against a simulated
//! memory; only the private `WasmAllocator` touches wasm memory.

/// Number of size classes: class `k` holds blocks of `2^k` bytes.
pub const CLASSES: usize = 32;
/// The smallest class (8 bytes: room for the free-list link).
pub const MIN_CLASS: usize = 3;
/// A wasm page.
pub const PAGE: usize = 65_536;

/// The size class for a request, `None` when it cannot be served.
pub fn class_of(size: usize, align: usize) -> Option<usize> {
    if align > PAGE {
        return None;
    }
    let need = size.max(align).max(1 << MIN_CLASS);
    let k = need.checked_next_power_of_two()?.trailing_zeros() as usize;
    if k < CLASSES {
        Some(k)
    } else {
        None
    }
}

/// Access to the memory the heap manages: growing it, and the free-list links stored in
/// free blocks.
pub trait Memory {
    /// Grows memory by `pages` pages; returns the address of the first new byte.
    fn grow(&mut self, pages: usize) -> Option<usize>;
    /// Reads the link stored at the start of the free block at `addr`.
    fn read_link(&self, addr: usize) -> usize;
    /// Stores `link` at the start of the free block at `addr`.
    fn write_link(&mut self, addr: usize, link: usize);
}

/// The allocator's state: one free list per class and a bump region `[bump, end)`.
pub struct Heap {
    free: [usize; CLASSES],
    bump: usize,
    end: usize,
}

impl Default for Heap {
    fn default() -> Self {
        Self::new()
    }
}

impl Heap {
    /// An empty heap (no memory yet).
    pub const fn new() -> Self {
        Heap {
            free: [0; CLASSES],
            bump: 0,
            end: 0,
        }
    }

    fn push<M: Memory>(&mut self, mem: &mut M, k: usize, addr: usize) {
        mem.write_link(addr, self.free[k]);
        self.free[k] = addr;
    }

    /// Puts `[from, to)` (both multiples of 8) on the free lists as naturally aligned blocks.
    fn release_range<M: Memory>(&mut self, mem: &mut M, mut from: usize, to: usize) {
        while from < to {
            // The largest power of two that divides `from` and still fits before `to`.
            let mut b = from & from.wrapping_neg();
            while b > to - from {
                b >>= 1;
            }
            let k = b.trailing_zeros() as usize;
            if (MIN_CLASS..CLASSES).contains(&k) {
                self.push(mem, k, from);
            }
            from += b;
        }
    }

    /// Allocates a block of class `k`; `None` when memory cannot grow.
    pub fn alloc<M: Memory>(&mut self, mem: &mut M, k: usize) -> Option<usize> {
        let head = *self.free.get(k)?;
        if head != 0 {
            self.free[k] = mem.read_link(head);
            return Some(head);
        }
        let size = 1usize << k;
        let align = size.min(PAGE);
        let mut start = self.bump.checked_add(align - 1)? & !(align - 1);
        if self.bump == 0 || start.checked_add(size)? > self.end {
            let pages = size.checked_add(align)?.div_ceil(PAGE);
            let base = mem.grow(pages)?;
            if base != self.end || self.bump == 0 {
                // Not contiguous with the current region: keep the old tail for reuse.
                let (bump, end) = (self.bump, self.end);
                if bump != 0 {
                    self.release_range(mem, bump, end);
                }
                self.bump = base;
            }
            self.end = base + pages * PAGE;
            start = (self.bump + align - 1) & !(align - 1);
        }
        let bump = self.bump;
        self.release_range(mem, bump, start);
        self.bump = start + size;
        Some(start)
    }

    /// Returns a block of class `k`.
    pub fn dealloc<M: Memory>(&mut self, mem: &mut M, addr: usize, k: usize) {
        if k < CLASSES {
            self.push(mem, k, addr);
        }
    }
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod wasm {
    use super::{class_of, Heap, Memory, PAGE};
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::UnsafeCell;

    struct WasmMemory;

    impl Memory for WasmMemory {
        fn grow(&mut self, pages: usize) -> Option<usize> {
            let previous = core::arch::wasm32::memory_grow(0, pages);
            if previous == usize::MAX {
                None
            } else {
                Some(previous * PAGE)
            }
        }
        fn read_link(&self, addr: usize) -> usize {
            // SAFETY: `addr` is a free block owned by the heap, at least 8 bytes, aligned.
            unsafe { *(addr as *const usize) }
        }
        fn write_link(&mut self, addr: usize, link: usize) {
            // SAFETY: as above.
            unsafe { *(addr as *mut usize) = link }
        }
    }

    /// The global allocator of the wasm32 build (single-threaded wasm only).
    pub struct WasmAllocator(UnsafeCell<Heap>);

    // SAFETY: wasm32 without the `atomics` feature has exactly one thread.
    unsafe impl Sync for WasmAllocator {}

    unsafe impl GlobalAlloc for WasmAllocator {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            match class_of(layout.size(), layout.align()) {
                // SAFETY: single-threaded, and no allocation happens inside `Heap::alloc`.
                Some(k) => match unsafe { (*self.0.get()).alloc(&mut WasmMemory, k) } {
                    Some(addr) => addr as *mut u8,
                    None => core::ptr::null_mut(),
                },
                None => core::ptr::null_mut(),
            }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if let Some(k) = class_of(layout.size(), layout.align()) {
                // SAFETY: `ptr` came from `alloc` with the same layout, hence the same class.
                unsafe { (*self.0.get()).dealloc(&mut WasmMemory, ptr as usize, k) }
            }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let old = class_of(layout.size(), layout.align());
            if old.is_some() && old == class_of(new_size, layout.align()) {
                return ptr;
            }
            // SAFETY: the caller guarantees `new_size` with `layout.align()` is a valid layout.
            let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            let new = unsafe { self.alloc(new_layout) };
            if !new.is_null() {
                // SAFETY: both blocks are valid for the smaller of the two sizes.
                unsafe {
                    core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
            }
            new
        }
    }

    #[global_allocator]
    static ALLOCATOR: WasmAllocator = WasmAllocator(UnsafeCell::new(Heap::new()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A simulated wasm memory: addresses from 64 KiB up, links kept in a map.
    struct SimMemory {
        pages: usize,
        max_pages: usize,
        links: HashMap<usize, usize>,
        /// Pages taken by "someone else" before each grow (non-contiguous growth).
        foreign: Vec<usize>,
    }

    impl SimMemory {
        fn new(max_pages: usize) -> Self {
            SimMemory {
                pages: 1,
                max_pages,
                links: HashMap::new(),
                foreign: Vec::new(),
            }
        }
    }

    impl Memory for SimMemory {
        fn grow(&mut self, pages: usize) -> Option<usize> {
            if let Some(extra) = self.foreign.pop() {
                self.pages += extra;
            }
            if self.pages + pages > self.max_pages {
                return None;
            }
            let base = self.pages * PAGE;
            self.pages += pages;
            Some(base)
        }
        fn read_link(&self, addr: usize) -> usize {
            *self.links.get(&addr).expect("link of a free block")
        }
        fn write_link(&mut self, addr: usize, link: usize) {
            self.links.insert(addr, link);
        }
    }

    #[test]
    fn classes() {
        assert_eq!(class_of(0, 1), Some(3));
        assert_eq!(class_of(1, 1), Some(3));
        assert_eq!(class_of(8, 8), Some(3));
        assert_eq!(class_of(9, 1), Some(4));
        assert_eq!(class_of(4, 16), Some(4));
        assert_eq!(class_of(100, 4), Some(7));
        assert_eq!(class_of(65_536, 1), Some(16));
        assert_eq!(class_of(1 << 31, 1), Some(31));
        assert_eq!(class_of((1 << 31) + 1, 1), None);
        assert_eq!(class_of(usize::MAX, 1), None);
        assert_eq!(class_of(8, PAGE * 2), None);
    }

    #[test]
    fn reuse_and_alignment() {
        let mut mem = SimMemory::new(1000);
        let mut heap = Heap::new();
        let a = heap.alloc(&mut mem, 3).unwrap();
        let b = heap.alloc(&mut mem, 3).unwrap();
        assert_ne!(a, b);
        heap.dealloc(&mut mem, a, 3);
        assert_eq!(heap.alloc(&mut mem, 3), Some(a), "a freed block is reused");
        let big = heap.alloc(&mut mem, 12).unwrap();
        assert_eq!(big % 4096, 0);
        let huge = heap.alloc(&mut mem, 20).unwrap();
        assert_eq!(huge % PAGE, 0);
        // The gap before `big` was split into smaller blocks, reused before new memory.
        let small = heap.alloc(&mut mem, 4).unwrap();
        assert!(small < big, "{small} {big}");
        assert_eq!(small % 16, 0);
    }

    #[test]
    fn out_of_memory_is_none() {
        let mut mem = SimMemory::new(3);
        let mut heap = Heap::new();
        assert!(heap.alloc(&mut mem, 16).is_some());
        assert!(heap.alloc(&mut mem, 20).is_none());
        assert!(
            heap.alloc(&mut mem, 3).is_some(),
            "small blocks still served"
        );
    }

    proptest! {
        /// Random alloc/free sequences: blocks are aligned, inside grown memory, and never
        /// overlap a live block.
        #[test]
        fn blocks_never_overlap(
            ops in proptest::collection::vec((any::<bool>(), 3usize..18, any::<usize>()), 1..200),
            foreign in proptest::collection::vec(0usize..3, 0..5),
        ) {
            let mut mem = SimMemory::new(100_000);
            mem.foreign = foreign;
            let mut heap = Heap::new();
            let mut live: Vec<(usize, usize)> = Vec::new();
            for (is_alloc, k, pick) in ops {
                if is_alloc || live.is_empty() {
                    let addr = heap.alloc(&mut mem, k).unwrap();
                    let size = 1usize << k;
                    prop_assert_eq!(addr % size.min(PAGE), 0);
                    prop_assert!(addr >= PAGE && addr + size <= mem.pages * PAGE);
                    for &(a, kk) in &live {
                        let s = 1usize << kk;
                        prop_assert!(addr + size <= a || a + s <= addr, "{} overlaps {}", addr, a);
                    }
                    live.push((addr, k));
                } else {
                    let (a, kk) = live.swap_remove(pick % live.len());
                    heap.dealloc(&mut mem, a, kk);
                }
            }
        }
    }
}
