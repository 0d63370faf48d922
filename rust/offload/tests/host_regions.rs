//! Launches on mapped regions and device buffers, through stand-in stubs and
//! a stand-in runtime: device addresses pass only for memory the launch's
//! own arguments keep mapped, another device's region is refused, and a
//! region the device cannot allocate is an `Err`.

use offload::Launch;

mod common;
use common::{refusing_stub, runtime};

/// The direct stub of the region test: slot 0 must be the region's device
/// address, slot 1 the length as it was.
unsafe extern "C" fn direct_stub(
    config: *const offload::__private::LaunchConfig,
    args: *const u64,
) -> i32 {
    // SAFETY: the launch passes a valid config and two slots.
    let (config, args) = unsafe { (&*config, std::slice::from_raw_parts(args, 2)) };
    let expected = EXPECTED.load(std::sync::atomic::Ordering::SeqCst);
    if config.device == 2 && args == [expected, 4] {
        0
    } else {
        1
    }
}

static EXPECTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Held by the tests that set [`EXPECTED`] (tests run in parallel).
static DIRECT: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn direct_test() -> std::sync::MutexGuard<'static, ()> {
    DIRECT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn a_launch_on_a_region_passes_its_device_address_and_refuses_another_device() {
    let _serial = direct_test();
    let mut data = [1.0f32; 4];
    let mut region = offload::Device::new(2).map_mut(&mut data[..]).unwrap();
    let mut arg = &mut region;
    let (ptr, count, bytes) = offload::__private::host_mut::<[f32], _>(&mut arg);
    let kept = [offload::__private::kept_mut::<[f32], _>(&arg), None];
    assert_eq!(kept, [Some(2), None]);
    EXPECTED.store(
        ptr + runtime::DEVICE_OFFSET,
        std::sync::atomic::Ordering::SeqCst,
    );
    let params = ["x: &mut [f32]", "x (its length)"];
    let on = |device| {
        // SAFETY: the stand-in stubs read the config and two slots.
        unsafe {
            offload::__private::launch(
                &Launch::new().device(device),
                "t::scale",
                "scale",
                &params,
                &[ptr, count],
                &[bytes, 0],
                &kept,
                refusing_stub,
                direct_stub,
            )
        }
    };
    // On the region's device: the direct stub, with the device address.
    assert_eq!(on(2), Ok(()));
    // On another device: refused, naming the parameter and both devices.
    let error = on(1).unwrap_err();
    assert_eq!(error.code(), offload::OTHER_DEVICE);
    let other = error.other_device().unwrap();
    assert_eq!(
        (other.param(), other.launch_device(), other.data_device()),
        ("x: &mut [f32]", 1, 2)
    );
    assert_eq!(
        error.to_string(),
        "offload: kernel `t::scale` was not launched: argument `x: &mut [f32]` is a region or device buffer of device 2, but the launch runs on device 1: launch on device 2, or map or allocate the data on device 1 (code -105)"
    );
    drop(region);
    // Without the region, the data is mapped by the launch (the other stub).
    let mut plain = &mut data[..];
    let (ptr, count, bytes) = offload::__private::host_mut::<[f32], _>(&mut plain);
    // SAFETY: as above.
    let mapped = unsafe {
        offload::__private::launch(
            &Launch::new().device(2),
            "t::scale",
            "scale",
            &params,
            &[ptr, count],
            &[bytes, 0],
            &[None, None],
            refusing_stub,
            direct_stub,
        )
    };
    assert_eq!(mapped.unwrap_err().code(), 42);
}

#[test]
fn a_plain_borrow_inside_another_owners_region_is_mapped_by_the_launch() {
    let _serial = direct_test();
    // The host holds a region of `data`; a launch on a plain shared borrow
    // of the same data must not use the region's device address: the region
    // may end (and its device memory be freed) while the kernel runs.
    let data = [1.0f32; 4];
    let region = offload::Device::new(2).map(&data[..]).unwrap();
    let plain = &data[..];
    let (ptr, count, bytes) = offload::__private::host_in::<[f32], _>(&plain);
    let kept = [offload::__private::kept_in::<[f32], _>(&plain), None];
    assert_eq!(kept, [None, None]);
    EXPECTED.store(
        ptr + runtime::DEVICE_OFFSET,
        std::sync::atomic::Ordering::SeqCst,
    );
    let params = ["x: &[f32]", "x (its length)"];
    // SAFETY: the stand-in stubs read the config and two slots.
    let launch = |kept: &[Option<i64>; 2]| unsafe {
        offload::__private::launch(
            &Launch::new().device(2),
            "t::sum",
            "sum",
            &params,
            &[ptr, count],
            &[bytes, 0],
            kept,
            refusing_stub,
            direct_stub,
        )
    };
    // The mapping stub (which libomptarget's reference count protects).
    assert_eq!(launch(&kept).unwrap_err().code(), 42);
    // The region itself as the argument: the direct stub.
    let held = [offload::__private::kept_in::<[f32], _>(&&region), None];
    assert_eq!(launch(&held), Ok(()));
    drop(region);
}

#[test]
fn a_region_the_device_cannot_allocate_is_an_err_not_an_abort() {
    use std::sync::atomic::Ordering;
    // 64 MiB, never touched (the stand-in mappers copy nothing).
    let big = vec![0u8; 64 << 20];
    runtime::ABSENT.store(big.as_ptr() as u64, Ordering::SeqCst);
    // Not present, and the trial allocation fails: refused before the
    // runtime's own allocation (which would abort the process).
    let error = offload::Device::new(2).map(&big[..]).err().unwrap();
    assert_eq!(
        error.to_string(),
        "offload: mapping 67108864 bytes to device 2: the device cannot allocate them"
    );
    // Below 64 MiB nothing is tried: the runtime maps (here: the stand-in
    // then finds nothing, a plain failure).
    let under = offload::Device::new(2)
        .map(&big[..(64 << 20) - 1])
        .err()
        .unwrap();
    assert!(
        under
            .to_string()
            .starts_with("offload: mapping 67108863 bytes to device 2 failed"),
        "{under}"
    );
    runtime::ABSENT.store(0, Ordering::SeqCst);
    // The refusal left no live range behind.
    drop(offload::Device::new(2).map(&big[..]).unwrap());
}

#[test]
fn the_data_api_starts_the_runtime_once_before_its_first_query() {
    // Without an image's registration nothing else starts libomptarget,
    // whose queries would then dereference its null plugin manager.
    assert_eq!(offload::device_count(), 4);
    drop(offload::Device::new(1).map(&[1u8, 2, 3][..]).unwrap());
    assert_eq!(runtime::STARTS.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn a_device_the_runtime_lacks_is_named_with_the_devices_it_has() {
    let error = offload::Device::new(7).map(&[1u8][..]).err().unwrap();
    assert_eq!(
        error.to_string(),
        "offload: mapping 1 bytes to device 7: no such device (the runtime's devices are 0..4)"
    );
    let error = offload::Device::new(7).alloc::<u32>(2).err().unwrap();
    assert_eq!(
        error.to_string(),
        "offload: device buffer: alloc of 8 bytes on device 7: no such device (the runtime's devices are 0..4)"
    );
}
