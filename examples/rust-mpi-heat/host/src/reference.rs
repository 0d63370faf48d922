//! The plain CPU computation the gathered grid is checked against: the
//! whole grid on one thread, no offload, no MPI.

/// `steps` time steps of the heat equation on `grid` (`ny` rows of `nx`
/// cells) from the start values, with the row above the grid held at `top`
/// and the row below and the columns beside it at 0.
pub fn heat(nx: usize, ny: usize, steps: usize, alpha: f32, top: f32) -> Vec<f32> {
    let mut old: Vec<f32> = (0..ny * nx).map(|i| crate::start(i / nx, i % nx)).collect();
    let mut new = vec![0.0f32; nx * ny];
    let at = |g: &[f32], row: isize, col: isize| -> f32 {
        if row < 0 {
            top
        } else if row as usize >= ny || col < 0 || col as usize >= nx {
            0.0
        } else {
            g[row as usize * nx + col as usize]
        }
    };
    for _ in 0..steps {
        for row in 0..ny as isize {
            for col in 0..nx as isize {
                let c = at(&old, row, col);
                let vertical = at(&old, row - 1, col) + at(&old, row + 1, col);
                let horizontal = at(&old, row, col - 1) + at(&old, row, col + 1);
                // The kernels' order of operations, so the bits agree.
                new[row as usize * nx + col as usize] =
                    c + alpha * (vertical + horizontal - 4.0 * c);
            }
        }
        std::mem::swap(&mut old, &mut new);
    }
    old
}
