//! Warp (NVIDIA) or wavefront (AMD) operations: the lane id, the warp size,
//! shuffles, votes and a warp reduction.
//!
//! A warp is a group of [`warp_size`] consecutive threads of a team (by
//! [`thread_rank`](crate::index::thread_rank)): 32 on NVIDIA GPUs, 64 or 32
//! on AMD GPUs (queried, `llvm.amdgcn.wavefrontsize`: gfx90a is wave64), and
//! [`CPU_WARP_SIZE`] (32) on the CPU, where the threads of a warp really
//! exchange their values. Write kernels with [`warp_size`], not a constant.
//!
//! Every function here is a collective: **every thread of the warp** calls
//! it, at the same point (not in a branch some lanes skip). offload-build
//! checks this at build time (docs/uniformity.md); the `*_unchecked` forms
//! are the same operations with the rule as their `unsafe` contract, for
//! kernels that keep it by means the check cannot see. On the CPU a
//! team's last warp may be partial (a team size not a multiple of 32): its
//! lanes exchange among themselves, and a lane reading a lane that does not
//! exist gets its own value. On GPUs give teams a multiple of the warp size.
//!
//! ```
//! use offload::atomic::{AtomicF32, Ordering};
//! use offload::{kernel, warp};
//!
//! /// The sum of each warp's values, stored by its first lane.
//! #[kernel]
//! pub fn warp_sums(x: &[f32], out: &[AtomicF32]) {
//!     let i = offload::index::global_id();
//!     let v = if i < x.len() { x[i] } else { 0.0 };
//!     let sum = warp::reduce_add(v);
//!     let w = i / warp::warp_size() as usize;
//!     if warp::lane_id() == 0 && w < out.len() {
//!         out[w].store(sum, Ordering::Relaxed);
//!     }
//! }
//! ```

pub use offload_contract::grid::CPU_WARP_SIZE;

/// A value the warp operations exchange: 32- and 64-bit integers and floats
/// (every bit pattern is valid, so a value from a lane that did not offer
/// one is still a value).
pub trait WarpValue: Copy + sealed::Sealed {
    #[doc(hidden)]
    fn to_bits(self) -> u64;
    #[doc(hidden)]
    fn from_bits(bits: u64) -> Self;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! warp_values {
    ($($t:ty => $via:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl WarpValue for $t {
            #[inline(always)]
            fn to_bits(self) -> u64 {
                <$via>::from_ne_bytes(self.to_ne_bytes()) as u64
            }
            #[inline(always)]
            fn from_bits(bits: u64) -> Self {
                <$t>::from_ne_bytes((bits as $via).to_ne_bytes())
            }
        }
    )*};
}
warp_values!(u32 => u32, i32 => u32, f32 => u32, u64 => u64, i64 => u64, f64 => u64);

/// Whether `T` fits in one 32-bit register exchange.
const fn narrow<T>() -> bool {
    size_of::<T>() <= 4
}

/// The number of lanes in a warp: 32 on NVIDIA GPUs, the wavefront size on
/// AMD GPUs (64 on gfx90a), [`CPU_WARP_SIZE`] on the CPU.
#[inline]
pub fn warp_size() -> u32 {
    target::warp_size()
}

/// This thread's lane in its warp, in `0..warp_size()`.
#[inline]
pub fn lane_id() -> u32 {
    target::lane_id()
}

/// The value of lane `src_lane` (modulo the warp size) of this warp
/// (`__shfl_sync`).
#[inline]
#[track_caller]
pub fn shuffle<T: WarpValue>(value: T, src_lane: u32) -> T {
    T::from_bits(target::shuffle::<false>(
        value.to_bits(),
        src_lane % warp_size(),
        narrow::<T>(),
    ))
}

/// The value of lane `lane_id() + delta`, or this lane's own where that is
/// past the warp's end (`__shfl_down_sync`).
#[inline]
#[track_caller]
pub fn shuffle_down<T: WarpValue>(value: T, delta: u32) -> T {
    T::from_bits(target::shuffle::<false>(
        value.to_bits(),
        down_lane(delta),
        narrow::<T>(),
    ))
}

/// The value of lane `lane_id() ^ mask`, or this lane's own where that is
/// past the warp's end (`__shfl_xor_sync`).
#[inline]
#[track_caller]
pub fn shuffle_xor<T: WarpValue>(value: T, mask: u32) -> T {
    T::from_bits(target::shuffle::<false>(
        value.to_bits(),
        xor_lane(mask),
        narrow::<T>(),
    ))
}

/// Bit `i` set for each lane `i` of the warp whose `predicate` is true
/// (`__ballot_sync`; 64 bits for AMD's wave64).
#[inline]
#[track_caller]
pub fn ballot(predicate: bool) -> u64 {
    target::ballot::<false>(predicate)
}

/// Whether `predicate` is true in every lane of the warp (`__all_sync`).
#[inline]
#[track_caller]
pub fn all(predicate: bool) -> bool {
    ballot(predicate) == ballot(true)
}

/// Whether `predicate` is true in some lane of the warp (`__any_sync`).
#[inline]
#[track_caller]
pub fn any(predicate: bool) -> bool {
    ballot(predicate) != 0
}

/// `op` over the values of every lane of the warp, in every lane: a
/// butterfly of [`shuffle_xor`]s on GPUs, every lane's value in lane order
/// on the CPU. `op` must be associative and commutative (floating-point
/// sums may round differently per target).
#[inline]
#[track_caller]
pub fn reduce<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
    target::reduce::<false, T>(value, op)
}

/// The sum of the warp's values, in every lane.
#[inline]
#[track_caller]
pub fn reduce_add<T: WarpValue + core::ops::Add<Output = T>>(value: T) -> T {
    reduce(value, |a, b| a + b)
}

/// The source lane of [`shuffle_down`].
#[inline]
fn down_lane(delta: u32) -> u32 {
    let src = lane_id().saturating_add(delta);
    if src < warp_size() { src } else { lane_id() }
}

/// The source lane of [`shuffle_xor`].
#[inline]
fn xor_lane(mask: u32) -> u32 {
    let src = lane_id() ^ mask;
    if src < warp_size() { src } else { lane_id() }
}

/// [`shuffle`] without the build-time check that every lane of the warp
/// reaches it.
///
/// # Safety
/// Every lane of the warp that has not returned from the kernel reaches
/// this same call site, the same number of times, in the same order
/// relative to the warp's other operations and the team's barriers
/// (`shfl.sync` with a full mask on NVIDIA GPUs, `ds_bpermute` on AMD GPUs,
/// an exchange of the warp's threads on the CPU). The same holds for every
/// `*_unchecked` function of this module.
#[inline]
#[track_caller]
pub unsafe fn shuffle_unchecked<T: WarpValue>(value: T, src_lane: u32) -> T {
    T::from_bits(target::shuffle::<true>(
        value.to_bits(),
        src_lane % warp_size(),
        narrow::<T>(),
    ))
}

/// [`shuffle_down`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn shuffle_down_unchecked<T: WarpValue>(value: T, delta: u32) -> T {
    T::from_bits(target::shuffle::<true>(
        value.to_bits(),
        down_lane(delta),
        narrow::<T>(),
    ))
}

/// [`shuffle_xor`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn shuffle_xor_unchecked<T: WarpValue>(value: T, mask: u32) -> T {
    T::from_bits(target::shuffle::<true>(
        value.to_bits(),
        xor_lane(mask),
        narrow::<T>(),
    ))
}

/// [`ballot`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn ballot_unchecked(predicate: bool) -> u64 {
    target::ballot::<true>(predicate)
}

/// [`all`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn all_unchecked(predicate: bool) -> bool {
    // SAFETY: the caller's promise covers both ballots of this site.
    unsafe { ballot_unchecked(predicate) == ballot_unchecked(true) }
}

/// [`any`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn any_unchecked(predicate: bool) -> bool {
    // SAFETY: the caller's promise.
    unsafe { ballot_unchecked(predicate) != 0 }
}

/// [`reduce`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn reduce_unchecked<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
    target::reduce::<true, T>(value, op)
}

/// [`reduce_add`] without the build-time check.
///
/// # Safety
/// As [`shuffle_unchecked`].
#[inline]
#[track_caller]
pub unsafe fn reduce_add_unchecked<T: WarpValue + core::ops::Add<Output = T>>(value: T) -> T {
    // SAFETY: the caller's promise.
    unsafe { reduce_unchecked(value, |a, b| a + b) }
}

/// The reduction of a GPU: `log2(warp_size())` butterfly steps.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
fn butterfly<const UNCHECKED: bool, T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
    let mut v = value;
    let mut mask = warp_size() / 2;
    while mask > 0 {
        let bits = target::shuffle::<UNCHECKED>(v.to_bits(), xor_lane(mask), narrow::<T>());
        v = op(v, T::from_bits(bits));
        mask /= 2;
    }
    v
}

#[cfg(target_arch = "nvptx64")]
mod target {
    use super::WarpValue;

    const FULL: u32 = u32::MAX;
    /// The shuffle's clamp and segment mask for whole-warp shuffles.
    const CLAMP: u32 = 0x1f;

    unsafe extern "C" {
        #[link_name = "llvm.nvvm.read.ptx.sreg.laneid"]
        fn laneid() -> u32;
        #[link_name = "llvm.nvvm.read.ptx.sreg.warpsize"]
        fn warpsize() -> u32;
        #[link_name = "llvm.nvvm.shfl.sync.idx.i32"]
        fn shfl_idx(mask: u32, value: u32, lane: u32, clamp: u32) -> u32;
        #[link_name = "llvm.nvvm.vote.ballot.sync"]
        fn vote_ballot(mask: u32, predicate: bool) -> u32;
    }

    pub fn warp_size() -> u32 {
        // SAFETY: reads a special register.
        unsafe { warpsize() }
    }

    pub fn lane_id() -> u32 {
        // SAFETY: reads a special register.
        unsafe { laneid() }
    }

    /// One 32-bit `shfl.sync.idx`, or its never-inlined `unsafe` form.
    fn shfl<const UNCHECKED: bool>(value: u32, src: u32) -> u32 {
        if UNCHECKED {
            // SAFETY: the `*_unchecked` caller's promise.
            unsafe { __offload_unchecked_shfl_sync_idx(value, src) }
        } else {
            // SAFETY: `shfl.sync` over the whole warp, which every lane
            // reaches (the module's contract, checked at build time).
            unsafe { shfl_idx(FULL, value, src, CLAMP) }
        }
    }

    /// `shfl.sync.idx` of the `unsafe` forms, never inlined, so the
    /// build-time check (which skips `__offload_unchecked_*`) tells it
    /// apart.
    ///
    /// # Safety
    /// Every lane of the warp reaches it (the `*_unchecked` contract).
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_shfl_sync_idx(value: u32, src: u32) -> u32 {
        // SAFETY: the caller's promise.
        unsafe { shfl_idx(FULL, value, src, CLAMP) }
    }

    /// `vote.sync.ballot` of the `unsafe` forms (see above).
    ///
    /// # Safety
    /// As `__offload_unchecked_shfl_sync_idx`.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_vote_ballot_sync(predicate: bool) -> u32 {
        // SAFETY: the caller's promise.
        unsafe { vote_ballot(FULL, predicate) }
    }

    pub fn shuffle<const UNCHECKED: bool>(bits: u64, src: u32, narrow: bool) -> u64 {
        let lo = shfl::<UNCHECKED>(bits as u32, src);
        if narrow {
            return u64::from(lo);
        }
        let hi = shfl::<UNCHECKED>((bits >> 32) as u32, src);
        u64::from(lo) | u64::from(hi) << 32
    }

    pub fn ballot<const UNCHECKED: bool>(predicate: bool) -> u64 {
        if UNCHECKED {
            // SAFETY: the `*_unchecked` caller's promise.
            u64::from(unsafe { __offload_unchecked_vote_ballot_sync(predicate) })
        } else {
            // SAFETY: `vote.sync.ballot` over the whole warp, as above.
            u64::from(unsafe { vote_ballot(FULL, predicate) })
        }
    }

    pub fn reduce<const UNCHECKED: bool, T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        super::butterfly::<UNCHECKED, T>(value, op)
    }
}

#[cfg(target_arch = "amdgpu")]
mod target {
    use super::WarpValue;
    use core::arch::amdgpu as gpu;

    pub fn warp_size() -> u32 {
        gpu::wavefrontsize()
    }

    pub fn lane_id() -> u32 {
        gpu::mbcnt_hi(u32::MAX, gpu::mbcnt_lo(u32::MAX, 0))
    }

    /// One 32-bit `ds_bpermute` of lane `src`, or its never-inlined
    /// `unsafe` form.
    fn bpermute<const UNCHECKED: bool>(value: u32, src: u32) -> u32 {
        if UNCHECKED {
            // SAFETY: the `*_unchecked` caller's promise.
            unsafe { __offload_unchecked_ds_bpermute(src * 4, value) }
        } else {
            // SAFETY: `ds_bpermute` reads lane `src` (< the wavefront size)
            // of the wavefront, every lane of which reaches it (the
            // contract, checked at build time).
            unsafe { gpu::ds_bpermute(src * 4, value) }
        }
    }

    /// `ds_bpermute` of the `unsafe` forms, never inlined, so the
    /// build-time check (which skips `__offload_unchecked_*`) tells it
    /// apart.
    ///
    /// # Safety
    /// Every lane of the wavefront reaches it (the `*_unchecked`
    /// contract); `address / 4` is a lane of the wavefront.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_ds_bpermute(address: u32, value: u32) -> u32 {
        // SAFETY: the caller's promise.
        unsafe { gpu::ds_bpermute(address, value) }
    }

    /// `ballot` of the `unsafe` forms (see above).
    ///
    /// # Safety
    /// Every lane of the wavefront reaches it.
    #[unsafe(no_mangle)]
    #[inline(never)]
    pub unsafe extern "C" fn __offload_unchecked_ballot(predicate: bool) -> u64 {
        gpu::ballot(predicate)
    }

    pub fn shuffle<const UNCHECKED: bool>(bits: u64, src: u32, narrow: bool) -> u64 {
        let lo = bpermute::<UNCHECKED>(bits as u32, src);
        if narrow {
            return u64::from(lo);
        }
        let hi = bpermute::<UNCHECKED>((bits >> 32) as u32, src);
        u64::from(lo) | u64::from(hi) << 32
    }

    pub fn ballot<const UNCHECKED: bool>(predicate: bool) -> u64 {
        if UNCHECKED {
            // SAFETY: the `*_unchecked` caller's promise.
            unsafe { __offload_unchecked_ballot(predicate) }
        } else {
            gpu::ballot(predicate)
        }
    }

    pub fn reduce<const UNCHECKED: bool, T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        super::butterfly::<UNCHECKED, T>(value, op)
    }
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use core::panic::Location;

    use super::{CPU_WARP_SIZE, WarpValue};
    use crate::cpu_grid::current;
    use crate::cpu_grid::hooks::{
        __offload_cpu_thread_rank, __offload_cpu_warp_exchange, __offload_cpu_warp_release,
        __offload_unchecked_warp_exchange, __offload_unchecked_warp_release,
    };

    pub fn warp_size() -> u32 {
        CPU_WARP_SIZE
    }

    pub fn lane_id() -> u32 {
        __offload_cpu_thread_rank() % CPU_WARP_SIZE
    }

    /// Offers `bits` to the warp and returns what `read` makes of every
    /// lane's offer (by lane); host code is a warp of one lane.
    /// The `unsafe` forms call the `__offload_unchecked_*` hooks, which
    /// forward to the same exchange.
    #[track_caller]
    fn exchange<const UNCHECKED: bool, R>(bits: u64, read: impl FnOnce(&[u64]) -> R) -> R {
        let site = Location::caller();
        let rank = __offload_cpu_thread_rank();
        let lanes = current().map_or(1, |t| t.lanes_of_warp(rank));
        let own = bits;
        let offers = if UNCHECKED {
            __offload_unchecked_warp_exchange(&own, site)
        } else {
            __offload_cpu_warp_exchange(&own, site)
        };
        // SAFETY: the hook returns the `lanes` offers of this thread's
        // warp, valid (and `own` alive) until the release below.
        let result = read(unsafe { core::slice::from_raw_parts(offers, lanes as usize) });
        if UNCHECKED {
            __offload_unchecked_warp_release(site);
        } else {
            __offload_cpu_warp_release(site);
        }
        result
    }

    #[track_caller]
    pub fn shuffle<const UNCHECKED: bool>(bits: u64, src: u32, _narrow: bool) -> u64 {
        exchange::<UNCHECKED, _>(bits, |offers| {
            let own = __offload_cpu_thread_rank() % CPU_WARP_SIZE;
            let src = if (src as usize) < offers.len() {
                src
            } else {
                own
            };
            offers[src as usize]
        })
    }

    #[track_caller]
    pub fn ballot<const UNCHECKED: bool>(predicate: bool) -> u64 {
        exchange::<UNCHECKED, _>(u64::from(predicate), |offers| {
            (0..offers.len()).fold(0, |mask, lane| mask | (offers[lane] & 1) << lane)
        })
    }

    #[track_caller]
    pub fn reduce<const UNCHECKED: bool, T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        exchange::<UNCHECKED, _>(value.to_bits(), |offers| {
            offers[1..]
                .iter()
                .fold(T::from_bits(offers[0]), |acc, &bits| {
                    op(acc, T::from_bits(bits))
                })
        })
    }
}
