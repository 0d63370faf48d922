"""The 21 host-side refusals the offload-host generator plants: a table.

About 8% of host modules get one function `@bad(ptr %p, i64 %n)` with an
input the pass must refuse, launching the module's reserved kernel (no good
launch uses it). Each row says how the case is planted and the text the
pass's error must contain:

- top: lines added to the module's globals and declarations;
- md: an `!offload.launch` node, numbered with the module's metadata ($M);
- body: the body of @bad (terminators included);
- personality: @bad has `personality ptr @__gxx_personality_v0`;
- drop: module lines containing this text are removed first;
- unless_decl: the row is not drawn when a declaration contains this text.

In top, body and md, $S is the reserved kernel's symbol and $D its launch
descriptor global's.
"""

from .host_kernels import DESCRIPTOR_NAME
from .irtext import sym

HDR = "i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0"  # version 1, no teams/threads/shared
CALL = "  call void $S()\n  ret void\n"
CALL_MD = "  call void $S(), !offload.launch $M\n  ret void\n"

BAD_HOST_CASES = [
    dict(name="unsized", top=["declare void $S(ptr)"],
         body="  call void $S(ptr %p)\n  ret void\n",
         expect="a pointer of unknown size"),
    dict(name="not-in-image",
         top=['@"__offload_launch.nope" = constant [9 x i64] [' + HDR + ", i64 0]",
              "declare void @nope()"],
         body="  call void @nope()\n  ret void\n",
         expect="kernel 'nope' is not in image"),
    dict(name="md-not-in-image", top=["declare void @helper(i64)"], md="!{" + HDR + ", i64 0}",
         body="  call void @helper(i64 %n), !offload.launch $M\n  ret void\n",
         expect="kernel 'helper' is not in image"),
    dict(name="i128", top=["declare void $S(i128)"],
         body="  %w = zext i64 %n to i128\n  call void $S(i128 %w)\n  ret void\n",
         expect="an integer of 128 bits"),
    dict(name="fp80", top=["declare void $S(x86_fp80)"],
         body="  %w = uitofp i64 %n to x86_fp80\n  call void $S(x86_fp80 %w)\n  ret void\n",
         expect="only half, float and double fit a slot"),
    dict(name="i64-result", top=["declare i64 $S()"],
         body="  %r = call i64 $S()\n  store i64 %r, ptr %p\n  ret void\n",
         expect="a launch returns void or i32"),
    dict(name="count",
         top=["declare void $S(i64, i64)",
              "$D = constant [12 x i64] [" + HDR + ", i64 1, i64 0, i64 0, i64 0]"],
         body="  call void $S(i64 %n, i64 %n)\n  ret void\n",
         expect="the launch descriptor describes 1 arguments, the call passes 2"),
    dict(name="version", top=["declare void $S()"],
         md="!{i64 2, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}", body=CALL_MD,
         expect="has layout version 2"),
    dict(name="scalar-to", top=["declare void $S(i64)"], md="!{" + HDR + ", i64 1, i64 1, i64 0, i64 0}",
         body="  call void $S(i64 %n), !offload.launch $M\n  ret void\n",
         expect="a scalar cannot be mapped TO/FROM"),
    dict(name="body",
         top=["$D = constant [9 x i64] [" + HDR + ", i64 0]", "define void $S() {\n  ret void\n}"],
         body=CALL, expect="has a body; a launch calls an external declaration"),
    dict(name="data-shape", top=["declare void @__offload_data_update(ptr, i64)"],
         body="  call void @__offload_data_update(ptr %p, i64 %n)\n  ret void\n",
         expect="expected (__offload_data_update ptr, i64 size, i64 maptype) returning void",
         unless_decl="__offload_data_update"),
    dict(name="len-not-int", top=["declare void $S(ptr, double)"],
         md="!{" + HDR + ", i64 2, i64 3, i64 4, i64 2, i64 0, i64 0, i64 0}",
         body="  call void $S(ptr %p, double 1.0), !offload.launch $M\n  ret void\n",
         expect="its length argument 1 is not an integer argument of the call"),
    dict(name="invoke", top=["declare void $S(i64)", "declare i32 @__gxx_personality_v0(...)"],
         personality=True,
         body=("  invoke void $S(i64 %n) to label %ok unwind label %lp\nok:\n  ret void\n"
               "lp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\n"),
         expect="an invoke; launches must be plain calls"),
    dict(name="addrspace", top=["declare void $S(ptr addrspace(1) dereferenceable(8))"],
         body="  %g = addrspacecast ptr %p to ptr addrspace(1)\n  call void $S(ptr addrspace(1) %g)\n"
              "  ret void\n",
         expect="a pointer outside address space 0"),
    dict(name="agg-from", top=["declare void $S({ i32, i32 })"],
         md="!{" + HDR + ", i64 1, i64 2, i64 0, i64 0}",
         body="  call void $S({ i32, i32 } zeroinitializer), !offload.launch $M\n  ret void\n",
         expect="an aggregate passed by value is mapped TO"),
    dict(name="literal-to", top=["declare void $S(ptr)"], md="!{" + HDR + ", i64 1, i64 257, i64 8, i64 0}",
         body="  call void $S(ptr %p), !offload.launch $M\n  ret void\n",
         expect="is both LITERAL and mapped"),
    dict(name="md-string", top=["declare void $S()"],
         md='!{i64 1, !"teams", i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}', body=CALL_MD,
         expect="operand 1 is not a constant integer"),
    dict(name="odd-bytes", top=["$D = constant [12 x i8] zeroinitializer", "declare void $S()"],
         body=CALL, expect="is 12 bytes, not a whole number of 64-bit words"),
    dict(name="no-init", top=["$D = external constant [9 x i64]", "declare void $S()"],
         body=CALL, expect="has no initializer here"),
    dict(name="teams-wide", top=["declare void $S()"],
         md="!{i64 1, i64 4294967296, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}", body=CALL_MD,
         expect="teams 4294967296 does not fit in 32 bits"),
    dict(name="runtime-decl", drop="@__tgt_target_kernel(",
         top=["declare void @__tgt_target_kernel()", "declare void $S(i64)"],
         body="  call void $S(i64 %n)\n  ret void\n",
         expect="the module declares '__tgt_target_kernel' as void ()"),
]


def plant_bad_case(h, rng):
    """Plants one row of BAD_HOST_CASES into host module h (launching
    h.reserved); returns (the text of @bad, the text the pass's error must
    contain)."""
    rows = [c for c in BAD_HOST_CASES
            if not ("unless_decl" in c and any(c["unless_decl"] in d for d in h.decls))]
    case = rng.choice(rows)
    subst = {"$S": sym(h.reserved), "$D": sym(DESCRIPTOR_NAME + h.reserved)}
    if "md" in case:
        subst["$M"] = h.metadata(case["md"])

    def fill(template):
        for key, value in subst.items():
            template = template.replace(key, value)
        return template

    if "drop" in case:
        h.top = [t for t in h.top if case["drop"] not in t]
    h.top.extend(fill(t) for t in case["top"])
    personality = " personality ptr @__gxx_personality_v0" if case.get("personality") else ""
    fn = f"define void @bad(ptr %p, i64 %n){personality} {{\n" + fill(case["body"]) + "}\n"
    return fn, case["expect"]
