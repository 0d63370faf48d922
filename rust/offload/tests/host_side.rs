//! The host half of `#[kernel]`: every supported parameter type gives a
//! launcher that compiles, and a launch the runtime refuses is an `Err`
//! naming the kernel (through a stand-in stub; the end-to-end runs are the
//! examples, built by offload-build).

use offload::atomic::{AtomicF32, AtomicF64, AtomicI32, AtomicI64, AtomicU32, Ordering};
use offload::{DeviceCopy, InOut, Launch, LaunchError, Out, RawIn, RawInOut, RawOut, kernel};

mod common;
use common::refusing_stub;

#[repr(C)]
#[derive(Clone, Copy, Debug, DeviceCopy)]
pub struct Config {
    pub scale: f32,
    pub steps: u32,
    pub offsets: [f64; 3],
}

/// `repr` arguments (`align(N)`) are accepted next to `C`.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, DeviceCopy)]
pub struct Aligned {
    pub v: [f32; 3],
}

const _: () = assert!(align_of::<Aligned>() == 16);

/// Every parameter shape.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn everything(
    a: u8,
    b: i16,
    c: u32,
    d: i64,
    e: usize,
    f: f32,
    g: f64,
    h: bool,
    config: Config,
    by_ref: &Config,
    by_mut: InOut<'_, Config>,
    out_one: Out<'_, f64>,
    xs: &[f32],
    ys: InOut<'_, [f32]>,
    zs: Out<'_, [f32]>,
    raw_in: RawIn<u32>,
    raw_out: RawOut<u32>,
    raw_in_out: RawInOut<u32>,
    array: [u16; 4],
) {
    let _ = (
        a, b, c, d, e, f, g, h, config, by_ref, by_mut, out_one, xs, ys, zs,
    );
    let _ = (raw_in, raw_out, raw_in_out, array);
}

/// A renamed symbol.
#[kernel(name = "renamed_symbol")]
pub fn renamed(mut x: InOut<'_, [f32]>) {
    for (_, x) in x.grid_stride() {
        *x *= 2.0;
    }
}

/// The partitions of the views: the host passes `&mut` slices for all.
#[kernel]
pub fn partitions(
    mut chunks: Out<'_, [f32], offload::partition::Chunks<4>>,
    mut first: InOut<'_, [u8], offload::partition::FirstThread>,
    mut strided: InOut<'_, [u16], offload::partition::Strided>,
) {
    for (c, chunk) in chunks.grid_stride_chunks() {
        chunk.fill(core::mem::MaybeUninit::new(c as f32));
    }
    if let Some(all) = first.first_thread() {
        all.fill(1);
    }
    for (i, x) in strided.grid_stride() {
        *x = i as u16;
    }
}

/// Every atomic parameter type, as slices and singly.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn atomics(
    a: &[AtomicU32],
    b: &[AtomicI32],
    c: &[core::sync::atomic::AtomicU64],
    d: &[AtomicI64],
    e: &[AtomicF32],
    f: &AtomicF64,
    g: &AtomicU32,
    h: &offload::atomic::AtomicUsize,
) {
    for i in offload::grid_stride(a.len()) {
        a[i].fetch_add(1, Ordering::Relaxed);
    }
    let _ = (b, c, d, e, f, g, h);
}

/// A generic kernel: one kernel per listed type, bounds and where clause
/// as written.
#[kernel(instances(f32, f64, u16))]
pub fn fill<T>(value: T, out: Out<'_, [T]>, marker: &T)
where
    T: DeviceCopy,
{
    let _ = (value, out, marker);
}

/// A generic kernel with its symbol's base renamed, over a `DeviceCopy` bound.
#[kernel(name = "lib_scale", instances(u32, i64))]
pub fn scale<T: DeviceCopy + core::ops::Mul<Output = T>>(by: T, xs: InOut<'_, [T]>) {
    let _ = (by, xs);
}

#[test]
fn generic_launchers_take_each_instance() {
    // Only type-checked: calling them needs the stubs offload-build links.
    fn _calls() -> Result<(), LaunchError> {
        let launch = Launch::grid(2, 32);
        let mut a = vec![0.0f32; 4];
        fill(&launch, 1.5f32, &mut a, &2.0)?;
        fill::<f64>(&launch, 2.5, &mut vec![0.0; 3], &1.0)?;
        fill(&launch, 7u16, &mut [0u16; 2], &0)?;
        scale(&launch, 3u32, &mut [1u32, 2])?;
        scale::<i64>(&launch, -1, &mut vec![4i64])
    }
}

#[test]
fn launchers_take_references_slices_arrays_and_vecs() {
    // Only type-checked: calling them needs the stubs offload-build links.
    fn _calls() -> Result<(), LaunchError> {
        let launch = Launch::grid((4, 2), 64).dyn_shared_mem(1024).device(0);
        let config = Config {
            scale: 1.0,
            steps: 3,
            offsets: [0.0; 3],
        };
        let mut c2 = config;
        let mut one = 0.0f64;
        let xs = vec![1.0f32; 8];
        let mut ys = [0.0f32; 8];
        let mut zs = vec![0.0f32; 8];
        let (mut r_out, mut r_in_out) = ([0u32; 2], [0u32; 2]);
        // SAFETY: the pointers stay valid for the launch (never run here).
        let raws = unsafe {
            (
                RawIn::new([1u32, 2].as_ptr(), 2),
                RawOut::new(r_out.as_mut_ptr(), 2),
                RawInOut::new(r_in_out.as_mut_ptr(), 2),
            )
        };
        everything(
            &launch,
            1,
            -2,
            3,
            -4,
            5,
            6.0,
            7.0,
            true,
            config,
            &config,
            &mut c2,
            &mut one,
            &xs,
            &mut ys,
            &mut zs,
            raws.0,
            raws.1,
            raws.2,
            [1, 2, 3, 4],
        )?;
        renamed(&launch, &mut zs[..4])?;
        let (mut a, mut b, mut c, mut d) = ([0u32; 4], vec![0i32; 2], [0u64; 1], [0i64; 0]);
        let (mut e, mut f, mut g, mut h) = (vec![0.0f32; 3], 0.0f64, 0u32, 0usize);
        atomics(
            &launch, &mut a, &mut b, &mut c, &mut d, &mut e, &mut f, &mut g, &mut h,
        )?;
        partitions(&launch, &mut zs, &mut [0u8; 3], &mut vec![0u16; 5])
    }
}

/// The layouts a launcher compares for atomic parameters are the plain
/// values' (what the host passes and the image records).
#[test]
fn atomic_parameters_are_their_values_memory() {
    use offload::atomic::DeviceAtomic;
    fn layout<A: DeviceAtomic>() -> u64 {
        <A::Value as DeviceCopy>::LAYOUT
    }
    assert_eq!(layout::<AtomicU32>(), u32::LAYOUT);
    assert_eq!(layout::<AtomicI64>(), i64::LAYOUT);
    assert_eq!(layout::<AtomicF32>(), f32::LAYOUT);
    assert_eq!(layout::<AtomicF64>(), f64::LAYOUT);
}

/// The direct stub of launches without regions: never called.
unsafe extern "C" fn unused_direct_stub(
    _: *const offload::__private::LaunchConfig,
    _: *const u64,
) -> i32 {
    77
}

unsafe extern "C" fn checking_stub(
    config: *const offload::__private::LaunchConfig,
    args: *const u64,
) -> i32 {
    // SAFETY: the launch passes a valid config and two slots.
    let (config, args) = unsafe { (&*config, std::slice::from_raw_parts(args, 2)) };
    // SAFETY: the launch passes two sizes, one per slot.
    let sizes = unsafe { std::slice::from_raw_parts(config.sizes, 2) };
    let ok = config.version == 3
        && config.teams == [3, 2, 1]
        && config.threads == [128, 1, 1]
        // 512 bytes for the kernel after 16 per team and 8 per thread
        // (offload::shared).
        && config.dyn_cgroup_mem == 512 + 16 + 128 * 8
        && config.device == 1
        && args[1] == 5
        && sizes == [20, 0];
    if ok { 0 } else { 1 }
}

#[test]
fn a_refused_launch_is_an_err_naming_the_kernel() {
    let launch = Launch::new();
    // SAFETY: the stand-in stub reads nothing.
    let result = unsafe {
        offload::__private::launch(
            &launch,
            "my_kernels::saxpy",
            "saxpy",
            &[],
            &[],
            &[],
            &[],
            refusing_stub,
            unused_direct_stub,
        )
    };
    let error = result.unwrap_err();
    assert_eq!(error.code(), 42);
    assert_eq!(error.kernel(), "my_kernels::saxpy");
    assert_eq!(
        error.to_string(),
        "offload: kernel `my_kernels::saxpy` was not launched: libomptarget returned 42"
    );
    let renamed = LaunchErrorProbe::renamed();
    assert!(
        renamed
            .to_string()
            .ends_with("(image symbol `renamed_symbol`)"),
        "{renamed}"
    );
}

struct LaunchErrorProbe;
impl LaunchErrorProbe {
    fn renamed() -> LaunchError {
        // SAFETY: the stand-in stub reads nothing.
        unsafe {
            offload::__private::launch(
                &Launch::new(),
                "t::renamed",
                "renamed_symbol",
                &[],
                &[],
                &[],
                &[],
                refusing_stub,
                unused_direct_stub,
            )
        }
        .unwrap_err()
    }
}

#[test]
fn the_config_carries_the_grid_and_the_sizes() {
    let launch = Launch::grid((3, 2), 128).dyn_shared_mem(512).device(1);
    let data = [0i32; 5];
    let (ptr, count, bytes) = offload::__private::host_in::<[i32], _>(&&data[..]);
    // SAFETY: the stand-in stub reads the config and two slots.
    let result = unsafe {
        offload::__private::launch(
            &launch,
            "t::k",
            "k",
            &["x: &[i32]", "x (its length)"],
            &[ptr, count],
            &[bytes, 0],
            &[None, None],
            checking_stub,
            unused_direct_stub,
        )
    };
    assert_eq!(result, Ok(()));
}

#[test]
fn a_launch_over_overlapping_ranges_is_an_err_not_an_abort() {
    let launch = Launch::new().device(0);
    let data = [0u8; 6];
    let (a, _, _) = offload::__private::host_in::<[u8], _>(&&data[0..4]);
    let (b, _, _) = offload::__private::host_in::<[u8], _>(&&data[2..6]);
    // SAFETY: the stand-in stub reads nothing (and is not reached).
    let result = unsafe {
        offload::__private::launch(
            &launch,
            "t::k",
            "k",
            &["a", "b"],
            &[a, b],
            &[4, 4],
            &[None, None],
            refusing_stub,
            unused_direct_stub,
        )
    };
    let error = result.unwrap_err();
    assert_eq!(error.code(), offload::OVERLAPPING_RANGE);
    let start = data.as_ptr() as usize;
    assert_eq!(
        error.overlap(),
        Some(((start + 2, start + 6), (start, start + 4)))
    );
    let text = error.to_string();
    assert!(
        text.starts_with("offload: kernel `t::k` was not launched: an argument's host range")
            && text.contains("without lying inside it"),
        "{text}"
    );
    // The same range twice, or a range inside another, shares its mapping.
    // SAFETY: as above.
    let nested = unsafe {
        offload::__private::launch(
            &launch,
            "t::k",
            "k",
            &["a", "b"],
            &[a, a + 1],
            &[4, 2],
            &[None, None],
            refusing_stub,
            unused_direct_stub,
        )
    };
    assert_eq!(nested.unwrap_err().code(), 42);
}

/// Same size and alignment as [`Mixed`], other field types or order.
#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Floats {
    pub a: f32,
    pub b: f32,
}

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Mixed {
    pub a: f32,
    pub b: u32,
}

#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Swapped {
    pub b: u32,
    pub a: f32,
}

#[test]
fn layout_words_cover_size_alignment_and_every_field() {
    let words = [
        Floats::LAYOUT,
        Mixed::LAYOUT,
        Swapped::LAYOUT,
        <[f32; 2]>::LAYOUT,
        u64::LAYOUT,
        f64::LAYOUT,
        <[u64; 1]>::LAYOUT,
        Config::LAYOUT,
    ];
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert_eq!(Config::LAYOUT & 0xffff_ffff, size_of::<Config>() as u64);
}

#[test]
fn a_launch_whose_types_have_other_layouts_in_the_image_is_an_err() {
    let host = [f64::LAYOUT, usize::LAYOUT];
    let device = [f32::LAYOUT, usize::LAYOUT];
    let params = ["x: &mut [Real]", "x (its length)"];
    let check = offload::__private::check_layouts;
    assert_eq!(check("t::k", "k", &params, &host, &host), Ok(()));
    let error = check("t::k", "k", &params, &host, &device).unwrap_err();
    assert_eq!(error.code(), offload::LAYOUT_MISMATCH);
    let mismatch = error.layout().unwrap();
    assert_eq!(
        (mismatch.param(), mismatch.host(), mismatch.device()),
        ("x: &mut [Real]", (8, 8), (4, 4))
    );
    assert_eq!(
        error.to_string(),
        "offload: kernel `t::k` was not launched: parameter `x: &mut [Real]` has another layout in the device image than in the host build (host: 8 bytes, align 8; device: 4 bytes, align 4): the kernel crate was built for the device with other features or cfgs (code -102)"
    );
    let fields = check(
        "t::k",
        "k",
        &["p: Mixed"],
        &[Mixed::LAYOUT],
        &[Floats::LAYOUT],
    );
    assert!(fields.unwrap_err().to_string().contains(
        "(host: 8 bytes, align 4; device: 8 bytes, align 4; other field offsets or field types)"
    ));
}

unsafe extern "C" fn empty_stub(
    config: *const offload::__private::LaunchConfig,
    _: *const u64,
) -> i32 {
    // SAFETY: the launch passes a valid config with two sizes.
    let config = unsafe { &*config };
    // SAFETY: as above.
    let sizes = unsafe { std::slice::from_raw_parts(config.sizes, 2) };
    // A version-3 config: 0 is a size (0 bytes), not "none given".
    if config.version == 3 && sizes == [0, 0] {
        0
    } else {
        1
    }
}

#[test]
fn empty_inputs_give_a_size_of_0_bytes() {
    let empty: Vec<u32> = Vec::new();
    let (ptr, count, bytes) = offload::__private::host_in::<[u32], _>(&&empty);
    assert_eq!((count, bytes), (0, 0));
    assert_ne!(ptr, 0, "an empty Vec's pointer is dangling, not null");
    // SAFETY: 0 elements at a dangling pointer (never read).
    let raw = unsafe { RawIn::new(empty.as_ptr(), 0) };
    let raw_bytes = (raw.len() * size_of::<u32>()) as u64;
    // SAFETY: the stand-in stub reads the config and its sizes.
    let result = unsafe {
        offload::__private::launch(
            &Launch::new(),
            "t::k",
            "k",
            &["e", "r"],
            &[ptr, raw.as_ptr() as u64],
            &[bytes, raw_bytes],
            &[None, None],
            empty_stub,
            unused_direct_stub,
        )
    };
    assert_eq!(result, Ok(()));
}
