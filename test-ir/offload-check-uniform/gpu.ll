; offload-check-uniform on the GPU targets: the same rule on NVPTX's and
; AMDGPU's intrinsics (thread and lane ids, barriers, shuffles, votes). Each
; file holds an accepted kernel and refused ones.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt -passes=offload-check-uniform -disable-output %t/nvptx.ll 2>&1 | %FileCheck %s --check-prefix=NVPTX
; RUN: not %opt -passes=offload-check-uniform -disable-output %t/amdgcn.ll 2>&1 | %FileCheck %s --check-prefix=AMDGCN
;
; NVPTX: error: offload-check-uniform: kernel 'barrier_in_branch': {{.*}} reach the team barrier `sync_threads` (no line information) and others the team barrier `sync_threads`
; NVPTX: kernel 'shuffle_in_branch': {{.*}} reach a warp operation (shuffle, vote or reduction) {{.*}} and others the team barrier `sync_threads`
; NVPTX: kernel 'atomic_ticket': {{.*}} reach the team barrier `sync_threads`
; NVPTX-NOT: kernel 'fine
; AMDGCN: error: offload-check-uniform: kernel 'barrier_in_branch': {{.*}} reach the team barrier `sync_threads` (no line information) and others the team barrier `sync_threads`
; AMDGCN: kernel 'ballot_by_lane': {{.*}} reach a warp operation (shuffle, vote or reduction)
; AMDGCN-NOT: kernel 'fine

;--- nvptx.ll
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)

; Team id, team size and arguments are uniform: a barrier in a branch on
; them, and one after an early return on the thread id, are fine.
define ptx_kernel void @fine(ptr %x, i32 %n) {
entry:
  %team = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %size = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %first = icmp eq i32 %team, 0
  br i1 %first, label %sync, label %next
sync:
  call void @llvm.nvvm.barrier0()
  br label %next
next:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %out = icmp uge i32 %tid, %n
  br i1 %out, label %ret, label %work
work:
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %tid, i32 0, i32 31)
  call void @llvm.nvvm.barrier0()
  br label %ret
ret:
  ret void
}

define ptx_kernel void @barrier_in_branch(i32 %n) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, %n
  br i1 %in, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  call void @llvm.nvvm.barrier0()
  ret void
}

define ptx_kernel void @shuffle_in_branch(i32 %n) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, %n
  br i1 %in, label %shfl, label %done
shfl:
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %tid, i32 0, i32 31)
  br label %done
done:
  call void @llvm.nvvm.barrier0()
  ret void
}

; The result of an atomic differs between threads.
define ptx_kernel void @atomic_ticket(ptr %counter) {
  %ticket = atomicrmw add ptr %counter, i32 1 monotonic
  %first = icmp eq i32 %ticket, 0
  br i1 %first, label %sync, label %done
sync:
  call void @llvm.nvvm.barrier0()
  br label %done
done:
  call void @llvm.nvvm.barrier0()
  ret void
}

;--- amdgcn.ll
target triple = "amdgcn-amd-amdhsa"

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!100}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, producer: "rustc", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/lib.rs", directory: "/kernels")
!9 = !DISubroutineType(types: !{})
!2 = distinct !DISubprogram(name: "fine_after_trap", scope: !1, file: !1, line: 2, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!3 = distinct !DISubprogram(name: "__offload_unchecked_sync_threads", scope: !1, file: !1, line: 160, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!100 = !{i32 2, !"Debug Info Version", i32 3}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)

; A loop over an argument with a barrier in it, a thread-dependent branch
; around a shuffle's input only.
define amdgpu_kernel void @fine(ptr addrspace(1) %x, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %join ]
  %odd = trunc i32 %tid to i1
  br i1 %odd, label %a, label %join
a:
  br label %join
join:
  %v = phi i32 [ 1, %a ], [ 2, %loop ]
  %s = call i32 @llvm.amdgcn.ds.bpermute(i32 0, i32 %v)
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A thread-dependent bounds check that traps, then a diamond on the thread
; id, then a loop over an argument with a barrier: the loop's counter is
; not divergent (the diamond's paths meet before the loop); and the
; `unsafe` form's barrier, inlined although its entry point is never
; inlined, known by its frame in the debug location.
define amdgpu_kernel void @fine_after_trap(i32 %n, i32 %len) !dbg !2 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %ok = icmp ult i32 %tid, %len
  br i1 %ok, label %diamond, label %trap
trap:
  call void @llvm.trap()
  unreachable
diamond:
  %odd = trunc i32 %tid to i1
  br i1 %odd, label %a, label %merge
a:
  br label %merge
merge:
  br label %loop
loop:
  %k = phi i32 [ 0, %merge ], [ %k.next, %loop ]
  call void @llvm.amdgcn.s.barrier()
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %n
  br i1 %more, label %loop, label %tail
tail:
  %low = icmp ult i32 %tid, 16
  br i1 %low, label %unchecked, label %done
unchecked:
  call void @llvm.amdgcn.s.barrier(), !dbg !DILocation(line: 161, column: 9, scope: !3, inlinedAt: !DILocation(line: 7, column: 9, scope: !2))
  br label %done
done:
  call void @llvm.amdgcn.s.barrier()
  ret void
}

declare void @llvm.trap()

define amdgpu_kernel void @barrier_in_branch(i32 %n) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %in = icmp ult i32 %tid, %n
  br i1 %in, label %sync, label %done
sync:
  call void @llvm.amdgcn.s.barrier()
  br label %done
done:
  call void @llvm.amdgcn.s.barrier()
  ret void
}

; if lane_id() < 16 { ballot(..) }  sync_threads()
define amdgpu_kernel void @ballot_by_lane() {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %low = icmp ult i32 %lane, 16
  br i1 %low, label %vote, label %done
vote:
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  br label %done
done:
  call void @llvm.amdgcn.s.barrier()
  ret void
}
