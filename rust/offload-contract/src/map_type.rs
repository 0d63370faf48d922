//! libomptarget's map-type bits (`OpenMPOffloadMappingFlags`).
//!
//! One integer type for all of them: `u64`, the bits of the runtime's
//! `int64_t` map types as clang and the passes write them. A field of
//! another type converts with [`to_int64_t`] here or
//! [`ArgRecord`](crate::record::ArgRecord)'s constructors (32 bits).

/// Copy the host data to the device when the mapping begins.
pub const TO: u64 = 0x1;
/// Copy the device data back to the host when the mapping ends.
pub const FROM: u64 = 0x2;
/// The mapping is an argument of the kernel a launch calls.
pub const TARGET_PARAM: u64 = 0x20;
/// The value itself is passed (a scalar), nothing is mapped.
pub const LITERAL: u64 = 0x100;
/// The mapping was not written by the user but implied.
pub const IMPLICIT: u64 = 0x200;

/// A map type as libomptarget's entry points take it (`int64_t *types`).
pub const fn to_int64_t(bits: u64) -> i64 {
    bits.cast_signed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of LLVM's `OpenMPOffloadMappingFlags`
    /// (`llvm/Frontend/OpenMP/OMPConstants.h`: OMP_MAP_TO = 0x01, ...).
    #[test]
    fn bits_are_libomptargets() {
        assert_eq!(
            [TO, FROM, TARGET_PARAM, LITERAL, IMPLICIT],
            [0x01, 0x02, 0x20, 0x100, 0x200]
        );
        assert_eq!(to_int64_t(TO | FROM), 3);
        assert_eq!(to_int64_t(u64::MAX), -1);
    }
}
