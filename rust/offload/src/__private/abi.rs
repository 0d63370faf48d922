//! What a `#[kernel]` expansion names from the launch contract: the kernel
//! record (`offload-build` reads it back from the image, see
//! [`offload_contract::record`]), the map types it writes there, the scalar
//! launch slots, and the signature of the launch stubs `offload-build`
//! generates.

pub use offload_contract::LaunchConfig;
pub use offload_contract::layout;
pub use offload_contract::map_type::{FROM, TO};
pub use offload_contract::record::{ArgRecord, KernelRecord, ScalarArg};

/// Types passed by value in one 8-byte launch slot (their record kind from
/// [`ScalarArg`]).
pub trait Scalar: ScalarArg {
    /// The value's bits, zero-extended to 64.
    fn to_slot(self) -> u64;
}

macro_rules! scalar {
    ($($t:ty => |$v:ident| $e:expr),* $(,)?) => { $(
        impl Scalar for $t {
            #[inline]
            fn to_slot(self) -> u64 {
                let $v = self;
                $e
            }
        }
    )* };
}
scalar!(u8 => |v| v.into(), u16 => |v| v.into(), u32 => |v| v.into(), u64 => |v| v,
    usize => |v| v as u64, i8 => |v| v as u8 as u64, i16 => |v| v as u16 as u64,
    i32 => |v| v as u32 as u64, i64 => |v| v as u64, isize => |v| v as u64);
scalar!(f32 => |v| v.to_bits().into(), f64 => |v| v.to_bits());
scalar!(bool => |v| v.into());

/// A launch stub `offload-build` generates: `(config, argument slots) -> code`.
pub type Stub = unsafe extern "C" fn(*const LaunchConfig, *const u64) -> i32;
