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

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) * 1024 * 1024) / std::mem::size_of::<Slot>();
        let size = want.next_power_of_two().max(1) / if want.is_power_of_two() { 1 } else { 2 };
        let size = size.max(1024);
        let slots = (0..size)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            mask: size - 1,
        }
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
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
        let slot = &self.slots[key as usize & self.mask];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
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
