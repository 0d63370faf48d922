//! Layout words: a type's size, alignment and structure (field offsets and
//! field layouts, or a scalar's kind) in one `u64`, computed by rustc in
//! the device build (the kernel record's [`ArgRecord::layout`]) and in the
//! host build (the launcher), and compared before a launch: a kernel crate
//! built with other features or `cfg`s on the two sides (`type Real = f64`
//! on one, `f32` on the other; a `#[cfg(debug_assertions)]` field) has the
//! same type names but other layouts.
//!
//! ```text
//! bits 0..32 size in bytes   32..40 log2 of the alignment   40..64 structure hash
//! ```
//!
//! [`ArgRecord::layout`]: crate::record::ArgRecord::layout

use crate::kind::ScalarArg;

/// The structure hash's starting value (FNV-1a 64's offset basis).
pub const START: u64 = 0xcbf2_9ce4_8422_2325;

/// `hash` with `value` mixed in (FNV-1a 64 over its 8 bytes).
pub const fn mix(hash: u64, value: u64) -> u64 {
    let bytes = value.to_le_bytes();
    let mut hash = hash;
    let mut i = 0;
    while i < 8 {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// The layout word of a type of `size` bytes, alignment `align` and
/// structure hash `structure`.
pub const fn word(size: usize, align: usize, structure: u64) -> u64 {
    let size = if size > u32::MAX as usize {
        u32::MAX as u64
    } else {
        size as u64
    };
    size | ((align.trailing_zeros() as u64) << 32) | ((structure & 0xff_ffff) << 40)
}

/// The size a layout word records (saturated at `u32::MAX`).
pub const fn size(word: u64) -> u64 {
    word & 0xffff_ffff
}

/// The alignment a layout word records.
pub const fn align(word: u64) -> u64 {
    1 << ((word >> 32) & 0xff)
}

/// The layout word of a scalar: its size, alignment and kind.
pub const fn scalar<T: ScalarArg>() -> u64 {
    word(size_of::<T>(), align_of::<T>(), mix(START, T::KIND as u64))
}

/// The layout word of `[E; len]`, where `E` has the word `elem`.
pub const fn array(size: usize, align: usize, len: usize, elem: u64) -> u64 {
    word(size, align, mix(mix(START, len as u64), elem))
}

/// The structure hash of a struct: [`START`], then [`field`] per field.
pub const fn field(hash: u64, offset: usize, layout: u64) -> u64 {
    mix(mix(hash, offset as u64), layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_size_and_alignment_and_tell_kinds_apart() {
        let f64_word = scalar::<f64>();
        assert_eq!((size(f64_word), align(f64_word)), (8, 8));
        assert_ne!(scalar::<f32>(), scalar::<u32>());
        assert_ne!(scalar::<f32>(), scalar::<f64>());
        let a = field(field(START, 0, scalar::<f32>()), 4, scalar::<f32>());
        let b = field(field(START, 0, scalar::<f32>()), 4, scalar::<u32>());
        assert_ne!(word(8, 4, a), word(8, 4, b));
        assert_eq!(size(word(12, 4, a)), 12);
        assert_eq!(align(word(12, 16, a)), 16);
    }
}
