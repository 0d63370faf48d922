// A stream cannot leave its scope, and queued work cannot borrow the
// scope's locals (they end before the work may run).
fn f() {
    let _stream = offload::scope(|s| s.stream());
}

fn h() -> Result<(), offload::StreamError> {
    offload::scope(|s| {
        let local = vec![1.0f32];
        s.stream().run(|| {
            let _ = local.len();
            Ok::<_, offload::StreamError>(())
        });
    })?;
    Ok(())
}

fn main() {}
