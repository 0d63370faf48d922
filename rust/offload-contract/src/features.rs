//! The feature word: which of a kernel crate's features (the keys of its
//! manifest's `[features]` table and the implicit features of its optional
//! dependencies, sorted by name) are enabled in a build, one bit
//! each. `#[kernel]` computes it with `cfg!(feature = ...)` in both builds
//! of the kernel crate; the device build's word is in the kernel's record,
//! and the host's launcher refuses a launch when its own word differs
//! ([`FEATURE_MISMATCH`](crate::launch_code::FEATURE_MISMATCH)).
//!
//! A crate with more than 64 features folds them (feature `i` is bit
//! `i % 64`): two features that share a bit and are both toggled go
//! unnoticed, any other difference is seen.

/// The bit of the feature at `index` among the sorted names.
pub const fn bit(index: usize) -> u64 {
    1 << (index % 64)
}

#[cfg(test)]
mod tests {
    #[test]
    fn features_fold_into_64_bits() {
        assert_eq!(super::bit(0), 1);
        assert_eq!(super::bit(63), 1 << 63);
        assert_eq!(super::bit(64), 1);
    }
}
