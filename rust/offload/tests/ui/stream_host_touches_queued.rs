// Data borrowed by work queued on a stream stays borrowed until the scope
// ends: the host can neither write it, free it, nor hand it to other work.
fn f(mut data: Vec<f32>) -> Result<(), offload::StreamError> {
    offload::scope(|s| {
        let stream = s.stream();
        stream.run(|| {
            data[0] = 2.0;
            Ok::<_, offload::StreamError>(())
        });
        data[0] = 1.0;
    })?;
    Ok(())
}

fn g(data: Vec<f32>) -> Result<(), offload::StreamError> {
    offload::scope(|s| {
        let stream = s.stream();
        stream.run(|| {
            let _ = data.len();
            Ok::<_, offload::StreamError>(())
        });
        drop(data);
    })?;
    Ok(())
}

fn h(mut data: Vec<f32>) -> Result<(), offload::StreamError> {
    offload::scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        a.run(|| {
            data[0] = 1.0;
            Ok::<_, offload::StreamError>(())
        });
        b.run(|| {
            data[0] = 2.0;
            Ok::<_, offload::StreamError>(())
        });
    })?;
    Ok(())
}

fn main() {}
