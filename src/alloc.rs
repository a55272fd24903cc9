//! A global allocator for the binary: large blocks are aligned to 2 MiB and offered to the
//! kernel as transparent huge pages; an allocation the system refuses ends the program
//! with exit status 1 and a message saying how much was asked for (`docs/cli.md`, "Files,
//! streams and memory"), not with an abort and a backtrace.
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

/// Ends the program for want of memory: a message on stderr (written without
/// allocating: the allocator has just failed), then exit status 1. Nothing half-written
/// is left: every writer renames a finished temporary file into place, and the
/// temporaries of a dead process are cleaned by the next writer.
fn out_of_memory(size: usize) -> ! {
    let mut text = [0u8; 160];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        for &b in bytes {
            if len < text.len() {
                text[len] = b;
                len += 1;
            }
        }
    };
    put(b"tabula: out of memory: the system refused ");
    // The size in MiB (rounded up) in decimal, without formatting machinery.
    let mib = size.div_ceil(1 << 20);
    let mut digits = [0u8; 20];
    let mut n = mib;
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    put(&digits[k..]);
    put(b" MiB more (see `ulimit -v` and the memory free)\n");
    // SAFETY: plain system calls on a buffer we own; _exit runs no more Rust code.
    unsafe {
        libc::write(2, text.as_ptr().cast(), len);
        libc::_exit(1);
    }
}

/// Blocks at least this large end the program when refused; a small one refused is
/// left to the standard library's handler (there is no room to say anything anyway).
const REPORTED: usize = 1 << 16;

// SAFETY: every call goes to the system allocator with the same adjusted layout in
// allocation and deallocation.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let adjusted = adjusted(layout);
        // SAFETY: the caller's layout has a nonzero size; so has the adjusted one.
        let ptr = unsafe { System.alloc(adjusted) };
        if ptr.is_null() && layout.size() >= REPORTED {
            out_of_memory(layout.size());
        }
        if !ptr.is_null() && adjusted.align() == HUGE {
            advise(ptr, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if adjusted(layout) == layout {
            // SAFETY: as in `alloc`.
            let ptr = unsafe { System.alloc_zeroed(layout) };
            if ptr.is_null() && layout.size() >= REPORTED {
                out_of_memory(layout.size());
            }
            return ptr;
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
                let new = System.realloc(ptr, layout, new_size);
                if new.is_null() && new_size >= REPORTED {
                    out_of_memory(new_size);
                }
                return new;
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
