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
//! it, at the same point (not in a branch some lanes skip). On the CPU a
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
    let src = src_lane % warp_size();
    T::from_bits(target::shuffle(value.to_bits(), src, narrow::<T>()))
}

/// The value of lane `lane_id() + delta`, or this lane's own where that is
/// past the warp's end (`__shfl_down_sync`).
#[inline]
#[track_caller]
pub fn shuffle_down<T: WarpValue>(value: T, delta: u32) -> T {
    let src = lane_id().saturating_add(delta);
    let src = if src < warp_size() { src } else { lane_id() };
    T::from_bits(target::shuffle(value.to_bits(), src, narrow::<T>()))
}

/// The value of lane `lane_id() ^ mask`, or this lane's own where that is
/// past the warp's end (`__shfl_xor_sync`).
#[inline]
#[track_caller]
pub fn shuffle_xor<T: WarpValue>(value: T, mask: u32) -> T {
    let src = lane_id() ^ mask;
    let src = if src < warp_size() { src } else { lane_id() };
    T::from_bits(target::shuffle(value.to_bits(), src, narrow::<T>()))
}

/// Bit `i` set for each lane `i` of the warp whose `predicate` is true
/// (`__ballot_sync`; 64 bits for AMD's wave64).
#[inline]
#[track_caller]
pub fn ballot(predicate: bool) -> u64 {
    target::ballot(predicate)
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
    target::reduce(value, op)
}

/// The sum of the warp's values, in every lane.
#[inline]
#[track_caller]
pub fn reduce_add<T: WarpValue + core::ops::Add<Output = T>>(value: T) -> T {
    reduce(value, |a, b| a + b)
}

/// The reduction of a GPU: `log2(warp_size())` butterfly steps.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
fn butterfly<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
    let mut v = value;
    let mut mask = warp_size() / 2;
    while mask > 0 {
        v = op(v, shuffle_xor(v, mask));
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

    pub fn shuffle(bits: u64, src: u32, narrow: bool) -> u64 {
        // SAFETY: `shfl.sync` over the whole warp, which every lane reaches
        // (the module's contract).
        let lo = unsafe { shfl_idx(FULL, bits as u32, src, CLAMP) };
        if narrow {
            return u64::from(lo);
        }
        // SAFETY: as above.
        let hi = unsafe { shfl_idx(FULL, (bits >> 32) as u32, src, CLAMP) };
        u64::from(lo) | u64::from(hi) << 32
    }

    pub fn ballot(predicate: bool) -> u64 {
        // SAFETY: `vote.sync.ballot` over the whole warp, as above.
        u64::from(unsafe { vote_ballot(FULL, predicate) })
    }

    pub fn reduce<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        super::butterfly(value, op)
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

    pub fn shuffle(bits: u64, src: u32, narrow: bool) -> u64 {
        // SAFETY: `ds_bpermute` reads lane `src` (< the wavefront size) of
        // the wavefront, every lane of which reaches it (the contract).
        let lo = unsafe { gpu::ds_bpermute(src * 4, bits as u32) };
        if narrow {
            return u64::from(lo);
        }
        // SAFETY: as above.
        let hi = unsafe { gpu::ds_bpermute(src * 4, (bits >> 32) as u32) };
        u64::from(lo) | u64::from(hi) << 32
    }

    pub fn ballot(predicate: bool) -> u64 {
        gpu::ballot(predicate)
    }

    pub fn reduce<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        super::butterfly(value, op)
    }
}

#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod target {
    use core::panic::Location;

    use super::{CPU_WARP_SIZE, WarpValue};
    use crate::cpu_grid::current;
    use crate::cpu_grid::hooks::{
        __offload_cpu_thread_rank, __offload_cpu_warp_exchange, __offload_cpu_warp_release,
    };

    pub fn warp_size() -> u32 {
        CPU_WARP_SIZE
    }

    pub fn lane_id() -> u32 {
        __offload_cpu_thread_rank() % CPU_WARP_SIZE
    }

    /// Offers `bits` to the warp and returns what `read` makes of every
    /// lane's offer (by lane); host code is a warp of one lane.
    #[track_caller]
    fn exchange<R>(bits: u64, read: impl FnOnce(&[u64]) -> R) -> R {
        let site = Location::caller();
        let rank = __offload_cpu_thread_rank();
        let lanes = current().map_or(1, |t| t.lanes_of_warp(rank));
        let own = bits;
        let offers = __offload_cpu_warp_exchange(&own, site);
        // SAFETY: the hook returns the `lanes` offers of this thread's
        // warp, valid (and `own` alive) until the release below.
        let result = read(unsafe { core::slice::from_raw_parts(offers, lanes as usize) });
        __offload_cpu_warp_release(site);
        result
    }

    #[track_caller]
    pub fn shuffle(bits: u64, src: u32, _narrow: bool) -> u64 {
        exchange(bits, |offers| {
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
    pub fn ballot(predicate: bool) -> u64 {
        exchange(u64::from(predicate), |offers| {
            (0..offers.len()).fold(0, |mask, lane| mask | (offers[lane] & 1) << lane)
        })
    }

    #[track_caller]
    pub fn reduce<T: WarpValue>(value: T, op: impl Fn(T, T) -> T) -> T {
        exchange(value.to_bits(), |offers| {
            offers[1..]
                .iter()
                .fold(T::from_bits(offers[0]), |acc, &bits| {
                    op(acc, T::from_bits(bits))
                })
        })
    }
}
