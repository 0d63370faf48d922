//! Unit tests of the data-region calls.

use crate::offload_host::error::{DataCallProblem, Error};
use crate::offload_host::tests::{fails, function, lower};

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
    // One argument per call: its arrays in the entry block (the last call's
    // first), filled just before its mapper, which replaces the call.
    let expected = r#"define void @f(ptr %p, i64 %n) {
  %.offload_baseptrs5 = alloca [1 x ptr], align 8
  %.offload_ptrs6 = alloca [1 x ptr], align 8
  %.offload_sizes7 = alloca [1 x i64], align 8
  %.offload_maptypes8 = alloca [1 x i64], align 8
  %.offload_baseptrs1 = alloca [1 x ptr], align 8
  %.offload_ptrs2 = alloca [1 x ptr], align 8
  %.offload_sizes3 = alloca [1 x i64], align 8
  %.offload_maptypes4 = alloca [1 x i64], align 8
  %.offload_baseptrs = alloca [1 x ptr], align 8
  %.offload_ptrs = alloca [1 x ptr], align 8
  %.offload_sizes = alloca [1 x i64], align 8
  %.offload_maptypes = alloca [1 x i64], align 8
  store ptr %p, ptr %.offload_baseptrs, align 8
  store ptr %p, ptr %.offload_ptrs, align 8
  store i64 %n, ptr %.offload_sizes, align 8
  store i64 3, ptr %.offload_maptypes, align 8
  call void @__tgt_target_data_begin_mapper(ptr null, i64 -1, i32 1, ptr %.offload_baseptrs, ptr %.offload_ptrs, ptr %.offload_sizes, ptr %.offload_maptypes, ptr null, ptr null)
  store ptr %p, ptr %.offload_baseptrs1, align 8
  store ptr %p, ptr %.offload_ptrs2, align 8
  store i64 %n, ptr %.offload_sizes3, align 8
  store i64 2, ptr %.offload_maptypes4, align 8
  call void @__tgt_target_data_update_mapper(ptr null, i64 -1, i32 1, ptr %.offload_baseptrs1, ptr %.offload_ptrs2, ptr %.offload_sizes3, ptr %.offload_maptypes4, ptr null, ptr null)
  store ptr %p, ptr %.offload_baseptrs5, align 8
  store ptr %p, ptr %.offload_ptrs6, align 8
  store i64 %n, ptr %.offload_sizes7, align 8
  store i64 3, ptr %.offload_maptypes8, align 8
  call void @__tgt_target_data_end_mapper(ptr null, i64 -1, i32 1, ptr %.offload_baseptrs5, ptr %.offload_ptrs6, ptr %.offload_sizes7, ptr %.offload_maptypes8, ptr null, ptr null)
  ret void
}"#;
    assert_eq!(function(&ir, "f"), expected);
    assert!(!ir.contains("call void @__offload_data"), "{ir}");
}

#[test]
fn a_data_region_call_of_another_shape_is_an_error() {
    let data = fails(
        "declare void @__offload_data_begin(ptr, i64)\ndefine void @f(ptr %p) {\n  call void @__offload_data_begin(ptr %p, i64 4)\n  ret void\n}\n",
    );
    assert!(
        matches!(
            data,
            Error::DataCall {
                problem: DataCallProblem::Shape,
                ..
            }
        ),
        "{data}"
    );
}
