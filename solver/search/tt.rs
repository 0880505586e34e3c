//! Transposition table of proven bounds, shared lock-free between threads.
//!
//! For a position it keeps the smallest depth known to win for the attacker and the
//! largest depth known not to, plus a move worth trying first. A proof at depth n holds
//! for every greater (win) or smaller (no win) depth, so a stored bound never changes an
//! answer; a torn entry is caught by the key check (key stored xor data).
//!
//! Under Taxi the key may leave the cash out, and each bound records the cash it was
//! proved with (`Cash`). A win proved with attacker cash a and defender cash d is a win
//! with more attacker cash or less defender cash, and a failure the other way round:
//! an attacker's cash only adds moves it can afford and attacks that count as checks
//! (which take moves from the defender), and a defender's cash does the same for the
//! defender (rules.md 2.1-2.3; with Trapdoor too, since a move that mates first is one
//! more such check). So the answer is monotone in each side's cash, and a bound is used
//! only where that carries it.

use std::alloc::{handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

pub const NO_WIN: u8 = u8::MAX;

/// Cash in hand at a node as the table records it: the attacker's and the defender's
/// (zero in games without Taxi). Amounts above `Cash::MAX` are kept in the key instead
/// (see `Searcher`), so these are exact.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cash {
    pub attacker: u8,
    pub defender: u8,
}

impl Cash {
    /// The largest amount an entry records.
    pub const MAX: u32 = u8::MAX as u32;

    /// Whether a win proved with `self` is one with `now`: no less attacker cash, no
    /// more defender cash.
    #[inline(always)]
    pub fn win_holds_at(self, now: Cash) -> bool {
        now.attacker >= self.attacker && now.defender <= self.defender
    }

    /// Whether a failure proved with `self` is one with `now`: no more attacker cash,
    /// no less defender cash.
    #[inline(always)]
    pub fn fail_holds_at(self, now: Cash) -> bool {
        now.attacker <= self.attacker && now.defender >= self.defender
    }

    fn pack(self) -> u64 {
        self.attacker as u64 | (self.defender as u64) << 8
    }

    fn unpack(d: u64) -> Cash {
        Cash {
            attacker: d as u8,
            defender: (d >> 8) as u8,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Smallest n proved winning (NO_WIN: none).
    pub win: u8,
    /// The cash the win was proved with.
    pub win_cash: Cash,
    /// Largest n proved not winning (0: none).
    pub fail: u8,
    /// The cash the failure was proved with.
    pub fail_cash: Cash,
    /// A move index hint (from, to) packed, or 0.
    pub hint: u16,
}

impl Bounds {
    const NONE: Bounds = Bounds {
        win: NO_WIN,
        win_cash: Cash {
            attacker: 0,
            defender: 0,
        },
        fail: 0,
        fail_cash: Cash {
            attacker: 0,
            defender: 0,
        },
        hint: 0,
    };

    /// Whether a win within `n` is proved with `cash`.
    #[inline(always)]
    pub fn wins(&self, n: u32, cash: Cash) -> bool {
        self.win as u32 <= n && self.win_cash.win_holds_at(cash)
    }

    /// Whether no win within `n` is proved with `cash`.
    #[inline(always)]
    pub fn fails(&self, n: u32, cash: Cash) -> bool {
        self.fail as u32 >= n && self.fail_cash.fail_holds_at(cash)
    }

    fn pack(self) -> u64 {
        self.win as u64
            | (self.fail as u64) << 8
            | (self.hint as u64) << 16
            | self.win_cash.pack() << 32
            | self.fail_cash.pack() << 48
    }

    fn unpack(d: u64) -> Bounds {
        Bounds {
            win: d as u8,
            fail: (d >> 8) as u8,
            hint: (d >> 16) as u16,
            win_cash: Cash::unpack(d >> 32),
            fail_cash: Cash::unpack(d >> 48),
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
    pub fn new(mb: usize) -> Table {
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
        let words = unsafe { NonNull::new_unchecked(allocate_zeroed(layout) as *mut AtomicU64) };
        Table {
            words,
            len,
            layout,
            mask: slots - 1,
            generation: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: `words` points to `len` initialised AtomicU64 owned by the table.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr(), self.len) }
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

    /// Merges a new proof, made with `cash`, into the entry of `key` (or replaces
    /// another position's). Of two bounds of a kind the entry keeps the old one when it
    /// implies the new, else the new (the one nearer the search now).
    #[inline]
    pub fn store(&self, key: u64, cash: Cash, win: Option<u8>, fail: Option<u8>, hint: u16) {
        let old = self.probe(key).unwrap_or(Bounds::NONE);
        let mut b = old;
        if let Some(w) = win {
            if !old.wins(w as u32, cash) {
                (b.win, b.win_cash) = (w, cash);
            }
        }
        if let Some(f) = fail {
            if !old.fails(f as u32, cash) {
                (b.fail, b.fail_cash) = (f, cash);
            }
        }
        if hint != 0 {
            b.hint = hint;
        }
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

/// Zeroed memory for the table. On Linux an anonymous mapping: the kernel zeroes pages
/// when first touched (no up-front cost for a large table a small problem never fills),
/// and is asked to use huge pages (fewer faults and TLB misses on random probes).
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
        handle_alloc_error(layout);
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
    let ptr = std::alloc::alloc_zeroed(layout);
    if ptr.is_null() {
        handle_alloc_error(layout);
    }
    ptr
}

#[cfg(not(target_os = "linux"))]
unsafe fn free(ptr: *mut u8, layout: Layout) {
    std::alloc::dealloc(ptr, layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_CASH: Cash = Cash {
        attacker: 0,
        defender: 0,
    };

    #[test]
    fn bounds_merge_and_survive() {
        let t = Table::new(1);
        t.store(42, NO_CASH, None, Some(2), 0);
        t.store(42, NO_CASH, Some(4), None, 7);
        t.store(42, NO_CASH, Some(5), Some(1), 0);
        let b = t.probe(42).unwrap();
        assert_eq!((b.win, b.fail, b.hint), (4, 2, 7));
        assert!(t.probe(43).is_none());
    }

    #[test]
    fn bounds_hold_where_cash_carries_them() {
        let cash = |attacker, defender| Cash { attacker, defender };
        let t = Table::new(1);
        t.store(7, cash(10, 5), Some(3), Some(2), 0);
        let b = t.probe(7).unwrap();
        // A win holds with more attacker cash or less defender cash, at any depth >= 3.
        assert!(b.wins(3, cash(10, 5)) && b.wins(4, cash(12, 5)) && b.wins(3, cash(10, 0)));
        assert!(!b.wins(2, cash(10, 5)));
        assert!(!b.wins(3, cash(9, 5)) && !b.wins(3, cash(10, 6)));
        // A failure the other way round, at any depth <= 2.
        assert!(b.fails(2, cash(10, 5)) && b.fails(1, cash(0, 5)) && b.fails(2, cash(10, 9)));
        assert!(!b.fails(3, cash(10, 5)));
        assert!(!b.fails(2, cash(11, 5)) && !b.fails(2, cash(10, 4)));
        // A weaker proof does not replace a stronger one; an incomparable one does.
        t.store(7, cash(11, 5), Some(4), None, 0);
        assert_eq!(t.probe(7).unwrap().win_cash, cash(10, 5));
        t.store(7, cash(8, 3), Some(3), None, 0);
        assert_eq!(t.probe(7).unwrap().win_cash, cash(8, 3));
    }
}
