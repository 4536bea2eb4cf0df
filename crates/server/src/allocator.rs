//! The server's memory allocator: mimalloc, asked for a plain block whenever the alignment is one every block has.
//! The `mimalloc` crate asks for every block through mimalloc's aligned entry points, which serve blocks over 1 KiB
//! by over-allocating on a slow path (purpleprotocol/mimalloc_rust#170); the standard library's rule avoids that.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};

/// mimalloc, as the `#[global_allocator]` of the `vstage` binary.
pub struct MiMalloc;

/// The alignment every block of at least this size has (as from C's `malloc`, which mimalloc implements).
const MIN_ALIGN: usize = 16;

/// The rule of the standard library's own allocator: a plain block does when the alignment is at most `MIN_ALIGN`
/// and at most the size (a smaller block is aligned to its size's largest power of two).
fn plain_block_does(layout: Layout) -> bool {
    layout.align() <= MIN_ALIGN && layout.align() <= layout.size()
}

// SAFETY: every pointer handed out comes from mimalloc with at least the layout's size and alignment (directly, or by
// the rule above), and every pointer taken back is one of them, returned to mimalloc.
unsafe impl GlobalAlloc for MiMalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size and a power-of-two alignment (which `Layout` is).
        unsafe {
            if plain_block_does(layout) {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if plain_block_does(layout) {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`; the new block keeps its alignment by the same rule.
        unsafe {
            if plain_block_does(Layout::from_size_align_unchecked(new_size, layout.align())) {
                mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_for_and_keep_their_bytes_when_grown() {
        let allocator = MiMalloc;
        for (size, align) in
            [(1, 1), (8, 8), (24, 8), (24, 16), (8, 16), (1500, 8), (5000, 16), (2048, 64), (100, 4096)]
        {
            let layout = Layout::from_size_align(size, align).unwrap();
            unsafe {
                let block = allocator.alloc(layout);
                assert!(!block.is_null() && (block as usize).is_multiple_of(align), "{size} bytes aligned to {align}");
                block.write_bytes(0xab, size);
                let grown = allocator.realloc(block, layout, size * 3);
                assert!(!grown.is_null() && (grown as usize).is_multiple_of(align), "{size} grown, aligned to {align}");
                assert!((0..size).all(|i| *grown.add(i) == 0xab), "{size} bytes kept when grown");
                allocator.dealloc(grown, Layout::from_size_align(size * 3, align).unwrap());
                let zeroed = allocator.alloc_zeroed(layout);
                assert!((zeroed as usize).is_multiple_of(align) && (0..size).all(|i| *zeroed.add(i) == 0));
                allocator.dealloc(zeroed, layout);
            }
        }
    }
}
