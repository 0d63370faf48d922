; A hint entry that is not four integers.
define amdgpu_kernel void @k(ptr %s) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{!"size", i64 12}
