; A hint whose size contradicts the pointer's dereferenceable bytes.
define amdgpu_kernel void @k(ptr dereferenceable(16) %s) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 0, i32 1, i64 12, i64 4}
