//! The registry's tests: overlaps, devices, direct launches, and the
//! order of mappings across threads.

use super::*;

/// A region's ranges entered with nothing mapped (the tests' regions).
fn enter_region(
    device: i64,
    ranges: impl IntoIterator<Item = (usize, usize)>,
) -> Result<Ranges, Overlap> {
    Ranges::region(device, ranges, || ()).map(|(ranges, ())| ranges)
}

mod overlaps {
    use super::*;

    // Addresses no other test maps (the registry is one per process).
    const BASE: usize = 0x7000_0000_0000;

    #[test]
    fn ranges_inside_a_live_one_share_it_and_overlaps_are_refused() {
        let whole = enter_region(0, [(BASE, 64)]).unwrap();
        let inside = enter_region(0, [(BASE + 8, 8)]).unwrap();
        let overlap = enter_region(0, [(BASE + 32, 64)]).unwrap_err();
        assert_eq!(overlap.new, (BASE + 32, BASE + 96));
        assert_eq!(overlap.live, (BASE, BASE + 64));
        // Another device, or a disjoint range: no overlap.
        let other = enter_region(1, [(BASE + 32, 64)]).unwrap();
        let next = enter_region(0, [(BASE + 64, 16)]).unwrap();
        drop((whole, inside, other, next));
        // All gone: the range that overlapped may be mapped now.
        drop(enter_region(0, [(BASE + 32, 64)]).unwrap());
    }

    #[test]
    fn a_refused_set_leaves_nothing_behind() {
        let base = BASE + 0x1000;
        // The second range extends the first: refused, the first left too.
        let err = enter_region(0, [(base, 16), (base + 8, 16), (base, 0)]).unwrap_err();
        assert_eq!(err.live, (base, base + 16));
        let same = enter_region(0, [(base, 16), (base, 16), (base + 4, 4)]).unwrap();
        drop(same);
        drop(enter_region(0, [(base + 8, 16)]).unwrap());
    }

    #[test]
    fn an_inner_range_cannot_grow_into_an_enclosing_one() {
        let base = BASE + 0x2000;
        let inner = enter_region(0, [(base + 8, 8)]).unwrap();
        let err = enter_region(0, [(base, 32)]).unwrap_err();
        assert_eq!(
            (err.new, err.live),
            ((base, base + 32), (base + 8, base + 16))
        );
        drop(inner);
    }
}

mod device_tests {
    use super::*;

    const BASE: usize = 0x7100_0000_0000;

    #[test]
    fn a_launch_on_another_device_than_its_region_is_refused() {
        let region = enter_region(1, [(BASE, 64)]).unwrap();
        // Slot 2 (inside the region of device 1) on device 0.
        let refusal = Ranges::launch(0, [(0, 0), (BASE + 0x100, 4), (BASE + 8, 8)]).unwrap_err();
        let expected = OtherDevice {
            slot: 2,
            launch: 0,
            region: 1,
        };
        assert_eq!(refusal, Refusal::OtherDevice(expected));
        // On device 1 it shares the region; a launch entry is no region.
        drop(Ranges::launch(1, [(BASE + 8, 8)]).unwrap());
        let launch_only = Ranges::launch(2, [(BASE + 0x1000, 8)]).unwrap();
        drop(Ranges::launch(3, [(BASE + 0x1000, 8)]).unwrap());
        // Mapped on both devices: the launch's device has it.
        let also = enter_region(0, [(BASE, 64)]).unwrap();
        drop(Ranges::launch(0, [(BASE + 8, 8)]).unwrap());
        drop((region, also, launch_only));
        drop(Ranges::launch(0, [(BASE + 8, 8)]).unwrap());
    }
}

mod direct_tests {
    use super::*;

    const BASE: usize = 0x7200_0000_0000;
    const DEVICE: usize = 0x5000_0000;
    const ON_0: Option<i64> = Some(0);

    #[test]
    fn pointer_slots_in_regions_become_device_addresses() {
        let region = enter_region(0, [(BASE, 64)]).unwrap();
        let inner = enter_region(0, [(BASE + 16, 8)]).unwrap();
        // Not known yet: no direct launch.
        assert_eq!(direct(0, &[BASE as u64], &[8], &[ON_0]), None);
        // Known through the inner region: the entry's base follows.
        inner.set_device_address(DEVICE + 16);
        let args = [BASE as u64 + 8, 7, BASE as u64 + 32];
        let got = direct(0, &args, &[8, 0, 32], &[ON_0, None, ON_0]).unwrap();
        assert_eq!(got, [DEVICE as u64 + 8, 7, DEVICE as u64 + 32]);
        // Outside any region, on another device, or only scalars: none.
        assert_eq!(direct(0, &[BASE as u64 + 60], &[8], &[ON_0]), None);
        assert_eq!(direct(1, &[BASE as u64], &[8], &[Some(1)]), None);
        let outside = [BASE as u64 + 0x1000, 3];
        assert_eq!(direct(0, &outside, &[4, 0], &[ON_0, None]), None);
        assert_eq!(direct(0, &[3u64], &[0], &[None]), None);
        // A launch entry is no region.
        let launch = Ranges::launch(2, [(BASE + 0x2000, 8)]).unwrap();
        assert_eq!(direct(2, &[BASE as u64 + 0x2000], &[8], &[Some(2)]), None);
        drop((launch, inner));
        // The last region gone: the address is forgotten.
        let again = Ranges::launch(0, [(BASE, 8)]).unwrap();
        drop(region);
        assert_eq!(direct(0, &[BASE as u64], &[8], &[ON_0]), None);
        drop(again);
    }

    #[test]
    fn a_range_in_a_region_the_launch_does_not_hold_is_mapped() {
        let base = BASE + 0x1_0000;
        let region = enter_region(0, [(base, 64)]).unwrap();
        region.set_device_address(DEVICE);
        let args = [base as u64, base as u64 + 32];
        let held = direct(0, &args, &[32, 32], &[ON_0, ON_0]);
        assert_eq!(held, Some([DEVICE as u64, DEVICE as u64 + 32]));
        // One argument is a plain borrow inside another owner's region,
        // which may end while the kernel runs: the launch maps it.
        assert_eq!(direct(0, &args, &[32, 32], &[ON_0, None]), None);
        // An argument that keeps a mapping of another device only.
        assert_eq!(direct(0, &args, &[32, 32], &[ON_0, Some(1)]), None);
        drop(region);
    }
}

mod order_tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::thread;
    use std::time::Duration;

    const BASE: usize = 0x7300_0000_0000;

    /// Runs `enter` on another thread while `held` lives, drops `held`
    /// after a while and returns whether `enter` came back only then.
    fn waits_for(held: Ranges, enter: impl FnOnce() + Send) -> bool {
        let dropped = AtomicBool::new(false);
        thread::scope(|s| {
            let entered = s.spawn(|| {
                enter();
                dropped.load(Ordering::SeqCst)
            });
            thread::sleep(Duration::from_millis(50));
            dropped.store(true, Ordering::SeqCst);
            drop(held);
            entered.join().unwrap()
        })
    }

    #[test]
    fn a_range_meeting_another_launchs_entry_waits_for_it() {
        let launch = || Ranges::launch(0, [(BASE, 64)]).unwrap();
        // Inside, enclosing, overlapping: each maps in libomptarget only
        // after the launch that holds the entry has ended.
        for (start, bytes) in [(BASE + 8, 8), (BASE, 128), (BASE + 32, 64)] {
            let inner = || drop(Ranges::launch(0, [(start, bytes)]).unwrap());
            assert!(waits_for(launch(), inner), "{start:#x} {bytes}");
        }
        // A region, too.
        assert!(waits_for(launch(), || drop(
            enter_region(0, [(BASE + 8, 8)]).unwrap()
        )));
        // The same range shares it at once, and so does another device.
        let held = launch();
        drop(Ranges::launch(0, [(BASE, 64)]).unwrap());
        drop(Ranges::launch(1, [(BASE + 8, 8)]).unwrap());
        drop(held);
    }

    #[test]
    fn a_launchs_own_slots_share_in_order_and_never_wait_for_themselves() {
        let base = BASE + 0x1000;
        // The enclosing range first: libomptarget maps it first.
        drop(Ranges::launch(0, [(base, 64), (base + 8, 8)]).unwrap());
        // The inner one first would be extended: refused, not a wait.
        let refusal = Ranges::launch(0, [(base + 8, 8), (base, 64)]).unwrap_err();
        let overlap = Overlap {
            device: 0,
            new: (base, base + 64),
            live: (base + 8, base + 16),
        };
        assert_eq!(refusal, Refusal::Overlap(overlap));
    }

    #[test]
    fn a_range_inside_a_regions_entry_shares_it_at_once() {
        let base = BASE + 0x2000;
        let whole = enter_region(0, [(base, 64)]).unwrap();
        let launch = Ranges::launch(0, [(base + 8, 8)]).unwrap();
        drop(whole);
        // Only the launch holds it now: another inner range waits.
        assert!(waits_for(launch, || drop(
            Ranges::launch(0, [(base + 16, 8)]).unwrap()
        )));
    }

    #[test]
    fn a_region_maps_under_the_lock_and_unmaps_before_leaving() {
        let base = BASE + 0x3000;
        let (whole, seen) = Ranges::region(0, [(base, 64)], || {
            // The ranges are entered before the mapping runs.
            LIVE.try_lock().is_err()
        })
        .unwrap();
        assert!(seen, "the map closure runs under the registry's lock");
        let mut unmapped = false;
        whole.leave(|| unmapped = true);
        assert!(unmapped);
        // Left: an overlapping region is no overlap now.
        drop(enter_region(0, [(base + 32, 64)]).unwrap());
    }
}
