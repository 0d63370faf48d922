; A kernel with an aggregate argument that is also called directly (a
; mismatched calling convention verifies, a matching one does not).
define amdgpu_kernel void @k({ i32, i32 } %s) {
  ret void
}
define void @caller() {
  call void @k({ i32, i32 } zeroinitializer)
  ret void
}
