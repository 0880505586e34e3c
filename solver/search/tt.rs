//! Transposition table of proven bounds, shared lock-free between threads.
//!
//! For a position it keeps the smallest depth known to win for the attacker and the
//! largest depth known not to, plus a move worth trying first. A proof at depth n holds
//! for every greater (win) or smaller (no win) depth, so a stored bound never changes an
//! answer; a torn entry is caught by the key check (key stored xor data).

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
    words: Box<[AtomicU64]>,
    mask: usize,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of 16-byte slots). The memory
    /// comes zeroed from the allocator, so pages are only touched when used.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.clamp(1, 1 << 20) * 1024 * 1024;
        let mut slots = 1024usize;
        while slots * 2 * 16 <= bytes {
            slots *= 2;
        }
        let zeroed = vec![0u64; slots * 2].into_boxed_slice();
        // SAFETY: AtomicU64 has the same size and alignment as u64 (checked below) and
        // zero is a valid value of it; the box is reinterpreted element for element.
        const _: () = assert!(
            std::mem::size_of::<AtomicU64>() == 8 && std::mem::align_of::<AtomicU64>() == 8
        );
        let words = unsafe { Box::from_raw(Box::into_raw(zeroed) as *mut [AtomicU64]) };
        Table {
            words,
            mask: slots - 1,
            generation: AtomicU64::new(0),
        }
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
        let data = self.words[i + 1].load(Ordering::Relaxed);
        let check = self.words[i].load(Ordering::Relaxed);
        (check ^ data == key).then(|| Bounds::unpack(data))
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
        self.words[i + 1].store(data, Ordering::Relaxed);
        self.words[i].store(key ^ data, Ordering::Relaxed);
    }
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
