//! Unguessable names: 128 random bits from the system, in hex. A player's link is the
//! only proof of who is asking, so it must not be derivable from anything else.

use std::io::Read;

/// 32 hex digits of system randomness.
pub fn fresh() -> String {
    let mut bytes = [0u8; 16];
    if !system_random(&mut bytes) {
        // No /dev/urandom (not Unix): the standard library's hasher keys come from the
        // system's random source too; two of them give 128 bits.
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn system_random(bytes: &mut [u8]) -> bool {
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(bytes))
        .is_ok()
}

/// Whether `text` could be a name made by `fresh` (checked before it is used as a key
/// or a file name).
pub fn well_formed(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Equality that takes as long whatever the first difference: a token compared byte by
/// byte would tell by its timing how much of a guess was right.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_well_formed_and_differ() {
        let a = fresh();
        let b = fresh();
        assert!(well_formed(&a) && well_formed(&b));
        assert_ne!(a, b);
        assert!(!well_formed("0123"));
        assert!(!well_formed(&"g".repeat(32)));
        assert!(same(&a, &a.clone()) && !same(&a, &b) && !same(&a, "x"));
    }
}
