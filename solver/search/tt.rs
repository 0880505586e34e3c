//! Transposition table of proven bounds, shared lock-free between threads.
//!
//! For a position it keeps the smallest depth known to win for the attacker and the
//! largest depth known not to, plus a move worth trying first. A proof at depth n holds
//! for every greater (win) or smaller (no win) depth, so a stored bound never changes an
//! answer; a torn entry is caught by the key check (key stored xor data).

use std::alloc::{handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

pub const NO_WIN: u8 = u8::MAX;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Smallest n proved winning (NO_WIN: none).
    pub win: u8,
    /// Largest n proved not winning (0: none).
    pub fail: u8,
    /// A move index hint (from, to) packed, or 0.
    pub hint: u16,
}

impl Bounds {
    fn pack(self) -> u64 {
        self.win as u64 | (self.fail as u64) << 8 | (self.hint as u64) << 16
    }
    fn unpack(d: u64) -> Bounds {
        Bounds {
            win: d as u8,
            fail: (d >> 8) as u8,
            hint: (d >> 16) as u16,
        }
    }
}

pub struct Table {
    /// Two words a slot: the key xor the data, then the data.
    words: NonNull<AtomicU64>,
    len: usize,
    layout: Layout,
    mask: usize,
    generation: AtomicU64,
}

// SAFETY: the table owns its allocation, and every access goes through atomics.
unsafe impl Send for Table {}
unsafe impl Sync for Table {}

/// Huge-page size: the table is aligned to it so the kernel can back it with huge
/// pages (far fewer page faults and TLB misses on random probes).
const HUGE_PAGE: usize = 2 << 20;

impl Table {
    /// A table of about `mb` megabytes (a power of two of 16-byte slots), zeroed.
    /// Aborts when the memory cannot be had (see `try_new`).
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|layout| handle_alloc_error(layout))
    }

    /// `new`, or the layout that could not be allocated.
    pub fn try_new(mb: usize) -> Result<Table, Layout> {
        let bytes = mb.clamp(1, 1 << 20) * 1024 * 1024;
        let mut slots = 1024usize;
        while slots * 2 * 16 <= bytes {
            slots *= 2;
        }
        let len = slots * 2;
        let layout = Layout::from_size_align(len * 8, HUGE_PAGE.min((len * 8).next_power_of_two()))
            .expect("a valid table layout");
        // SAFETY: the memory is zeroed (by the kernel, lazily, or by the allocator), and
        // zero is a valid AtomicU64.
        let words = unsafe { allocate_zeroed(layout) };
        let words = NonNull::new(words as *mut AtomicU64).ok_or(layout)?;
        Ok(Table {
            words,
            len,
            layout,
            mask: slots - 1,
            generation: AtomicU64::new(0),
        })
    }

    #[inline(always)]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: `words` points to `len` initialised AtomicU64 owned by the table.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr(), self.len) }
    }

    /// The table's size in megabytes (the power of two `new` rounded down to).
    pub fn megabytes(&self) -> usize {
        self.len * 8 / (1024 * 1024)
    }

    /// A salt for a new search: keys salted with it never match entries of earlier
    /// searches (another problem's rules), so the table is reused without clearing.
    pub fn new_search(&self) -> u64 {
        let g = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        g.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let i = (key as usize & self.mask) * 2;
        let words = self.words();
        let data = words[i + 1].load(Ordering::Relaxed);
        let check = words[i].load(Ordering::Relaxed);
        (check ^ data == key).then(|| Bounds::unpack(data))
    }

    /// Starts loading the entry of `key` into the cache, for a probe soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = (key as usize & self.mask) * 2;
            // SAFETY: `i` is within the allocation; a prefetch never faults.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.words.as_ptr().add(i) as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Merges a new proof into the entry of `key` (or replaces another position's).
    #[inline]
    pub fn store(&self, key: u64, win: Option<u8>, fail: Option<u8>, hint: u16) {
        let old = self.probe(key).unwrap_or(Bounds {
            win: NO_WIN,
            fail: 0,
            hint: 0,
        });
        let b = Bounds {
            win: win.map_or(old.win, |w| w.min(old.win)),
            fail: fail.map_or(old.fail, |f| f.max(old.fail)),
            hint: if hint != 0 { hint } else { old.hint },
        };
        let data = b.pack();
        let i = (key as usize & self.mask) * 2;
        let words = self.words();
        words[i + 1].store(data, Ordering::Relaxed);
        words[i].store(key ^ data, Ordering::Relaxed);
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: allocated by `allocate_zeroed` with this layout.
        unsafe { free(self.words.as_ptr() as *mut u8, self.layout) }
    }
}

/// Zeroed memory for the table, or null. On Linux an anonymous mapping: the kernel
/// zeroes pages when first touched (no up-front cost for a large table a small problem
/// never fills), and is asked to use huge pages (fewer faults and TLB misses on random
/// probes).
#[cfg(target_os = "linux")]
unsafe fn allocate_zeroed(layout: Layout) -> *mut u8 {
    let ptr = libc::mmap(
        std::ptr::null_mut(),
        layout.size(),
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    if ptr == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    // A hint only: failure leaves ordinary pages.
    libc::madvise(ptr, layout.size(), libc::MADV_HUGEPAGE);
    ptr as *mut u8
}

#[cfg(target_os = "linux")]
unsafe fn free(ptr: *mut u8, layout: Layout) {
    libc::munmap(ptr as *mut libc::c_void, layout.size());
}

#[cfg(not(target_os = "linux"))]
unsafe fn allocate_zeroed(layout: Layout) -> *mut u8 {
    std::alloc::alloc_zeroed(layout)
}

#[cfg(not(target_os = "linux"))]
unsafe fn free(ptr: *mut u8, layout: Layout) {
    std::alloc::dealloc(ptr, layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_survive() {
        let t = Table::new(1);
        t.store(42, None, Some(2), 0);
        t.store(42, Some(4), None, 7);
        let b = t.probe(42).unwrap();
        assert_eq!((b.win, b.fail, b.hint), (4, 2, 7));
        assert!(t.probe(43).is_none());
    }
}
