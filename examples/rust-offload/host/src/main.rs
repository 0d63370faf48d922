//! The host side of the rust-offload example: typed launches of the kernels
//! of the `kernels` crate, and a mapped region around repeated launches. No
//! unsafe code, no descriptors, no runtime calls: map types come from the
//! kernels' parameter types.

use std::error::Error;

use kernels::{Nothing, Particle, increment, mix, saxpy, step, sum, touch};
use offload::Launch;

fn main() -> Result<(), Box<dyn Error>> {
    // One team of 64 threads (on the CPU plugin too, each an OS thread).
    let grid = Launch::grid(1, 64);

    let mut data = vec![1i32, 2, 3, 4, 5];
    increment(&grid, &mut data)?;
    println!("increment: {data:?}");
    assert_eq!(data, [2, 3, 4, 5, 6]);

    let x = [1.0f32, 2.0, 3.0, 4.0];
    let y = [0.5f32, 0.25, -1.0, 10.0];
    let mut out = [0.0f32; 4];
    // Any grid works for a grid-stride kernel: 2×3 teams of 32×2 threads,
    // 256 bytes of dynamic shared memory, read when the launch runs.
    let grid_2d = Launch::grid((2, 3), (32, 2)).dyn_shared_mem(256);
    saxpy(&grid_2d, 2.5, &x, &y, &mut out)?;
    println!("saxpy: {out:?}");
    assert_eq!(out, [3.0, 5.25, 6.5, 20.0]);

    let mut mixed = 0.0f64;
    mix(&grid, -7, 3_000_000_000, 0.5, 0.125, &mut mixed)?;
    println!("mix: {mixed}");
    assert_eq!(mixed, -7.0 + 3e9 * 0.5 + 0.125);

    let p = Particle {
        x: 1.0,
        v: 2.0,
        mass: 4.0,
    };
    let mut moved = Particle {
        x: 0.0,
        v: 0.0,
        mass: 0.0,
    };
    step(&grid, p, 8.0, 0.5, &mut moved)?;
    println!("step: {moved:?} (host copy unchanged: {p:?})");
    assert_eq!((moved.x, moved.v), (2.5, 3.0));

    let values: Vec<f64> = (1..=10).map(f64::from).collect();
    let mut total = 0.0f64;
    sum(&grid, &values, &mut total)?;
    println!("sum: {total}");
    assert_eq!(total, 55.0);

    // A mapped region: `data` is copied to the device once; the launches
    // inside find it present and copy nothing. The region holds the borrow:
    // the host sees the data only through update_host, and when it ends.
    {
        let mut region = offload::map_mut(&mut data[..])?;
        for _ in 0..3 {
            increment(&grid, &mut region)?;
        }
        println!("in region, after update_host: {:?}", region.update_host());
        increment(&grid, &mut region)?;
    }
    println!("after region: {data:?}");
    assert_eq!(data, [6, 7, 8, 9, 10]);

    // A launch the runtime refuses is an Err naming the kernel, not an abort.
    let nowhere = Launch::grid(1, 64).device(99);
    match increment(&nowhere, &mut data) {
        Err(error) => println!("device 99: {error}"),
        Ok(()) => return Err("a launch on device 99 succeeded".into()),
    }
    let negative = Launch::grid(1, 64).device(-5);
    match increment(&negative, &mut data) {
        Err(error) => println!("device -5: {error}"),
        Ok(()) => return Err("a launch on device -5 succeeded".into()),
    }
    // So is a region on a device the runtime does not have.
    match offload::Device::new(99).map(data.as_slice()) {
        Err(error) => println!("map on device 99: {error}"),
        Ok(_) => return Err("a map on device 99 succeeded".into()),
    }
    assert_eq!(data, [6, 7, 8, 9, 10]);

    // Empty inputs launch, and the kernels see length 0: an empty Vec, array
    // and slice, an empty Out, an empty mapped region, zero-sized values.
    let mut empty: Vec<i32> = Vec::new();
    increment(&grid, &mut empty)?;
    let mut no_out: [f32; 0] = [];
    saxpy(&grid, 2.5, &[], &[0.0f32; 0], &mut no_out)?;
    let mut total = -1.0;
    sum(&grid, &Vec::new(), &mut total)?;
    {
        let mut region = offload::map_mut(&mut empty[..])?;
        increment(&grid, &mut region)?;
    }
    let mut ran = 0u32;
    touch(&grid, Nothing {}, &Nothing {}, &[], &mut ran)?;
    println!("empty inputs: sum {total}, touch ran {ran}");
    assert_eq!((total, ran, empty.len()), (0.0, 1, 0));
    Ok(())
}
