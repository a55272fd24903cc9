//! A global allocator for the binary: large blocks are aligned to 2 MiB and offered to the
//! kernel as transparent huge pages.
//!
//! The NikoNiko solver reads its value arrays at random, a few million times a sweep; on
//! 4 KiB pages most of those reads also miss the TLB. On Linux, where transparent huge
//! pages are commonly enabled only on request (`madvise`), this asks for them; elsewhere,
//! or when the kernel declines, it is the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks at least this large get huge pages.
const LARGE: usize = 4 << 20;
/// The size and alignment of a huge page.
const HUGE: usize = 2 << 20;

/// The allocator (see the module's documentation).
pub struct HugePages;

fn adjusted(layout: Layout) -> Layout {
    if layout.size() >= LARGE && layout.align() < HUGE {
        // A valid layout with a larger power-of-two alignment is valid.
        Layout::from_size_align(layout.size(), HUGE).unwrap_or(layout)
    } else {
        layout
    }
}

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    // SAFETY: the range is one block just allocated; the advice changes no content.
    unsafe {
        libc::madvise(ptr.cast(), size, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

// SAFETY: every call goes to the system allocator with the same adjusted layout in
// allocation and deallocation.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let adjusted = adjusted(layout);
        // SAFETY: the caller's layout has a nonzero size; so has the adjusted one.
        let ptr = unsafe { System.alloc(adjusted) };
        if !ptr.is_null() && adjusted.align() == HUGE {
            advise(ptr, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if adjusted(layout) == layout {
            // SAFETY: as in `alloc`.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // Advised first, then zeroed: the pages are touched as huge ones.
        // SAFETY: as in `alloc`; the block is `layout.size()` bytes long.
        unsafe {
            let ptr = self.alloc(layout);
            if !ptr.is_null() {
                std::ptr::write_bytes(ptr, 0, layout.size());
            }
            ptr
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout, adjusted the same way.
        unsafe { System.dealloc(ptr, adjusted(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`; `new_size` makes a valid layout.
        unsafe {
            let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
            if adjusted(layout) == layout && adjusted(new_layout) == new_layout {
                return System.realloc(ptr, layout, new_size);
            }
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}
