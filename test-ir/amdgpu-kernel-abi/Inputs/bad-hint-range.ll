; A hint naming a parameter the kernel does not have.
define amdgpu_kernel void @k(i32 %a, i32 %b) !offload.aggregate.args !0 {
  ret void
}
!0 = !{!1}
!1 = !{i32 1, i32 2, i64 8, i64 4}
