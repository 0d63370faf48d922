; Malformed pass parameters: rejected while the pipeline is parsed, before any
; IR is read, with the pass named; no output file. Every pipeline-parameter
; message of the four passes is pinned here and nowhere else in lit. Each is
; printed as `error: <pass>: ...`; the parsing callback then refuses the name,
; and opt fails the pipeline with its own "unknown pass name" (no fatal
; error: under rustc that would exit from a codegen thread).
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi<x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-FLAG %s
; ABI-FLAG: error: amdgpu-kernel-abi: takes no parameters, got 'x'
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi<x=1>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-KEY %s
; ABI-KEY: error: amdgpu-kernel-abi: takes no parameters, got 'x=1'
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi<x' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-UNTERMINATED %s
; ABI-UNTERMINATED: error: amdgpu-kernel-abi: pass parameters must end with '>' and cannot contain ',' (LLVM's pipeline parser splits there); got 'amdgpu-kernel-abi<x...'
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi<<x>>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=ABI-NESTED %s
; ABI-NESTED: error: amdgpu-kernel-abi: takes no parameters, got '<x>'
;
; RUN: %no-output-file %t.out not %opt -passes='byref-callee-copy<x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=COPY-FLAG %s
; COPY-FLAG: error: byref-callee-copy: takes no parameters, got 'x'
;
; RUN: %no-output-file %t.out not %opt -passes='byref-callee-copy<=>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=COPY-EMPTY-PAIR %s
; COPY-EMPTY-PAIR: error: byref-callee-copy: takes no parameters, got '='
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-NO-VALUE %s
; WRAP-NO-VALUE: error: offload-wrap-kernels: parameter 'kernels' needs a value ('kernels=...')
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-NO-VALUE %s
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernel=x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-UNKNOWN-KEY %s
; WRAP-UNKNOWN-KEY: error: offload-wrap-kernels: unknown parameter 'kernel' (accepted: kernels, codegen-unit, records)
;
; Parse time, not run time: the first pass would fail when run (the module
; has no 'nope'), but the second one's parameters are rejected while the
; pipeline is parsed.
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=nope>,offload-wrap-kernels<kernel=x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-UNKNOWN-KEY %s
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<=k>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-EMPTY-KEY %s
; WRAP-EMPTY-KEY: error: offload-wrap-kernels: unknown parameter '' (accepted: kernels, codegen-unit, records)
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=k;verbose>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-UNKNOWN-FLAG %s
; WRAP-UNKNOWN-FLAG: error: offload-wrap-kernels: unknown parameter 'verbose' (accepted: kernels, codegen-unit, records)
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=:>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-ONLY-SEPARATOR %s
; WRAP-ONLY-SEPARATOR: error: offload-wrap-kernels: parameter 'kernels': empty kernel name in 'kernels=:'
;
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=a::b>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-EMPTY-NAME %s
; WRAP-EMPTY-NAME: error: offload-wrap-kernels: parameter 'kernels': empty kernel name in 'kernels=a::b'
;
; LLVM's pipeline parser splits at every ',', also inside '<>' (kernel names
; are separated by ':'):
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=a,b>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-COMMA %s
; WRAP-COMMA: error: offload-wrap-kernels: pass parameters must end with '>' and cannot contain ',' (LLVM's pipeline parser splits there); got 'offload-wrap-kernels<kernels=a...'
;
; RUN: %no-output-file %t.out not %opt -passes='offload-host<imag=x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-UNKNOWN-KEY %s
; HOST-UNKNOWN-KEY: error: offload-host: unknown parameter 'imag' (accepted: image, teams, threads, device, foreign, arch)
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=x.so;foreign=a::b>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-FOREIGN %s
; HOST-FOREIGN: error: offload-host: parameter 'foreign': an empty kernel name
;
; RUN: %no-output-file %t.out not %opt -passes=offload-host -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-NO-IMAGE %s
; HOST-NO-IMAGE: error: offload-host: needs the device image: 'offload-host<image=PATH>'
;
; (The image does not exist: parameters are checked before it is read.)
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t.none.so;teams=many>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-TEAMS %s
; HOST-TEAMS: error: offload-host: parameter 'teams': 'many' is not a valid number
;
; RUN: %no-output-file %t.out not %opt -passes='amdgpu-kernel-abi,byref-callee-copy<x>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=LATER-PASS %s
; LATER-PASS: error: byref-callee-copy: takes no parameters, got 'x'
;
; A key given twice is an error, not "the last one wins" (kernels= and
; offload-host's image= add up: several images are read in order):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=a.so;teams=1;teams=2>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-TWICE %s
; HOST-TWICE: error: offload-host: parameter 'teams' is given twice; give it once
; One image given twice, and two parameters run together where a ';' was
; meant, are named as such (not as an image that cannot be read):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t.a.so;image=%t.a.so>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-IMAGE-TWICE %s
; HOST-IMAGE-TWICE: error: offload-host: parameter 'image': image '{{.*}}.tmp.a.so' is given twice; give each image once
; RUN: %no-output-file %t.out not %opt '-passes=offload-host<image=%t.a.so image=%t.b.so>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-JOINED %s
; HOST-JOINED: error: offload-host: parameter 'image': its value '{{.*}}.tmp.a.so image={{.*}}.tmp.b.so' holds another parameter 'image=...'; separate parameters with ';' ('image=...;image=...')
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=image=%t.a.so>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-JOINED-KEY %s
; HOST-JOINED-KEY: error: offload-host: parameter 'image': its value 'image={{.*}}.tmp.a.so' holds another parameter 'image=...'
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t.a.so;image=%t.b.so>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=HOST-IMAGES %s
; HOST-IMAGES: error: offload-host: cannot read image '{{.*}}.tmp.a.so': No such file or directory
; RUN: %no-output-file %t.out not %opt -passes='offload-wrap-kernels<kernels=f;kernels=nope>' -S %s -o %t.out 2>&1 | %FileCheck --check-prefix=WRAP-KERNELS-ADD-UP %s
; WRAP-KERNELS-ADD-UP: error: offload-wrap-kernels: kernels=: no function named 'nope' in the module
;
; Non-UTF-8 text: a key or a name is refused as such (an image path may be
; any bytes, as Unix paths are: a missing one is "cannot read").
; RUN: %no-output-file %t.out not bash -c '%opt "-passes=offload-wrap-kernels<kernels=$(printf "k\377")>" -S %s -o %t.out' 2>&1 | %FileCheck --check-prefix=WRAP-NOT-UTF8 %s
; WRAP-NOT-UTF8: error: offload-wrap-kernels: parameter 'kernels': value 'k\xff' is not UTF-8 text
; RUN: %no-output-file %t.out not bash -c '%opt "-passes=offload-host<$(printf "im\377ge")=x>" -S %s -o %t.out' 2>&1 | %FileCheck --check-prefix=HOST-KEY-NOT-UTF8 %s
; HOST-KEY-NOT-UTF8: error: offload-host: parameter 'im\xffge=x' is not UTF-8 text
; RUN: %no-output-file %t.out not bash -c '%opt "-passes=offload-host<image=%t.$(printf "\377").so>" -S %s -o %t.out' 2>&1 | %FileCheck --check-prefix=HOST-PATH-NOT-UTF8 %s
; HOST-PATH-NOT-UTF8: error: offload-host: cannot read image '{{.*}}.tmp.{{.+}}.so': No such file or directory
;
; Empty parameter lists are no parameters: the passes run (module unchanged).
; RUN: %opt -S %s -o %t.plain.ll
; RUN: %opt -passes='amdgpu-kernel-abi<>,byref-callee-copy<;>,offload-wrap-kernels<>' -S %s -o %t.empty.ll
; RUN: diff %t.plain.ll %t.empty.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define void @f(i32 %x) {
  ret void
}
