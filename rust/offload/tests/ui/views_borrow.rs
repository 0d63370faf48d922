use offload::{InOut, Out};

// A thread's elements are `&mut`s borrowed from the view: two of its
// iterators cannot be alive at once, nor an element past the view's use,
// and arbitrary indexed writes need `unsafe`.
#[offload::kernel]
pub fn twice(mut x: InOut<'_, [f32]>, mut y: Out<'_, [f32]>) {
    let mut first = x.grid_stride();
    let mut second = x.grid_stride();
    let _ = (first.next(), second.next());
    let slot = y.unsync();
    slot.write(0, core::mem::MaybeUninit::new(1.0));
}

fn main() {}
