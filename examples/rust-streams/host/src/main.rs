//! The host side of the rust-streams example: device buffers, devices,
//! launches refused across devices, streams and events, launches on borrows
//! that other regions or threads share. No unsafe code.

use std::error::Error;
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use offload::{Device, Launch, StreamError};
use stream_kernels::{add, late_sum, scale, spin};

fn main() -> Result<(), Box<dyn Error>> {
    let grid = Launch::grid(4, 64);
    devices();
    buffers(&grid)?;
    ranges()?;
    other_devices(&grid)?;
    streams(&grid)?;
    borrowed_under_a_region()?;
    nested_prefixes()?;
    overlap()?;
    no_leaks(&grid)?;
    Ok(())
}

/// The runtime's devices.
fn devices() {
    let count = offload::device_count();
    let uid = Device::new(0).uid().unwrap_or_default();
    println!("devices: {count}, device 0 uid {uid:?}");
    assert!(count >= 2, "the example needs two devices");
    assert_eq!(Device::new(count as i64).uid(), None);
}

/// Device buffers: round trips, fill, copies across devices, kernels.
fn buffers(grid: &Launch) -> Result<(), Box<dyn Error>> {
    let mut x = Device::DEFAULT.alloc_from(&[1.0f32, 2.0, 3.0, 4.0])?;
    scale(grid, 2.0, &mut x)?; // nothing copied: x stays on the device
    scale(grid, 2.0, &mut x)?;
    let mut y = Device::DEFAULT.alloc::<f32>(4)?;
    println!("zeroed: {:?}", y.to_vec()?);
    y.fill(0.5)?;
    let mut sum = Device::DEFAULT.alloc::<f32>(4)?;
    add(grid, &x, &y, &mut sum)?;
    let mut host = [0.0f32; 4];
    sum.copy_to_host(&mut host)?;
    println!("buffers: {host:?}");
    assert_eq!(host, [4.5, 8.5, 12.5, 16.5]);
    // Device to device, here across devices.
    let mut there = Device::new(1).alloc::<f32>(4)?;
    there.copy_from(&sum)?;
    scale(&grid.device(1), 0.5, &mut there)?;
    println!("on device 1: {:?}", there.to_vec()?);
    match x.copy_from_host(&[1.0; 3]) {
        Err(error) => println!("wrong length: {error}"),
        Ok(()) => return Err("a copy of 3 elements into 4 succeeded".into()),
    }
    match Device::new(99).alloc::<f32>(4) {
        Err(error) => println!("device 99: {error}"),
        Ok(_) => return Err("a buffer on device 99".into()),
    }
    let empty = Device::DEFAULT.alloc::<f32>(0)?;
    let mut none = Device::DEFAULT.alloc::<f32>(0)?;
    add(grid, &empty, &empty, &mut none)?;
    assert!(none.to_vec()?.is_empty());
    Ok(())
}

/// Parts of a buffer: exactly the elements asked for are copied (one row
/// of a grid, to send it), and a range past the end is an error.
fn ranges() -> Result<(), Box<dyn Error>> {
    let mut x = Device::DEFAULT.alloc_from(&[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])?;
    let mut part = [9.0f32; 3];
    x.copy_range_to_host(2, &mut part)?;
    x.copy_range_from_host(5, &[50.0, 60.0])?;
    let tail = x.range_to_vec(6..8)?;
    println!("ranges: {part:?}, {tail:?}, {:?}", x.to_vec()?);
    assert_eq!(x.device_ptr_range(2..5)?.len(), 3);
    match x.copy_range_to_host(6, &mut part) {
        Err(error) => println!("range past the end: {error}"),
        Ok(()) => return Err("a copy of elements 6..9 of 8 succeeded".into()),
    }
    match x.device_ptr_range(5..3) {
        Err(error) => println!("reversed range: {error}"),
        Ok(_) => return Err("a device address of elements 5..3".into()),
    }
    Ok(())
}

/// A region or buffer of one device given to a launch on another is an
/// error naming both, and the data is not lost.
fn other_devices(grid: &Launch) -> Result<(), Box<dyn Error>> {
    let mut v = vec![1.0f32; 4];
    {
        let mut region = Device::new(1).map_mut(&mut v[..])?;
        match scale(grid, 3.0, &mut region) {
            Err(error) => println!("region on device 1: {error}"),
            Ok(()) => return Err("a region of device 1 launched on the default device".into()),
        }
        scale(&grid.device(1), 3.0, &mut region)?;
    }
    println!("after the region: {v:?}");
    assert_eq!(v, [3.0; 4]);
    let mut buffer = Device::new(1).alloc_from(&v)?;
    match scale(&grid.device(0), 3.0, &mut buffer) {
        Err(error) => println!("buffer on device 1: {error}"),
        Ok(()) => return Err("a buffer of device 1 launched on device 0".into()),
    }
    assert_eq!(buffer.to_vec()?, [3.0; 4]);
    Ok(())
}

/// Two streams, events, and dropping a stream with queued work.
fn streams(grid: &Launch) -> Result<(), Box<dyn Error>> {
    let mut x = vec![1.0f32; 1024];
    let mut y = Device::DEFAULT.alloc_from(&[2.0f32; 1024])?;
    let (elapsed, monotonic) = offload::scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        let start = a.record();
        // Work borrows its data until the scope ends: launches on the same
        // `&mut` data go in one closure (or share it through a Mutex, below).
        a.run(|| {
            scale(grid, 2.0, &mut x)?; // a host slice: copied in and out
            scale(grid, 2.0, &mut x)
        });
        let end = a.record();
        b.run(|| scale(grid, 0.25, &mut y)); // a device buffer: nothing copied
        b.wait_event(&end);
        let after = b.record();
        drop(b); // waits for b's work
        assert!(after.is_complete() && end.is_complete());
        let monotonic = start.time() <= end.time() && end.time() <= after.time();
        (start.elapsed(&end), monotonic)
    })?;
    println!(
        "streams: x[0] = {}, y[0] = {}, events in order: {monotonic}",
        x[0],
        y.to_vec()?[0]
    );
    assert!(monotonic && x.iter().all(|&v| v == 4.0));
    assert!(elapsed.as_nanos() > 0);
    // An error of queued work comes back from the scope.
    let nowhere = Launch::grid(1, 1).device(99);
    let result = offload::scope(|s| s.stream().run(|| scale(&nowhere, 1.0, &mut x)));
    match result {
        Err(StreamError::Launch(error)) => println!("queued on device 99: {error}"),
        _ => return Err("a queued launch on device 99 succeeded".into()),
    }
    Ok(())
}

/// A queued launch on a plain borrow of data the host has mapped too: the
/// host ends its region while the kernel runs and maps other data of the
/// same size; the kernel still reads its own data (the launch mapped it).
fn borrowed_under_a_region() -> Result<(), Box<dyn Error>> {
    // A length nothing else here maps: the runtime reuses freed device
    // memory for the next allocation of the same size.
    let v = vec![1.0f32; 1237];
    let other = vec![1000.0f32; 1237];
    let grid = Launch::grid(1, 1);
    let mut sum = Device::DEFAULT.alloc::<f32>(1)?;
    let region = offload::map(&v[..])?;
    let remapped = offload::scope(|s| {
        let stream = s.stream();
        stream.run(|| late_sum(&grid, 100_000_000, &v[..], &mut sum));
        thread::sleep(Duration::from_millis(20));
        drop(region);
        let again = offload::map(&other[..]);
        let done = stream.synchronize();
        drop(again);
        done
    })?;
    remapped?;
    let got = sum.to_vec()?[0];
    let want: f32 = v.iter().sum();
    println!("a borrow under a region dropped while the kernel runs: sum {got}, the CPU's {want}");
    assert_eq!(got, want);
    Ok(())
}

/// Six threads launch on nested prefixes of one Vec (shared borrows that
/// overlap): every launch runs, every sum is the CPU's.
fn nested_prefixes() -> Result<(), Box<dyn Error>> {
    let v: Vec<f32> = (0..6 * 1024).map(|i| (i % 7) as f32).collect();
    let grid = Launch::grid(1, 1);
    let wrong = thread::scope(|s| {
        let threads: Vec<_> = (0..6)
            .map(|k| {
                let v = &v[..1024 * (k + 1)];
                let grid = &grid;
                s.spawn(move || -> Result<usize, String> {
                    let want: f32 = v.iter().sum();
                    let mut wrong = 0;
                    for _ in 0..500 {
                        let mut sum = [0.0f32];
                        late_sum(grid, 0, v, &mut sum).map_err(|e| e.to_string())?;
                        wrong += usize::from(sum[0] != want);
                    }
                    Ok(wrong)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a launching thread panicked"))
            .sum::<Result<usize, String>>()
    })?;
    println!("six threads on nested prefixes of one Vec: 3000 launches, {wrong} wrong sums");
    assert_eq!(wrong, 0);
    Ok(())
}

/// Two independent kernels, back to back and on two streams (the wall
/// times are printed, not checked: the machine may be busy).
fn overlap() -> Result<(), Box<dyn Error>> {
    let rounds = 50_000_000;
    let grid = Launch::grid(1, 1);
    let mut a = Device::DEFAULT.alloc::<u64>(1)?;
    let mut b = Device::new(1).alloc::<u64>(1)?;
    let start = Instant::now();
    spin(&grid, rounds, &mut a)?;
    spin(&grid.device(1), rounds, &mut b)?;
    let serial = start.elapsed();
    let start = Instant::now();
    offload::scope(|s| {
        let (sa, sb) = (s.stream(), s.stream());
        sa.run(|| spin(&grid, rounds, &mut a));
        sb.run(|| spin(&grid.device(1), rounds, &mut b));
    })?;
    let streams = start.elapsed();
    assert_eq!(a.to_vec()?, b.to_vec()?);
    eprintln!(
        "overlap: two kernels back to back {:.1} ms, on two streams {:.1} ms ({:.2}x)",
        serial.as_secs_f64() * 1e3,
        streams.as_secs_f64() * 1e3,
        serial.as_secs_f64() / streams.as_secs_f64()
    );
    Ok(())
}

/// The resident set size in KiB (Linux).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// 10,000 launches queued on two streams leave the resident set where
/// 1,000 left it.
fn no_leaks(grid: &Launch) -> Result<(), Box<dyn Error>> {
    // Many queued launches on the same data share it through a Mutex (each
    // closure borrows the Mutex, and takes the data when it runs).
    let x = Mutex::new(Device::DEFAULT.alloc_from(&[1.0f32; 256])?);
    let y = Mutex::new(vec![1.0f32; 256]);
    let round = |launches: usize| {
        offload::scope(|s| {
            let (a, b) = (s.stream(), s.stream());
            for _ in 0..launches / 2 {
                a.run(|| {
                    scale(
                        grid,
                        1.0,
                        &mut *x.lock().unwrap_or_else(PoisonError::into_inner),
                    )
                });
                b.run(|| {
                    scale(
                        grid,
                        1.0,
                        &mut *y.lock().unwrap_or_else(PoisonError::into_inner),
                    )
                });
            }
        })
    };
    round(1_000)?;
    let before = rss_kib();
    round(10_000)?;
    let after = rss_kib();
    let grown = after.saturating_sub(before);
    eprintln!("leak check: RSS {before} KiB -> {after} KiB");
    println!(
        "10000 queued launches: RSS grew {} KiB or less",
        grown.max(1024)
    );
    assert!(
        grown <= 1024,
        "RSS grew by {grown} KiB over 10,000 launches"
    );
    Ok(())
}
