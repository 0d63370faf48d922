//! One rank's block of rows on its device, and its time step: the halo
//! rows sent and received while the interior is updated on a stream, then
//! the edges.

use std::error::Error;
use std::time::{Duration, Instant};

use heat_kernels::{diffuse_edges, diffuse_interior};
use mpi::topology::Process;
use offload::{Device, DeviceBuffer, Launch};
use offload_mpi::{Exchange, Incoming, Outgoing, Shift};

/// Rows `first..first + rows` of the grid on one device: the values
/// (`old`), the next step's (`new`), and the halo rows above and below the
/// block (the neighbours' edge rows, or the grid's boundary).
pub struct Block {
    nx: usize,
    rows: usize,
    old: DeviceBuffer<f32>,
    new: DeviceBuffer<f32>,
    above: DeviceBuffer<f32>,
    below: DeviceBuffer<f32>,
}

/// The ranks above and below this one (none at the grid's top and bottom).
pub struct Neighbours<'a> {
    pub up: Option<Process<'a>>,
    pub down: Option<Process<'a>>,
}

/// Where a step's time went (wall times on the host).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepTime {
    /// The whole step.
    pub step: Duration,
    /// The halo exchange's time not hidden behind the interior update.
    pub halo: Duration,
}

impl Block {
    /// The start values of rows `first..first + rows` on `device`; the halo
    /// rows hold the boundary (`top` above the grid, 0 below) until the
    /// neighbours' rows replace them.
    pub fn new(
        device: Device,
        nx: usize,
        (first, rows): (usize, usize),
        top: f32,
    ) -> Result<Block, Box<dyn Error>> {
        let start: Vec<f32> = (0..rows * nx)
            .map(|i| crate::start(first + i / nx, i % nx))
            .collect();
        Ok(Block {
            nx,
            rows,
            old: device.alloc_from(&start)?,
            new: device.alloc(rows * nx)?,
            above: device.alloc_from(&vec![top; nx])?,
            below: device.alloc(nx)?,
        })
    }

    /// One time step. With `overlap` the halo rows are sent and received
    /// (nonblocking) while the interior is updated on a stream; without it
    /// they are exchanged first and the interior is updated after (to
    /// measure what the overlap saves).
    pub fn step(
        &mut self,
        (grid, edges): (&Launch, &Launch),
        exchange: &Exchange,
        neighbours: &Neighbours<'_>,
        overlap: bool,
    ) -> Result<StepTime, Box<dyn Error>> {
        let start = Instant::now();
        let nx = self.nx;
        let (old, new) = (&self.old, &mut self.new);
        let shifts = halo_shifts(neighbours, old, (&mut self.above, &mut self.below));
        let halo = if overlap {
            let (interior, busy) = exchange.overlap(shifts, || {
                let started = Instant::now();
                // The interior needs no halo: it is updated while the rows
                // travel, the host waiting for the stream, not in MPI.
                let interior = offload::scope(|s| {
                    s.stream()
                        .run(|| diffuse_interior(grid, nx, crate::ALPHA, old, &mut *new));
                });
                (interior, started.elapsed())
            })?;
            interior?;
            start.elapsed().saturating_sub(busy)
        } else {
            for shift in shifts {
                exchange.shift(shift.send, shift.receive, 0)?;
            }
            let halo = start.elapsed();
            diffuse_interior(grid, nx, crate::ALPHA, old, &mut *new)?;
            halo
        };
        let (above, below) = (&self.above, &self.below);
        diffuse_edges(edges, nx, crate::ALPHA, old, above, below, new)?;
        std::mem::swap(&mut self.old, &mut self.new);
        Ok(StepTime {
            step: start.elapsed(),
            halo,
        })
    }

    /// The block's current values.
    pub fn values(&self) -> Result<Vec<f32>, Box<dyn Error>> {
        Ok(self.old.to_vec()?)
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
}

/// The block's first row goes up while the row below arrives from below;
/// its last row goes down while the row above arrives from above.
fn halo_shifts<'a, 'c>(
    neighbours: &'a Neighbours<'c>,
    old: &'a DeviceBuffer<f32>,
    (above, below): (&'a mut DeviceBuffer<f32>, &'a mut DeviceBuffer<f32>),
) -> Vec<Shift<'a, 'c, f32>> {
    let (nx, len) = (above.len(), old.len());
    let (up, down) = (neighbours.up.as_ref(), neighbours.down.as_ref());
    let upwards = Shift {
        send: up.map(|to| Outgoing {
            to,
            buffer: old,
            range: 0..nx,
        }),
        receive: down.map(|from| Incoming {
            from,
            buffer: below,
            range: 0..nx,
        }),
    };
    let downwards = Shift {
        send: down.map(|to| Outgoing {
            to,
            buffer: old,
            range: len - nx..len,
        }),
        receive: up.map(|from| Incoming {
            from,
            buffer: above,
            range: 0..nx,
        }),
    };
    vec![upwards, downwards]
}
