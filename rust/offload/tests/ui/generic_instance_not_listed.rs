// Launching an instance the kernel does not list is a compile-time error
// naming the kernel and its instances.
use offload::{InOut, Launch, LaunchError};

#[offload::kernel(instances(f32, f64))]
pub fn scale<T: offload::DeviceCopy>(by: T, xs: InOut<'_, [T]>) {
    let _ = (by, xs);
}

fn _launch(launch: &Launch) -> Result<(), LaunchError> {
    scale(launch, 2u32, &mut [1u32, 2])?;
    scale::<i8>(launch, 2, &mut [1, 2])
}

fn main() {}
