; rustc -O0 declares a by-value argument at its address (`#dbg_declare(ptr
; %s)`). When the kernel writes to the argument, the copy takes over that
; address: the declare follows it to the copy instead of becoming `ptr
; poison`, so a debugger still finds the variable.
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %inputs/rustc-1.95-O0-g.ll | %FileCheck %s

; CHECK-LABEL: define amdgpu_kernel void @k_mut(
; CHECK: %s.copy = alloca [12 x i8], align 4, addrspace(5)
; CHECK-NEXT: call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %s.copy, ptr addrspace(4) align 4 %s, i64 12, i1 false)
; CHECK-NEXT: %s.copy.generic = addrspacecast ptr addrspace(5) %s.copy to ptr
; CHECK-NEXT: #dbg_declare(ptr %s.copy.generic, [[S:![0-9]+]],
; CHECK-NOT: #dbg_declare(ptr poison, [[S]],
; CHECK: ret void
