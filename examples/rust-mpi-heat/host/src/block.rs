//! One rank's block of rows on its device, and its time step: the interior
//! updated on a stream while the halo rows are exchanged, then the edges.

use std::error::Error;
use std::time::{Duration, Instant};

use heat_kernels::{diffuse_edges, diffuse_interior};
use mpi::topology::Process;
use offload::{Device, DeviceBuffer, Launch};
use offload_mpi::{Exchange, ExchangeError, Incoming, Outgoing};

/// Rows `first..first + rows` of the grid on one device: the values
/// (`old`), the next step's (`new`) and the halo (the row above the block,
/// then the row below it).
pub struct Block {
    nx: usize,
    rows: usize,
    old: DeviceBuffer<f32>,
    new: DeviceBuffer<f32>,
    halo: DeviceBuffer<f32>,
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
    /// The halo exchange (while the interior is updated).
    pub halo: Duration,
}

impl Block {
    /// The start values of rows `first..first + rows` on `device`; the halo
    /// holds the boundary rows (`top` above the grid, 0 below) until the
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
        let mut halo = vec![0.0f32; 2 * nx];
        halo[..nx].fill(top);
        Ok(Block {
            nx,
            rows,
            old: device.alloc_from(&start)?,
            new: device.alloc(rows * nx)?,
            halo: device.alloc_from(&halo)?,
        })
    }

    /// One time step; with `overlap` the interior is updated on a stream
    /// during the halo exchange, without it after the exchange on this
    /// thread (to measure what the overlap saves).
    pub fn step(
        &mut self,
        (grid, edges): (&Launch, &Launch),
        exchange: &Exchange,
        neighbours: &Neighbours<'_>,
        overlap: bool,
    ) -> Result<StepTime, Box<dyn Error>> {
        let start = Instant::now();
        let nx = self.nx;
        let (old, new, halo) = (&self.old, &mut self.new, &mut self.halo);
        let (exchanged, halo_time) = if overlap {
            offload::scope(|s| {
                // The interior needs no halo: it runs while the rows travel.
                s.stream()
                    .run(|| diffuse_interior(grid, nx, crate::ALPHA, old, &mut *new));
                let started = Instant::now();
                let exchanged = exchange_halo(exchange, neighbours, old, &mut *halo, nx);
                (exchanged, started.elapsed())
            })?
        } else {
            let started = Instant::now();
            exchange_halo(exchange, neighbours, old, &mut *halo, nx)?;
            let time = started.elapsed();
            diffuse_interior(grid, nx, crate::ALPHA, old, &mut *new)?;
            (Ok(()), time)
        };
        exchanged?;
        diffuse_edges(edges, nx, crate::ALPHA, old, &*halo, new)?;
        std::mem::swap(&mut self.old, &mut self.new);
        Ok(StepTime {
            step: start.elapsed(),
            halo: halo_time,
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

/// Sends the block's first row up while the row below arrives from below
/// (tag 0), then its last row down while the row above arrives (tag 1).
fn exchange_halo(
    exchange: &Exchange,
    neighbours: &Neighbours<'_>,
    old: &DeviceBuffer<f32>,
    halo: &mut DeviceBuffer<f32>,
    nx: usize,
) -> Result<(), ExchangeError> {
    let last = old.len() - nx..old.len();
    let up = neighbours.up.as_ref();
    let down = neighbours.down.as_ref();
    let first_row = up.map(|to| Outgoing {
        to,
        buffer: old,
        range: 0..nx,
    });
    let below = down.map(|from| Incoming {
        from,
        buffer: &mut *halo,
        range: nx..2 * nx,
    });
    exchange.shift(first_row, below, 0)?;
    let last_row = down.map(|to| Outgoing {
        to,
        buffer: old,
        range: last,
    });
    let above = up.map(|from| Incoming {
        from,
        buffer: &mut *halo,
        range: 0..nx,
    });
    exchange.shift(last_row, above, 1)
}
