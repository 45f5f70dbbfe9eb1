//! A map from tool names, hashed for speed: every call looks its tool up by
//! name, and std's default hasher (SipHash, built to resist inputs chosen
//! to collide) cost more than the lookup itself. Names are few and chosen
//! by the program that registers them; a model's name only reads the map,
//! so it cannot grow a bucket.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` keyed by tool name, with [`NameHasher`].
pub(crate) type NameMap<V> = HashMap<String, V, BuildHasherDefault<NameHasher>>;

/// The rotate-xor-multiply hash of rustc's `FxHasher`, eight bytes at a
/// time.
#[derive(Default)]
pub(crate) struct NameHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl NameHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            self.add(u64::from_le_bytes(eight));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut eight = [0u8; 8];
            eight[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(eight) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn names_that_differ_only_in_length_or_tail_are_told_apart() {
        let mut map = NameMap::default();
        let names = ["a", "a\0", "echo", "echo2", "12345678", "123456789", ""];
        for (index, name) in names.iter().enumerate() {
            map.insert((*name).to_owned(), index);
        }
        for (index, name) in names.iter().enumerate() {
            assert_eq!(map.get(*name), Some(&index), "{name:?}");
        }
        assert_eq!(map.get("missing"), None);
        // The map finds them even through collisions; the hash itself must
        // tell them apart too (the length is mixed into the last word, so
        // "a" and "a\0" differ), or every lookup of one walks past the other.
        let hashes: std::collections::HashSet<u64> = names
            .iter()
            .map(|name| map.hasher().hash_one(name))
            .collect();
        assert_eq!(hashes.len(), names.len());
    }
}
