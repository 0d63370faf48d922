//! Static shared arrays: [`shared_array!`](crate::shared_array), CUDA's
//! `__shared__ T tile[N]`, with the phases of [`DynShared`](super::DynShared).

use core::marker::PhantomData;

use offload_contract::grid::STATIC_SHARED_ARRAY_MAX;

use super::SharedSlice;
use crate::AnyBitPattern;

/// One declaration of [`shared_array!`](crate::shared_array): its element
/// layout and length. The macro makes one `static` per declaration, whose
/// address names the team's array (on GPUs the plugin's
/// `offload-shared-memory` pass gives each its own `addrspace(3)` array; on
/// the CPU the launch allocates one per declaration).
#[doc(hidden)]
pub struct StaticSite {
    size: usize,
    align: usize,
    len: usize,
}

impl StaticSite {
    /// The site of `len` `T`s; fails to compile (it runs in a `static`'s
    /// initialiser) over offload-contract's `STATIC_SHARED_ARRAY_MAX` bytes
    /// or for a zero-sized `T`.
    pub const fn new<T: AnyBitPattern>(len: usize) -> Self {
        assert!(
            size_of::<T>() != 0,
            "offload::shared_array!: the element type is zero-sized"
        );
        let fits = match len.checked_mul(size_of::<T>()) {
            Some(bytes) => bytes as u64 <= STATIC_SHARED_ARRAY_MAX,
            None => false,
        };
        assert!(
            fits,
            "offload::shared_array!: a static shared array may have at most 49152 bytes (STATIC_SHARED_ARRAY_MAX: NVIDIA's static shared memory)"
        );
        StaticSite {
            size: size_of::<T>(),
            align: align_of::<T>(),
            len,
        }
    }

    fn bytes(&self) -> usize {
        self.size * self.len
    }
}

/// A static shared array of the team ([`shared_array!`](crate::shared_array)),
/// with the accesses and phases of the dynamic shared memory.
pub type SharedArray<T> = SharedSlice<T>;

/// The team's array of `site` as `T`s (what [`shared_array!`](crate::shared_array)
/// expands to): `None` outside a launch grid, or if `site` was made for
/// another element layout.
#[doc(hidden)]
#[inline(always)]
pub fn static_array<T: AnyBitPattern>(site: &'static StaticSite) -> Option<SharedArray<T>> {
    if (site.size, site.align) != (size_of::<T>(), align_of::<T>()) {
        return None;
    }
    let base = target::static_shared(site)?;
    Some(SharedSlice {
        base: base.cast(),
        len: site.len,
        _thread: PhantomData,
    })
}

/// The GPUs: a call of offload-contract's `grid::STATIC_SHARED_FN` with the
/// site's address and layout, which the plugin's `offload-shared-memory`
/// pass replaces by the address of the site's own `addrspace(3)` array.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod target {
    use super::StaticSite;

    unsafe extern "C" {
        fn __offload_static_shared(site: *const u8, bytes: usize, align: usize) -> *mut u8;
    }

    #[inline(always)]
    pub fn static_shared(site: &'static StaticSite) -> Option<*mut u8> {
        let address = core::ptr::from_ref(site).cast::<u8>();
        // SAFETY: replaced by a constant address (the site's immutable
        // fields fold to the constants the pass requires).
        Some(unsafe { __offload_static_shared(address, site.bytes(), site.align) })
    }
}

/// The CPU: the launch's allocation for the site (`None` outside a grid).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use super::StaticSite;

    pub fn static_shared(site: &'static StaticSite) -> Option<*mut u8> {
        let address = core::ptr::from_ref(site) as usize;
        crate::cpu_grid::current().map(|t| t.static_shared(address, site.bytes(), site.align))
    }
}
