use offload::{InOut, Out};

// A thread's elements are `&mut`s borrowed from the view: two of its
// iterators cannot be alive at once, arbitrary indexed writes need
// `unsafe`, and a view shares out its elements only by the partition of its
// type (the same in every thread): a strided view has no `first_thread`, a
// first-thread view no `grid_stride`.
#[offload::kernel]
pub fn twice(mut x: InOut<'_, [f32]>, mut y: Out<'_, [f32]>) {
    let mut first = x.grid_stride();
    let mut second = x.grid_stride();
    let _ = (first.next(), second.next());
    let slot = y.unsync();
    slot.write(0, core::mem::MaybeUninit::new(1.0));
}

#[offload::kernel]
pub fn mixed(mut x: InOut<'_, [f32]>, mut y: Out<'_, [f32], offload::partition::FirstThread>) {
    let _ = x.first_thread();
    let _ = y.grid_stride();
    let _ = x.grid_stride_chunks();
}

fn main() {}
