//! Static shared arrays: [`shared_array!`](crate::shared_array), CUDA's
//! `__shared__ T tile[N]`, with the phases of [`DynShared`](super::DynShared).

use core::marker::PhantomData;

use offload_contract::grid::STATIC_SHARED_ARRAY_MAX;

use super::{check_get, check_set};
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

/// A static shared array of the team ([`shared_array!`](crate::shared_array)):
/// a handle per thread (neither `Send` nor `Sync`: it checks this thread's
/// phase), with the accesses of [`DynShared`](super::DynShared).
pub struct SharedArray<T> {
    base: *mut T,
    len: usize,
    _thread: PhantomData<*mut T>,
}

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
    Some(SharedArray {
        base: base.cast(),
        len: site.len,
        _thread: PhantomData,
    })
}

impl<T: AnyBitPattern> SharedArray<T> {
    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes element `i`: in a write phase, an element this thread owns.
    ///
    /// # Panics
    /// If `i` is out of bounds, the team is in a read phase or another
    /// thread owns `i` (see the [module docs](super)).
    #[inline]
    #[track_caller]
    pub fn set(&self, i: usize, value: T) {
        check_set(i, self.len);
        // SAFETY: in bounds; in this phase no other thread touches element
        // `i` (the module docs).
        unsafe { self.base.add(i).write(value) }
    }

    /// Reads element `i`: any element in a read phase, an element this
    /// thread owns in a write phase.
    ///
    /// # Panics
    /// If `i` is out of bounds, or the team is in a write phase and another
    /// thread owns `i`.
    #[inline]
    #[track_caller]
    pub fn get(&self, i: usize) -> T {
        check_get(i, self.len);
        // SAFETY: in bounds; no thread writes element `i` in this phase but
        // this one (the module docs); any bits are a `T`.
        unsafe { self.base.add(i).read() }
    }

    /// The indices this thread owns: `thread_rank()`, then every
    /// `team_size()` further, below `len`.
    #[inline]
    pub fn own_indices(&self) -> crate::GridStride {
        crate::GridStride::new(
            crate::index::thread_rank(),
            crate::index::team_size(),
            self.len,
        )
    }

    /// The array's address, for accesses the phases do not allow.
    ///
    /// # Safety
    /// Valid for `len` `T`s during the kernel; every thread of the team sees
    /// the same array. The caller makes sure no two threads access an
    /// element at the same time unless all do so by reading (or atomically):
    /// a write and another access of the same element are ordered by
    /// [`sync_threads`](crate::sync_threads) or by fences and atomics.
    #[inline]
    pub unsafe fn as_ptr(&self) -> *mut T {
        self.base
    }
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
