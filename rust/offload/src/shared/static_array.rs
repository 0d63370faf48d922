//! Static shared arrays: [`shared_array!`](crate::shared_array), CUDA's
//! `__shared__ T tile[N]`, with the phases of [`DynShared`](super::DynShared).

use core::marker::PhantomData;

use offload_contract::grid::STATIC_SHARED_ARRAY_MAX;

use super::SharedSlice;
use crate::AnyBitPattern;
use crate::atomic::DeviceAtomic;

/// One declaration of [`shared_array!`](crate::shared_array): its element
/// layout and length. The macro makes one `static` per declaration, whose
/// address names the team's array (on GPUs the plugin's
/// `offload-shared-memory` pass gives each its own `addrspace(3)` array; on
/// the CPU the launch allocates one per declaration).
#[doc(hidden)]
pub struct StaticSite {
    pub(super) size: usize,
    pub(super) align: usize,
    pub(super) len: usize,
    /// The bytes and alignment the team's memory for the site takes: the
    /// elements, and for a [`shared_tile!`](crate::shared_tile) its
    /// per-element records and its header after them.
    pub(super) bytes: usize,
    pub(super) memory_align: usize,
    /// Made by [`tile`](Self::tile): only a tile may view it (its phases
    /// are the tile's, not those of a plain array).
    pub(super) is_tile: bool,
}

impl StaticSite {
    /// The site of `len` `T`s; fails to compile (it runs in a `static`'s
    /// initialiser) over offload-contract's `STATIC_SHARED_ARRAY_MAX` bytes
    /// or for a zero-sized `T`.
    pub const fn new<T: AnyBitPattern>(len: usize) -> Self {
        Self::of_layout(size_of::<T>(), align_of::<T>(), len)
    }

    /// The site of `len` atomics `A` ([`shared_atomic_array!`](crate::shared_atomic_array)),
    /// with the checks of [`new`](Self::new).
    pub const fn atomics<A: DeviceAtomic>(len: usize) -> Self {
        Self::of_layout(size_of::<A>(), align_of::<A>(), len)
    }

    const fn of_layout(size: usize, align: usize, len: usize) -> Self {
        assert!(
            size != 0,
            "offload::shared_array!: the element type is zero-sized"
        );
        let fits = match len.checked_mul(size) {
            Some(bytes) => bytes as u64 <= STATIC_SHARED_ARRAY_MAX,
            None => false,
        };
        assert!(
            fits,
            "offload::shared_array!: a static shared array may have at most 49152 bytes (STATIC_SHARED_ARRAY_MAX: NVIDIA's static shared memory)"
        );
        StaticSite {
            size,
            align,
            len,
            bytes: size * len,
            memory_align: align,
            is_tile: false,
        }
    }

    /// Whether the site was made for `T`s.
    pub(super) fn holds<T>(&self) -> bool {
        (self.size, self.align) == (size_of::<T>(), align_of::<T>())
    }

    pub(super) fn len(&self) -> usize {
        self.len
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
    if !site.holds::<T>() || site.is_tile {
        return None;
    }
    let base = target::static_shared(site)?;
    Some(SharedSlice {
        base: base.cast(),
        len: site.len,
        _thread: PhantomData,
    })
}

/// A static shared array of atomics of the team
/// ([`shared_atomic_array!`](crate::shared_atomic_array)): every access is
/// atomic, so any thread may update any element in any phase (CUDA's
/// `atomicAdd` on `__shared__` memory). Uninitialised on GPUs (and holding
/// the previous team's values on the CPU): a team stores its start values,
/// each thread its [`own_indices`](Self::own_indices), then
/// [`sync_threads`](crate::sync_threads), before it counts. A handle per
/// thread (neither `Send` nor `Sync`).
pub struct SharedAtomics<A> {
    base: *const A,
    len: usize,
    _thread: PhantomData<*const A>,
}

impl<A: DeviceAtomic> SharedAtomics<A> {
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

    /// Element `i`, to update atomically.
    ///
    /// # Panics
    /// If `i` is out of bounds.
    #[inline]
    #[track_caller]
    pub fn get(&self, i: usize) -> &A {
        if i >= self.len {
            super::fail::index_out_of_bounds("", i, self.len);
        }
        // SAFETY: in bounds of the team's array, valid and aligned for `A`
        // for the whole kernel; every access of it is atomic (the array is
        // never viewed otherwise), and any bits are a value of an integer
        // or float atomic.
        unsafe { &*self.base.add(i) }
    }

    /// The indices this thread initialises: `thread_rank()`, then every
    /// `team_size()` further, below `len`.
    #[inline]
    pub fn own_indices(&self) -> crate::GridStride {
        super::own_indices(self.len)
    }
}

/// The team's atomics array of `site` (what
/// [`shared_atomic_array!`](crate::shared_atomic_array) expands to): `None`
/// outside a launch grid, or if `site` was made for another layout.
#[doc(hidden)]
#[inline(always)]
pub fn static_atomics<A: DeviceAtomic>(site: &'static StaticSite) -> Option<SharedAtomics<A>> {
    if !site.holds::<A>() || site.is_tile {
        return None;
    }
    let base = target::static_shared(site)?;
    Some(SharedAtomics {
        base: base.cast_const().cast(),
        len: site.len,
        _thread: PhantomData,
    })
}

/// The GPUs: a call of offload-contract's `grid::STATIC_SHARED_FN` with the
/// site's address and layout, which the plugin's `offload-shared-memory`
/// pass replaces by the address of the site's own `addrspace(3)` array.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(super) mod target {
    use super::StaticSite;

    unsafe extern "C" {
        fn __offload_static_shared(site: *const u8, bytes: usize, align: usize) -> *mut u8;
    }

    #[inline(always)]
    pub fn static_shared(site: &'static StaticSite) -> Option<*mut u8> {
        let address = core::ptr::from_ref(site).cast::<u8>();
        // SAFETY: replaced by a constant address (the site's immutable
        // fields fold to the constants the pass requires).
        Some(unsafe { __offload_static_shared(address, site.bytes, site.memory_align) })
    }
}

/// The CPU: the launch's allocation for the site (`None` outside a grid).
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
pub(super) mod target {
    use super::StaticSite;

    pub fn static_shared(site: &'static StaticSite) -> Option<*mut u8> {
        let address = core::ptr::from_ref(site) as usize;
        let base = crate::cpu_grid::hooks::__offload_cpu_static_shared(
            address,
            site.bytes,
            site.memory_align,
        );
        (!base.is_null()).then_some(base)
    }
}
