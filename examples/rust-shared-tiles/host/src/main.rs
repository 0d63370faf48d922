//! The host side of the rust-shared-tiles example: launches the kernels and
//! checks each result against plain Rust.

use std::error::Error;

use offload::Launch;
use tiles_kernels::{PATH_TEAM, PYRAMID, SEQ, TILE, WIDTH, align_rows, heat2, min_path, ramp_rows};

/// One step of `u' = u/2 + (left + right + up + down)/8` on a `WIDTH`-wide
/// image, 0 outside it: the plain loop.
fn heat_plain(u: &[f32]) -> Vec<f32> {
    let height = u.len() / WIDTH;
    let at = |x: isize, y: isize| {
        let inside = (0..WIDTH as isize).contains(&x) && (0..height as isize).contains(&y);
        if inside {
            u[y as usize * WIDTH + x as usize]
        } else {
            0.0
        }
    };
    let mut next = vec![0.0; u.len()];
    for y in 0..height as isize {
        for x in 0..WIDTH as isize {
            next[y as usize * WIDTH + x as usize] = 0.5 * at(x, y)
                + 0.125 * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1));
        }
    }
    next
}

fn check_heat() -> Result<(), Box<dyn Error>> {
    let height = 37;
    let launches = 3;
    let mut u: Vec<f32> = (0..WIDTH * height)
        .map(|i| ((i * 37) % 101) as f32)
        .collect();
    let mut expected = u.clone();
    // 7 x 3 teams: the grid is wider and taller than the image.
    let teams = (WIDTH.div_ceil(TILE) as u32, height.div_ceil(TILE) as u32);
    let grid = Launch::grid(teams, (TILE as u32, TILE as u32));
    for _ in 0..launches {
        let mut next = vec![f32::NAN; u.len()];
        heat2(&grid, &u, &mut next)?;
        u = next;
        expected = heat_plain(&heat_plain(&expected));
    }
    let worst = u
        .iter()
        .zip(&expected)
        .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-5, "heat2: off by {worst}");
    // In place, one pixel per thread by its 2-D id.
    let mut ramped = u.clone();
    ramp_rows(&grid, &mut ramped, 0.5)?;
    let expected: Vec<f32> = (0..u.len())
        .map(|i| u[i] + 0.5 * (i / WIDTH) as f32)
        .collect();
    assert_eq!(ramped, expected, "ramp_rows");
    println!(
        "heat2: ok ({WIDTH} x {height} image, {} steps in {launches} launches of {} x {} teams of {TILE} x {TILE} threads)",
        2 * launches,
        teams.0,
        teams.1
    );
    println!("ramp_rows: ok ({WIDTH} x {height} pixels in place)");
    Ok(())
}

/// The cheapest path's cost to each column of the last row of `wall`
/// (rows of `cols`), moving down one row at a time to the same column or a
/// neighbouring one: the plain loop.
fn path_plain(wall: &[i32], cols: usize) -> Vec<i32> {
    let mut prev = wall[..cols].to_vec();
    for row in wall.chunks(cols).skip(1) {
        prev = (0..cols)
            .map(|c| {
                let left = if c > 0 { prev[c - 1] } else { i32::MAX };
                let right = prev.get(c + 1).copied().unwrap_or(i32::MAX);
                row[c] + left.min(prev[c]).min(right)
            })
            .collect();
    }
    prev
}

fn check_path() -> Result<(), Box<dyn Error>> {
    let (cols, launches) = (300, 3);
    let wall: Vec<i32> = (0..(1 + launches * PYRAMID) * cols)
        .map(|i| (i * 7919 % 10) as i32)
        .collect();
    let own = PATH_TEAM - 2 * PYRAMID;
    let teams = cols.div_ceil(own);
    let grid = Launch::grid(teams as u32, PATH_TEAM as u32);
    let mut prev = wall[..cols].to_vec();
    for launch in 0..launches {
        let rows = &wall[(1 + launch * PYRAMID) * cols..][..PYRAMID * cols];
        let mut padded = vec![0; teams * PATH_TEAM];
        min_path(&grid, &prev, rows, &mut padded)?;
        // Column c is thread PYRAMID + c % own of team c / own.
        prev = (0..cols)
            .map(|c| padded[c / own * PATH_TEAM + PYRAMID + c % own])
            .collect();
    }
    assert_eq!(prev, path_plain(&wall, cols), "min_path");
    println!(
        "min_path: ok ({cols} columns, {} rows in {launches} launches of {teams} teams x {PATH_TEAM} threads)",
        launches * PYRAMID
    );
    Ok(())
}

/// The last row of the Needleman-Wunsch matrix of `a` against `b`: the
/// plain loop.
fn align_plain(a: &[u8], b: &[u8], table: &[i32], gap: i32) -> Vec<i32> {
    let cols = b.len() + 1;
    let mut prev: Vec<i32> = (0..cols as i32).map(|j| -gap * j).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut row = vec![-gap * (i as i32 + 1); cols];
        for j in 1..cols {
            let hit = table[4 * usize::from(x) + usize::from(b[j - 1])];
            row[j] = (prev[j - 1] + hit).max(prev[j] - gap).max(row[j - 1] - gap);
        }
        prev = row;
    }
    prev[1..].to_vec()
}

fn check_align() -> Result<(), Box<dyn Error>> {
    let pairs = 5;
    let a: Vec<u8> = (0..pairs * SEQ).map(|i| (i * 7 % 11 % 4) as u8).collect();
    let b: Vec<u8> = (0..pairs * SEQ).map(|i| (i * 5 % 13 % 4) as u8).collect();
    let table: Vec<i32> = (0..16)
        .map(|k| if k / 4 == k % 4 { 3 } else { -(k % 3) - 1 })
        .collect();
    let gap = 2;
    let mut last = vec![i32::MIN; pairs * SEQ];
    let grid = Launch::grid(pairs as u32, SEQ as u32);
    align_rows(&grid, &a, &b, &table, gap, &mut last)?;
    for k in 0..pairs {
        let range = k * SEQ..(k + 1) * SEQ;
        let expected = align_plain(&a[range.clone()], &b[range.clone()], &table, gap);
        assert_eq!(last[range], expected[..], "align_rows, pair {k}");
    }
    println!(
        "align_rows: ok ({pairs} pairs of {SEQ} symbols, {} wavefront steps per team)",
        2 * SEQ - 1
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    check_heat()?;
    check_path()?;
    check_align()
}
