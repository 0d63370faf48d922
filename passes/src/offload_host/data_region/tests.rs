//! Unit tests of the data-region calls.

use crate::offload_host::tests::{fails, lower};
use crate::offload_host::{DataCallProblem, Error};

#[test]
fn data_region_calls_lower_to_mappers() {
    let ir = lower(
        r#"
declare void @__offload_data_begin(ptr, i64, i64)
declare void @__offload_data_update(ptr, i64, i64)
declare void @__offload_data_end(ptr, i64, i64)
define void @f(ptr %p, i64 %n) {
  call void @__offload_data_begin(ptr %p, i64 %n, i64 3)
  call void @__offload_data_update(ptr %p, i64 %n, i64 2)
  call void @__offload_data_end(ptr %p, i64 %n, i64 3)
  ret void
}
"#,
    );
    for mapper in ["begin", "update", "end"] {
        assert!(
            ir.contains(&format!(
                "call void @__tgt_target_data_{mapper}_mapper(ptr null, i64 -1, i32 1,"
            )),
            "{ir}"
        );
    }
    assert!(ir.contains("store i64 3, ptr %.offload_maptypes"), "{ir}");
    assert!(!ir.contains("call void @__offload_data"), "{ir}");
}

#[test]
fn a_data_region_call_of_another_shape_is_an_error() {
    let data = fails(
        "declare void @__offload_data_begin(ptr, i64)\ndefine void @f(ptr %p) {\n  call void @__offload_data_begin(ptr %p, i64 4)\n  ret void\n}\n",
    );
    assert!(matches!(data, Error::DataCall { problem: DataCallProblem::Shape, .. }), "{data}");
}
