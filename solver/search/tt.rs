//! Transposition table of proven bounds, shared lock-free between threads.
//!
//! For a position it keeps the smallest depth known to win for the attacker and the
//! largest depth known not to, plus a move worth trying first. A proof at depth n holds
//! for every greater (win) or smaller (no win) depth, so a stored bound never changes an
//! answer; a torn entry is caught by the key check (key stored xor data).

use std::alloc::{handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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
    /// The slots in use, less one: the table starts small and grows (see `store`).
    mask: AtomicUsize,
    /// The slots of the whole allocation, less one: `--hash` is the bound.
    max_mask: usize,
    generation: AtomicU64,
    /// Slots filled, counted on one store in `FILL_SAMPLE` (on a line of its own: the
    /// threads write it, and the probes read `mask` beside it).
    filled: Padded,
}

#[repr(align(64))]
struct Padded(AtomicU64);

/// The slots a table starts with (1 MB): a small problem touches no more memory than
/// its search fills, which on a one-problem run costs as much as the search itself.
const START_SLOTS: usize = 1 << 16;

/// One store in this many (by the key's high bits) counts toward the fill.
const FILL_SAMPLE: u64 = 64;

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
            mask: AtomicUsize::new(slots.min(START_SLOTS) - 1),
            max_mask: slots - 1,
            generation: AtomicU64::new(0),
            filled: Padded(AtomicU64::new(0)),
        })
    }

    #[inline(always)]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: `words` points to `len` initialised AtomicU64 owned by the table.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr(), self.len) }
    }

    /// Back to the state `new` leaves: every entry empty, the first size, no search
    /// begun. A count of nodes then depends on the search alone (the entries a reused
    /// table holds decide what it keeps, and so what is searched again).
    pub fn clear(&mut self) {
        // SAFETY: `&mut self`: no other reference reads the words while they are
        // zeroed, and zero is a valid AtomicU64.
        unsafe { std::ptr::write_bytes(self.words.as_ptr(), 0, self.len) };
        self.mask = AtomicUsize::new((self.max_mask + 1).min(START_SLOTS) - 1);
        self.generation = AtomicU64::new(0);
        self.filled = Padded(AtomicU64::new(0));
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

    /// The slots in use now.
    pub fn slots(&self) -> usize {
        self.mask.load(Ordering::Relaxed) + 1
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key as usize & self.mask.load(Ordering::Relaxed)) * 2
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let i = self.index(key);
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
            let i = self.index(key);
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
        let i = self.index(key);
        let words = self.words();
        if key >> 58 == 0 && words[i + 1].load(Ordering::Relaxed) == 0 {
            self.count_fill();
        }
        words[i + 1].store(data, Ordering::Relaxed);
        words[i].store(key ^ data, Ordering::Relaxed);
    }

    /// Counts a sampled store into an empty slot; when half the slots in use are
    /// filled, four times as many are used (up to the allocation). The entries already
    /// stored stay where they are: a probe that no longer finds one costs only time,
    /// and one that finds another position's slot is refused by the key check, so no
    /// size of the table changes an answer.
    #[cold]
    fn count_fill(&self) {
        let filled = self.filled.0.fetch_add(1, Ordering::Relaxed) + 1;
        let mask = self.mask.load(Ordering::Relaxed);
        if mask < self.max_mask && filled * FILL_SAMPLE * 2 > (mask as u64 + 1) {
            let grown = ((mask + 1) * 4 - 1).min(self.max_mask);
            let _ = self
                .mask
                .compare_exchange(mask, grown, Ordering::Relaxed, Ordering::Relaxed);
        }
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

    /// A cleared table is the table `new` makes: nothing found, the first size, the
    /// first salt.
    #[test]
    fn a_cleared_table_is_a_new_one() {
        let mut t = Table::new(4);
        let first_salt = Table::new(4).new_search();
        t.new_search();
        for k in 1..=(2 * START_SLOTS as u64) {
            t.store(k, Some(1), None, 0);
        }
        assert!(t.slots() > START_SLOTS && t.probe(7).is_some());
        t.clear();
        assert_eq!(t.slots(), START_SLOTS);
        assert!((1..=(2 * START_SLOTS as u64)).all(|k| t.probe(k).is_none()));
        assert_eq!(t.new_search(), first_salt);
    }

    #[test]
    fn the_table_grows_as_it_fills_and_keeps_its_bound() {
        let t = Table::new(4);
        assert_eq!(t.slots(), START_SLOTS);
        // Keys whose high bits are zero count toward the fill.
        for k in 1..=(START_SLOTS as u64) {
            t.store(k, Some(1), None, 0);
        }
        assert_eq!(t.slots(), 4 * START_SLOTS);
        for k in 1..=(64 * START_SLOTS as u64) {
            t.store(k, Some(1), None, 0);
        }
        // 4 MB: 262144 slots, the bound.
        assert_eq!(t.slots(), 4 * 1024 * 1024 / 16);
        // Whatever is found is what was stored for that key.
        for k in 1..=(64 * START_SLOTS as u64) {
            if let Some(b) = t.probe(k) {
                assert_eq!(b.win, 1);
            }
        }
        assert!(t.probe(u64::MAX).is_none());
    }

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
