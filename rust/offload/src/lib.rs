//! Typed GPU offloading on stable Rust 1.95, through libomptarget and the
//! `offload-passes` LLVM plugin.
//!
//! A kernel is an ordinary Rust function in a `#![no_std]` *kernel crate*,
//! marked [`#[kernel]`](macro@kernel). The same definition gives
//! - the **device** a kernel entry point (when [`offload-build`] builds the
//!   crate into the device image, with this crate's `device` feature), and
//! - the **host** a typed launcher of the same name and path, whose first
//!   argument is the [`Launch`] (grid, dynamic shared memory, device):
//!
//! ```
//! use offload::{kernel, Out};
//!
//! /// `y[i] = a * x[i]`: each thread writes its grid-stride elements of `y`.
//! #[kernel]
//! pub fn scale(a: f32, x: &[f32], mut y: Out<'_, [f32]>) {
//!     for (i, y) in y.grid_stride() {
//!         y.write(a * x[i]);
//!     }
//! }
//!
//! // On the host (this doc test is a host build), `scale` launches the kernel:
//! fn run(x: &[f32], y: &mut [f32]) -> Result<(), offload::LaunchError> {
//!     scale(&offload::Launch::grid(64, 256), 2.0, x, y)
//! }
//! ```
//!
//! Map types come from the parameters' Rust types, slice lengths are taken at
//! run time, safe kernels cannot race (see [Sound per-thread
//! access](#sound-per-thread-access)), and mapped regions and device pointers cover explicit transfers
//! and vendor libraries. This page is the guide to the crates; the repository's
//! `examples/README.md` lists runnable programs, and its `docs/launch-contract.md`
//! describes the IR the launches become.
//!
//! # Start to finish
//!
//! On a machine set up by the repository's `scripts/setup.sh` (LLVM 22,
//! libomptarget, rustup's `rust-src` and `llvm-bitcode-linker` for GPU
//! targets), build the plugin once and name it:
//!
//! ```sh
//! cargo build --release                     # in the offload-passes repository
//! export OFFLOAD_PASSES_PLUGIN=$PWD/target/release/liboffload_passes.so
//! ```
//!
//! A program is a Cargo workspace with a `#![no_std]` **kernel crate** and a
//! **host crate** (`examples/rust-offload` is this, ready to copy;
//! `examples/rust-linalg` a larger one):
//!
//! ```toml
//! # kernels/Cargo.toml
//! [dependencies]
//! offload = { path = ".../rust/offload" }
//! libm = "0.2"            # any no_std dependencies
//!
//! # host/Cargo.toml
//! [dependencies]
//! offload = { path = ".../rust/offload" }
//! kernels = { path = "../kernels" }
//! [build-dependencies]
//! offload-build = { path = ".../rust/offload-build" }
//! ```
//!
//! The kernel crate:
//!
//! ```
//! // kernels/src/lib.rs, a #![no_std] crate
//! use offload::{Out, kernel};
//!
//! /// `out[i] = a * x[i] + y[i]`
//! #[kernel]
//! pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
//!     for (i, out) in out.grid_stride() {
//!         out.write(a * x[i] + y[i]);
//!     }
//! }
//! ```
//!
//! The host crate's build script (not a doc test: `offload-build` is a
//! dependency of the host crate, not of this one):
//!
//! ```ignore
//! // host/build.rs
//! fn main() {
//!     offload_build::DeviceCrate::new("../kernels").build_or_exit();
//! }
//! ```
//!
//! and its program (compiled here, not run: it needs the image and the launch
//! stubs that `offload-build` makes):
//!
//! ```no_run
//! # mod kernels {
//! #     use offload::{Out, kernel};
//! #     #[kernel]
//! #     pub fn saxpy(a: f32, x: &[f32], y: &[f32], mut out: Out<'_, [f32]>) {
//! #         for (i, out) in out.grid_stride() { out.write(a * x[i] + y[i]); }
//! #     }
//! # }
//! // host/src/main.rs
//! use offload::Launch;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let (x, y) = (vec![1.0f32; 1000], vec![2.0f32; 1000]);
//!     let mut out = vec![0.0f32; 1000];
//!     kernels::saxpy(&Launch::grid(8, 128), 3.0, &x, &y, &mut out)?;
//!     assert!(out.iter().all(|&v| v == 5.0));
//!     Ok(())
//! }
//! ```
//!
//! ```sh
//! OMP_TARGET_OFFLOAD=MANDATORY cargo run     # or: bash scripts/run-example.sh examples/rust-offload [--release]
//! ```
//!
//! That is all: no `unsafe`, no descriptors, no kernel lists, no
//! `.cargo/config.toml`, no `-Z` flag or `RUSTC_BOOTSTRAP` for the host crate.
//! Copied out of the repository an example needs only its
//! `[workspace.dependencies]` pointed at the crates and `OFFLOAD_PASSES_PLUGIN`
//! set (the repository's `test-ir/rust/edit-rebuild.test` does exactly that).
//!
//! # One definition per kernel
//!
//! `#[kernel]` expands, through `offload::__kernel_item!`, to one of two
//! halves chosen by this crate's `device` feature (which only `offload-build`
//! turns on):
//!
//! - **device**: the function itself; an entry point `extern "C"` (x86_64) or
//!   `extern "gpu-kernel"` (AMDGPU, NVPTX) exported as the kernel's symbol (the
//!   function's name, or `#[kernel(name = "...")]`) that turns launch slots back
//!   into the Rust arguments (a slice arrives as pointer and length); and an
//!   exported 920-byte record `__offload_rs_record_<symbol>`, the kernel table:
//!   per launch argument its kind, map type, element size and layout word, and
//!   a hash of the signature;
//! - **host**: a launcher of the same path,
//!   `kernels::saxpy(&Launch, args...) -> Result<(), LaunchError>`, whose
//!   arguments are typed from the kernel's parameters, and the body as a hidden
//!   dead function, so kernel bodies are type-checked in the normal host build
//!   (errors at the kernel's source, in the editor too). The launcher calls the
//!   stub `__offload_rs_launch.<symbol>.<hash>`: a host compiled from other
//!   sources than the image does not link, instead of launching with the wrong
//!   arguments. The hash covers the types' names; their layouts can still
//!   differ (a `type Real` chosen by a feature, a `#[cfg(debug_assertions)]`
//!   field), so each argument's *layout word* — size, alignment, and for a
//!   derived struct every field's offset and layout word, computed by rustc in
//!   each build — is in the record too, and the launcher compares its own with
//!   the image's before every launch: a difference is a [`LaunchError`]
//!   ([`LAYOUT_MISMATCH`]) naming the parameter and both sizes and alignments.
//!   A feature can also change what a kernel does without changing a type
//!   (`const STEP: u32 = if cfg!(feature = "plus-two") { 2 } else { 1 }`):
//!   the record carries the kernel crate's *feature word* (one bit per
//!   feature of its `Cargo.toml`, evaluated with `cfg!(feature = ...)` in
//!   each build; `offload_contract::features`), and a launch whose host
//!   build has other features enabled is refused ([`FEATURE_MISMATCH`],
//!   naming the features).
//!
//! # Kernel parameters: map types from Rust types
//!
//! | kernel parameter | launch passes | map type | the host passes |
//! |---|---|---|---|
//! | `u8`…`u64`, `i8`…`i64`, `usize`, `isize`, `f32`, `f64`, `bool` | the value | LITERAL | the value |
//! | `&T` | pointer | TO | `&T`, `&Mapped<T>` |
//! | [`InOut<'_, T>`](InOut) (`first_thread`) | pointer | TO\|FROM | `&mut T`, `&mut MappedMut<T>` |
//! | [`Out<'_, T>`](Out) (write only: `first_thread`; `T:` [`AnyBitPattern`]) | pointer | FROM | `&mut T`, `&mut MappedMut<T>` |
//! | `&[T]` | pointer, length | TO, `len × size_of::<T>()` at run time | `&[T]`, `&[T; N]`, `&Vec<T>`, `&Mapped<[T]>`, `&DeviceBuffer<T>` |
//! | [`InOut<'_, [T], P>`](InOut) (`P`: a [`partition`], by default `Strided`) | pointer, length | TO\|FROM | `&mut [T]`, `&mut [T; N]`, `&mut Vec<T>`, `&mut MappedMut<[T]>`, `&mut DeviceBuffer<T>` |
//! | [`Out<'_, [T], P>`](Out) (write only, as `InOut`; `T:` [`AnyBitPattern`]) | pointer, length | FROM (nothing copied in) | as `&mut [T]` |
//! | `&[A]`, `&A` for an [atomic] `A`: `AtomicU32`, `AtomicI32`, `AtomicU64`, `AtomicI64`, `AtomicUsize`, `AtomicIsize`, [`AtomicF32`](atomic::AtomicF32), [`AtomicF64`](atomic::AtomicF64) | pointer (, length) | TO\|FROM | as `&mut [u32]`, `&mut u32` (the plain values) |
//! | `#[repr(C)]` struct `S` by value (`#[derive(Clone, Copy, offload::DeviceCopy)]`), arrays | pointer to a copy | TO | `S` |
//! | `RawIn<T>`, `RawOut<T>`, `RawInOut<T>` (`unsafe fn new(ptr, len)`) | pointer, length | TO / FROM / TO\|FROM | the wrapper |
//!
//! Empty inputs launch: `&[]`, `Vec::new()`, `[T; 0]`, an empty `Out` or
//! region, a zero-sized struct map 0 bytes, and the kernel sees length 0.
//!
//! `T` is a [`DeviceCopy`] type (scalars, arrays, derived `#[repr(C)]` structs:
//! checked field by field). Structs go by pointer to a mapped copy, not by value
//! through `extern "C"`: x86_64's SysV ABI would split them into registers that
//! do not match the launch slots. `Out` data comes back from device memory
//! nothing initialised where the kernel did not write it, so its `T` must be
//! [`AnyBitPattern`] (integers, floats, arrays of them, structs of them with
//! `#[derive(offload::AnyBitPattern)]`): `Out<'_, [bool]>` is refused; take
//! `InOut<'_, [bool]>` instead. Raw pointers only go through [`RawIn`],
//! [`RawOut`] and [`RawInOut`], which state the length and the direction.
//! Anything else is a compile error at the parameter, saying what to use
//! instead: `&mut T` and `&mut [T]` (every thread would get the same `&mut`:
//! take [`InOut`], [`Out`] or atomics), atomics of other widths, raw
//! pointers, `&str`, tuples, trait objects, `impl Trait` (anywhere
//! in the type), function pointers, non-`DeviceCopy` types, generic, `async`,
//! `unsafe`, `#[test]` or value-returning kernels, parameters named `launch` or
//! `__offload_...` (the crate's `tests/ui/`, run by trybuild, and the macros'
//! fuzz tests).
//!
//! # Inside kernels: the grid-stride idiom
//!
//! [`index`] has `team_id`, `team_count`, `thread_id` and `thread_count` (each an
//! `Idx3` with `x, y, z`), `global_id()`, `global_count()` (x dimension) and
//! `grid_linear_id()` (over all three); [`grid_stride`]`(n)` gives the indices of
//! `0..n` this thread handles, from its linear id in steps of the grid's thread
//! count, so each index is handled once on any 1-, 2- or 3-D grid. On AMDGPU
//! they read the workgroup and work-item ids and the dispatch packet, on NVPTX
//! `%ctaid`, `%tid`, `%ntid` and `%nctaid`, on libomptarget's CPU plugin the
//! ids of the thread the x86_64 image runs (below), so `grid_stride`
//! partitions exactly as on a GPU. `thread_rank()` is a thread's linear id
//! in its team, `team_size()` the team's thread count.
//!
//! Write every kernel as a grid-stride loop: not as a loop over the whole
//! array (every GPU thread would do all of it), not as one thread per element
//! (a launch may have fewer threads, and the runtime may choose the
//! grid). A reduction writes one partial result per partition
//! (`examples/rust-linalg`'s `sum_squares`) or adds into an atomic
//! (`examples/rust-atomics`'s `dot`), or combines a team's values in shared
//! memory or a warp's with shuffles (below).
//!
//! # Sound per-thread access
//!
//! Every thread of a launch runs the kernel with the same arguments, so a
//! `&mut` parameter would be one `&mut` in thousands of threads at once: a
//! data race in safe Rust. `#[kernel]` refuses `&mut T` and `&mut [T]`
//! parameters (naming the parameter and the form to take), and the safe
//! forms cannot race:
//!
//! | form | what a thread may do | why no two threads race |
//! |---|---|---|
//! | `&T`, `&[T]` | read anything | nothing in the launch writes it |
//! | [`InOut<'_, [T]>`](InOut), [`Out<'_, [T]>`](Out): `.grid_stride()` | `&mut T` (`Out`: `&mut MaybeUninit<T>`) to element `i` for `i` from its linear id in steps of the grid's thread count | each element goes to one thread (as rayon's `par_iter_mut`) |
//! | `InOut<'_, [T], Chunks<N>>`, `Out<..>`: `.grid_stride_chunks()` | `&mut [T]` of chunk `c` (elements `c·N..`) for `c` from its linear id in steps of the thread count | each chunk goes to one thread |
//! | `InOut<'_, [T], FirstThread>`, `Out<..>`, `InOut<'_, T>`, `Out<'_, T>`: `.first_thread()` | everything, on the thread of linear id 0; `None` elsewhere | one thread |
//! | `&[AtomicU32]`, `&AtomicF32`, ... ([`atomic`]) | update any element, atomically | atomics |
//! | `unsafe { out.unsync() }` ([`Unsync`]), [`RawIn`], [`RawOut`], [`RawInOut`] | any element | the caller's promise (the `unsafe` contract) |
//!
//! The parts are disjoint because distinct threads of a launch have distinct
//! linear ids ([`index::grid_linear_id`]) below the grid's thread count,
//! which are the hardware's on a GPU (AMDGPU's workgroup and work-item ids
//! and the dispatch packet's sizes, NVPTX's `%ctaid`, `%tid`, `%ntid`,
//! `%nctaid`) and on libomptarget's CPU plugin those [`index`] gives each
//! thread the plugin runs: the grid-stride indices of two ids are distinct
//! residues modulo the count, so no element or chunk is handed to two
//! threads, and one thread's iterator yields each of its elements once. A
//! view's iterators borrow it mutably (one at a time per thread), the entry
//! point makes each thread's view from the launch's pointer without a `&mut`
//! to the whole array, and the views are neither `Send` nor `Sync`. The
//! [`partition`] is part of the parameter's type, so every thread of the
//! launch shares out the elements the same way: a thread cannot take its
//! grid-stride elements while another takes a chunk or the whole slice.
//!
//! # Shared memory, barriers and warps
//!
//! - [`sync_threads`] (also in [`sync`], with the fences
//!   `thread_fence_block`, `thread_fence`, `thread_fence_system`): the team
//!   barrier, `bar.sync 0` on NVIDIA, `s_barrier` on AMD. Every thread of
//!   the team reaches the same calls.
//! - [`shared::dyn_shared`]`::<T>(len)`: the launch's
//!   [`dyn_shared_mem`](Launch::dyn_shared_mem) bytes as `len` `T`s shared by
//!   the team, `None` where the launch gave fewer bytes (never an access out
//!   of bounds). Safe access cannot race: between two barriers the team is
//!   in a *write phase* (each thread sets and gets only the elements it owns,
//!   `i % team_size() == thread_rank()`) or a *read phase* (everyone reads
//!   anything, nobody writes), alternating at each `sync_threads`, checked
//!   at each access ([`shared`] explains why this is sound). `as_ptr` is the
//!   `unsafe` way out, with its contract.
//! - [`shared_array!`]`(T; LEN)`: a static shared array of the team, CUDA's
//!   `__shared__ T a[LEN]` (`LEN` a constant), as a [`shared::SharedArray`]
//!   with the same phases; each declaration is its own array, the same for
//!   all threads of the team. Over 48 KiB is a compile error; a kernel's
//!   arrays over the GPU's limit (AMD 64 KiB, NVIDIA 48 KiB) a build error
//!   naming the kernel; on the CPU each is one allocation per launch.
//! - [`shared_atomic_array!`]`(A; LEN)`: a static shared array of atomics
//!   (`AtomicU32`, `AtomicF32`, ... of [`atomic`]), every access atomic, so
//!   any thread updates any element with no phases (`ds_add_u32`,
//!   `atom.shared.add`); a team stores its start values first.
//! - [`warp`]: `lane_id`, `warp_size` (queried: 32 on NVIDIA, the wavefront
//!   size on AMD, 32 on the CPU), `shuffle`, `shuffle_down`, `shuffle_xor`,
//!   `ballot`, `all`, `any` and `reduce`/`reduce_add`, over 32- and 64-bit
//!   integers and floats; every lane of the warp calls them.
//!
//! ```
//! use offload::{Out, kernel, shared, sync_threads};
//!
//! /// Reverses each team's block of `x` through shared memory.
//! #[kernel]
//! pub fn reverse_blocks(x: &[u32], mut out: Out<'_, [u32]>) {
//!     let (n, me) = (offload::index::team_size(), offload::index::thread_rank());
//!     let base = offload::index::team_id().x as usize * n;
//!     let Some(s) = shared::dyn_shared::<u32>(n) else { return };
//!     s.set(me, x.get(base + me).copied().unwrap_or(0)); // write phase: own element
//!     sync_threads();
//!     // In a 1-D grid this thread's first grid-stride element is `base + me`.
//!     if let Some((_, o)) = out.grid_stride().next() {
//!         o.write(s.get(n - 1 - me)); // read phase: any element
//!     }
//! }
//! ```
//!
//! `examples/rust-gpu-toolkit` has a tiled matrix multiply on static shared
//! tiles, a block reduction and a warp-shuffle reduction, checked against
//! plain Rust.
//!
//! # GPU semantics on the CPU
//!
//! libomptarget's host plugin ignores a launch's grid and calls the kernel
//! once. So `#[kernel]` passes the grid in four hidden leading launch slots
//! (`offload-contract`'s `grid`: teams, threads, dynamic shared bytes), and
//! the x86_64 image's entry point runs **the whole grid**:
//!
//! - one OS thread per thread of a team (pthreads, up to 1024; the calling
//!   thread is thread 0), each with its own ids; the teams run one after
//!   another, each on the same threads (GPUs give no order between teams:
//!   a kernel must not wait for another team);
//! - `sync_threads` is a real barrier of the team's threads; a thread that
//!   returns from the kernel leaves the team's barriers, so early returns do
//!   not deadlock;
//! - the dynamic shared memory is one zeroed, 16-byte aligned allocation of
//!   `dyn_shared_mem` bytes per launch, which each team reuses;
//! - warps are the team's consecutive groups of 32 threads by
//!   `thread_rank()`, exchanging values through per-thread slots between two
//!   warp barriers (a team's last warp may be partial: a lane reading a
//!   lane that does not exist gets its own value);
//! - a panic in any thread prints where and aborts the process, as before:
//!   no thread is left waiting.
//!
//! A dimension of 0 (the runtime chooses) runs one team or thread on the
//! CPU. The cost: `bench/grid-matmul.sh` times a 64-team × 256-thread tiled
//! matmul against a plain Rust loop.
//!
//! # Launch
//!
//! [`Launch::grid`]`(teams, threads)` takes 1–3 dimensions (`64`, `(16, 16)`,
//! `[8, 8, 2]`), then `.dyn_shared_mem(bytes)` and `.device(n)`;
//! [`Launch::new`] lets the runtime choose. The values are read when the launch
//! runs (the launch contract's v2 `LaunchConfig`). A launch that
//! `__tgt_target_kernel` refuses (a non-zero code) is `Err(`[`LaunchError`]`)`
//! with the kernel's Rust path (`kernels::saxpy`) and the code; a device number
//! the runtime lacks (also a negative one other than -1) is refused before
//! libomptarget would abort the process ([`NO_SUCH_DEVICE`]), and so is a
//! mapped region on one ([`MapError`]). A region or device buffer of one
//! device given to a launch on another is refused too ([`OTHER_DEVICE`],
//! naming the parameter and both devices): its data is not on the launch's
//! device. When every pointer argument of a launch lies in a region or
//! device buffer of its device, the launch passes their device addresses as
//! they are (map type LITERAL, as OpenMP's `is_device_ptr`): nothing is
//! mapped and libomptarget's present table is not searched. A kernel that
//! fails once started is libomptarget's to report: under
//! `OMP_TARGET_OFFLOAD=MANDATORY` it stops the program.
//!
//! # Data: mapped regions and device pointers
//!
//! ```no_run
//! # use offload::{kernel, Launch};
//! # #[kernel] pub fn affine(x: offload::InOut<'_, [f32]>) {}
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let mut v = vec![0.0f32; 1024];
//! # let grid = Launch::grid(8, 128);
//! let mut region = offload::map_mut(&mut v[..])?;   // copied to the device once
//! for _ in 0..10 {
//!     affine(&grid, &mut region)?;                  // present: nothing copied
//! }
//! let host_view = region.update_host();            // device → host, through the region
//! # let _ = host_view;
//! region.update_device();                          // host → device
//! drop(region);                                    // copied back, unmapped
//! # Ok(()) }
//! ```
//!
//! [`map`]`(&x)` (TO), [`map_mut`]`(&mut x)` (TO|FROM), [`map_out`]`(&mut x)`
//! (FROM, nothing copied in; [`AnyBitPattern`] elements only, as for `Out`) on
//! the default device, or [`Device::new`]`(n).map(...)`. A region ([`Mapped`],
//! [`MappedMut`]) holds the borrow, so the host cannot touch the data while it
//! is mapped except through `update_host` and `update_device`. Shared borrows
//! may overlap, libomptarget's mappings may not: a region or a launch argument
//! whose host range overlaps a live region (or another argument of the launch)
//! without lying inside it is a [`MapError`] or a [`LaunchError`]
//! ([`OVERLAPPING_RANGE`]) naming both ranges; map the enclosing range once
//! (`map(&v[..])`) and pass subranges, which share its mapping. `region.device_ptr()` gives the
//! device address; [`device_ptrs`]`((&a, &mut b), |(da, db)| ...)` maps a set of
//! arguments, calls a host closure with their device pointers (a vendor library:
//! cuBLAS, rocBLAS) and maps them back, as rustc's `offload_args` does.
//! `examples/rust-linalg` calls a C stand-in vendor library that way and checks
//! the round trip.
//!
//! # Device buffers, streams and events
//!
//! [`Device::alloc`]`::<T>(len)` (zeroed; `T:` [`AnyBitPattern`]) and
//! [`Device::alloc_from`]`(&host)` give a [`DeviceBuffer`]: device memory
//! (`omp_target_alloc`) with no host copy, freed when dropped, with
//! `copy_from_host`, `copy_to_host`, `to_vec`, `fill`, `copy_from` (another
//! buffer, on any device) and `device_ptr`. Kernels take `&buffer` and
//! `&mut buffer` where they take slices, and nothing is copied.
//! [`device_count`], [`Device::uid`] and [`Device::initial`] are what
//! libomptarget tells about its devices (its CPU plugin offers several).
//!
//! [`scope`]`(|s| ...)` runs a closure that makes [`Stream`]s
//! (`s.stream()`): in-order queues of work, each with its own worker thread,
//! that run while the host goes on, concurrently with each other.
//! `stream.run(|| kernels::saxpy(&grid, ...))` queues a launch (or a copy,
//! or any host closure returning a `Result`); `stream.record()` gives an
//! [`Event`] (`synchronize`, `is_complete`, `elapsed` to a later event, on
//! the host's monotonic clock); `stream.wait_event(&e)` orders two streams;
//! `stream.synchronize()` waits and returns the first error
//! ([`StreamError`]; the stream skips its later work until then). The scope
//! returns when every stream has finished, with the closure's result or the
//! first error no `synchronize` returned; a panic of queued work is resumed
//! there.
//!
//! ```no_run
//! # use offload::{kernel, Launch, Device};
//! # #[kernel] pub fn scale(a: f32, x: offload::InOut<'_, [f32]>) {}
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let grid = Launch::grid(4, 64);
//! let mut x = vec![1.0f32; 1024];
//! let mut y = Device::DEFAULT.alloc_from(&[2.0f32; 1024])?;
//! let elapsed = offload::scope(|s| {
//!     let (a, b) = (s.stream(), s.stream());
//!     let start = a.record();
//!     a.run(|| {
//!         scale(&grid, 2.0, &mut x)?; // two launches on the same data: one closure
//!         scale(&grid, 2.0, &mut x)
//!     });
//!     b.run(|| scale(&grid, 0.25, &mut y)); // at the same time as `a`'s work
//!     let end = a.record();
//!     start.elapsed(&end)
//! })?;
//! println!("{elapsed:?} {} {}", x[0], y.to_vec()?[0]);
//! # Ok(()) }
//! ```
//!
//! Queued work may borrow anything that outlives the scope, as with
//! `std::thread::scope`: the borrows last until the scope returns, so the
//! host cannot free, read or change the data while work on it is queued
//! (the crate's `tests/ui/stream_*.rs`), and nothing done with a handle
//! (dropping or `mem::forget`ting a [`Stream`] or an [`Event`]) ends the
//! scope's wait early. Several queued closures that change the same data
//! share it through a `Mutex` (`examples/rust-streams` queues 10,000
//! launches so). Dropping a stream waits for its work.
//!
//! A stream is a worker thread that calls the ordinary launcher:
//! libomptarget's own asynchronous entry points (`__tgt_target_kernel_nowait`)
//! need OpenMP target tasks of libomp, which only a compiler's OpenMP
//! lowering makes. libomptarget is thread-safe and gives each host thread
//! its own device queue (a CUDA stream or HSA queue), so on a GPU the
//! launches and copies of different streams may overlap as the device
//! allows; on the CPU plugin each kernel runs on its stream's thread, so
//! two streams' kernels run on two cores at once.
//!
//! # How it is built (`offload-build`)
//!
//! `DeviceCrate::new("../kernels").build()` in the host's `build.rs`:
//!
//! 1. lists the crate's kernels with a macro-expansion pass (`cargo rustc
//!    --profile check -- -Zunpretty=expanded`, reading the markers `#[kernel]`
//!    leaves): rustc cannot mark functions for `offload-wrap-kernels`, so they
//!    are named to it;
//! 2. builds the kernel crate **with cargo** (`cargo rustc --lib --crate-type
//!    cdylib --features offload/device,<features>`, in its own target directory
//!    `target/offload-device/<crate>-<hash>`, so it may depend on any `no_std`
//!    crate and on workspace crates) in a profile with `opt-level = 3`,
//!    `panic = "abort"`, no debug info, fat LTO and one codegen unit, with the
//!    plugin's `offload-wrap-kernels<kernels=...>` (GPU targets:
//!    a shared `core` built once per target and cpu, the kernels found by
//!    their calling convention);
//!    The `<features>` are those cargo resolved for the kernel crate in the
//!    host build: `cargo tree -e normal -i <kernel crate>` on the host package
//!    with the features cargo enabled for it (a kernel crate feature the host
//!    crate's `Cargo.toml` or its own features turn on). Features enabled
//!    only on cargo's command line for the kernel crate (`--features
//!    kernels/double`), or by other members of the workspace built at the same
//!    time, are not seen; nor does the device build follow the host profile's
//!    `debug_assertions` (it is off). Where that changes a type or the
//!    enabled features, the launch is refused, see below;
//! 3. reads the kernel table from the image and computes its digest (SHA-256);
//! 4. writes the launch stubs, one small `no_std` Rust module with, per kernel,
//!    a launch `__offload_launch2.K(&DESCRIPTOR, config, args...)` (the launch
//!    contract's v2 form: version, digest, map types and sizes) and a direct
//!    launch of the same kernel whose pointers are LITERAL (device addresses
//!    of regions and device buffers), and compiles it
//!    with rustc and the plugin's `offload-host<image=...>` into
//!    `OUT_DIR/offload_stubs.o` (the image embedded and registered, one-call
//!    libomptarget launches), linked into the host's binaries;
//! 5. links `libomptarget` and `libomp` with an rpath, and tells cargo to rerun
//!    when any source of the kernel crate or of a local crate it uses changes
//!    (cargo's dep-info of the device build), or the plugin.
//!
//! **Why stubs** rather than loading the plugin into the host crate's rustc
//! (`RUSTFLAGS`, `.cargo/config.toml` or a rustc wrapper, with
//! `OFFLOAD_PASSES_OPTIMIZER_LAST`): the host crate stays an ordinary crate
//! (any profile: incremental, 256 codegen units, LTO; `cargo check`, clippy,
//! rust-analyzer and docs work without the plugin; no `-Z` flag or
//! `RUSTC_BOOTSTRAP`; no path to the plugin in the repository), and the image
//! lives in exactly one object that is rebuilt from the new image after every
//! edit. rustc's incremental cache never holds launch code compiled against an
//! old image, so an edited kernel is never served stale (the launch contract's
//! digest, which the stubs carry, checks the stub against the image it embeds).
//! The cost is one C-ABI call per launch.
//!
//! **Image size**: 18 KB for `examples/rust-offload`'s 5 kernels and 45 KB for
//! `examples/rust-linalg` (with `libm`); the same kernels in a `std` cdylib
//! with debug info and unwinding take 4.3 MB.
//!
//! **GPU targets**: one program holds the kernels for several targets,
//! named by `.targets(["host", "amdgcn-amd-amdhsa:gfx90a",
//! "nvptx64-nvidia-cuda:sm_90"])` or the environment variable
//! `OFFLOAD_TARGETS` (the same items, comma-separated; it overrides
//! `build.rs`): the kernel crate is built once per target (NVPTX: PTX
//! assembled by ptxas into a cubin), every image is checked to have the
//! first image's kernel records (a kernel missing or different in one is a
//! build error naming kernel and target), and the stubs, compiled for the
//! host, register all of them in one descriptor; libomptarget runs the image
//! that fits the device it finds, the CPU plugin where there is no GPU. A
//! GPU target's `core` is built once per toolchain, target and cpu and
//! shared (`OFFLOAD_SYSROOT_CACHE`). The repository's `docs/gpu-builds.md`
//! has the details.
//!
//! # Next to rustc's `-Zoffload`
//!
//! | | rustc `-Zoffload` (nightly, rustc built from source with offload and Enzyme) | `offload` crates (stable 1.95 + the plugin) |
//! |---|---|---|
//! | kernel | `#[rustc_offload_kernel]`-style function, single source with `cfg`s | an ordinary function with `#[offload::kernel]` in a `no_std` crate; one definition for both sides |
//! | launch | `offload!{kernel=f, workgroup_dim=[..;3], thread_dim=[..;3], dyn_cache=.., device=.., args=(..)}` | `f(&Launch::grid(teams, threads).dyn_shared_mem(..).device(..), args...)`, typed, run-time grid, `Result` |
//! | map types | from `&`/`&mut` (TO, TO\|FROM), scalars literal, slices sized at run time | the same, with `InOut` for `&mut` (TO\|FROM, per-thread access), write-only `Out` (FROM), atomic slices (TO\|FROM), `#[repr(C)]` structs by value, raw pointers only through `RawIn`/`RawOut`/`RawInOut` |
//! | unsupported arguments | "cannot be offloaded", no source location | compile errors at the parameter with the fix |
//! | explicit transfers | `preload(&x)`, `preload_mut(&mut x)` (copy back on drop) | `map`, `map_mut`, `map_out` regions with `update_host`/`update_device` |
//! | vendor libraries | `offload_args(wrapper, (&mut a, ..))` (`-Zoffload=Args`) | `device_ptrs((&a, &mut b), \|(da, db)\| ..)`, `region.device_ptr()` |
//! | kernel indices | per target (`core::arch::amdgpu::workitem_id_x`, `_thread_idx_x`) | portable `offload::index`, `grid_stride` |
//! | dependencies of device code | the one crate | any `no_std` crate (cargo builds the kernel crate) |
//! | build | manual packager and linker steps | `build.rs` one line; image checked at compile time against the launches |
//! | errors at run time | abort on a failed launch | `Err(LaunchError)` naming the Rust function |
//!
//! # Limits
//!
//! Not supported: generic or cross-crate kernels (a kernel is a non-generic
//! function of the kernel crate; a dependency's kernels are not wrapped),
//! and streams outside a [`scope`] (queued work borrows its data until the
//! scope ends). The GPU images are compile-tested (their kernel tables
//! checked against the stubs); the tests run kernels on libomptarget's host
//! (x86_64) plugin, and nothing has run on a GPU. A static shared array has
//! at most 48 KiB; a kernel's together at most 64 KiB on AMD GPUs and 48 KiB
//! on NVIDIA GPUs (a build error of the GPU image naming the kernel).
//!
//! [`offload-build`]: https://docs.rs/offload-build

#![no_std]
// GPU targets only (device builds run with RUSTC_BOOTSTRAP=1 for
// -Zbuild-std): the targets' intrinsics are unstable library features.
#![cfg_attr(
    target_arch = "amdgpu",
    feature(stdarch_amdgpu, gpu_intrinsics, core_intrinsics),
    allow(internal_features)
)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(stdarch_nvptx, core_intrinsics, link_llvm_intrinsics),
    allow(internal_features)
)]
#![deny(missing_docs)]

#[cfg(not(feature = "device"))]
extern crate alloc;
// Streams run on worker threads of the host.
#[cfg(not(feature = "device"))]
extern crate std;

mod args;
pub mod atomic;
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
mod cpu_grid;
#[cfg(not(feature = "device"))]
mod data;
pub mod index;
mod launch;
#[cfg(feature = "device")]
mod panic_handler;
#[cfg(not(feature = "device"))]
mod runtime;
pub mod shared;
#[cfg(not(feature = "device"))]
mod streams;
pub mod sync;
pub mod warp;

#[doc(hidden)]
pub mod __private;

pub use args::partition;
pub use args::{
    AnyBitPattern, DeviceCopy, DeviceData, GridStrideChunksMut, GridStrideMut, HostIn, HostMut,
    InOut, Out, RawIn, RawInOut, RawOut, Unsync,
};
#[cfg(not(feature = "device"))]
pub use data::{
    BufferError, BufferProblem, Device, DeviceArg, DeviceArgs, DeviceBuffer, DevicePtr, MapError,
    Mapped, MappedMut, device_count, device_ptrs, map, map_mut, map_out,
};
pub use index::{GridStride, grid_stride};
pub use launch::{
    Dim3, FEATURE_MISMATCH, FeatureMismatch, LAYOUT_MISMATCH, Launch, LaunchError, LayoutMismatch,
    NO_SUCH_DEVICE, OTHER_DEVICE, OVERLAPPING_RANGE, OtherDevice, TOO_MANY_THREADS,
};
#[cfg(not(feature = "device"))]
pub use streams::{Event, Scope, Stream, StreamError, scope};
pub use sync::sync_threads;

/// Marks a kernel: an ordinary function whose parameters are kernel
/// argument types (see the crate docs) and which returns nothing.
///
/// In the device build it becomes a kernel of the image; in the host build
/// the function of the same name launches it, with a [`Launch`] first:
/// `kernel(&Launch::grid(teams, threads), args...) -> Result<(), LaunchError>`.
/// Its body is still type-checked on the host (errors point at the kernel's
/// source in the normal build).
///
/// `#[kernel(name = "symbol")]` sets the kernel's symbol in the image (by
/// default the function's name; symbols must be unique in the image, and
/// ASCII: a non-ASCII function name needs an ASCII `name`).
pub use offload_macros::kernel;

/// Derives [`AnyBitPattern`] for a `#[repr(C)]` struct whose fields are all
/// `AnyBitPattern` (checked at compile time); the struct must also be
/// [`DeviceCopy`].
pub use offload_macros::AnyBitPattern;

/// Derives [`DeviceCopy`] for a `#[repr(C)]` struct whose fields are all
/// `DeviceCopy` (checked at compile time); the struct must also be `Copy`.
pub use offload_macros::DeviceCopy;
