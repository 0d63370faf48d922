// Queued work cannot reach a stream (it is neither Send nor Sync), so it
// can never wait for its own queue.
fn g() -> Result<(), offload::StreamError> {
    offload::scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        a.run(move || {
            drop(b);
            Ok::<_, offload::StreamError>(())
        });
    })?;
    Ok(())
}

fn main() {}
