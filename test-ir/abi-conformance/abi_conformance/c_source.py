"""The C side of a kernel: the equivalent HIP C for clang 22, with
`static_assert`s that clang agrees with the layout model."""

from .aggregates import Array, Struct, Wrapper

C_PRELUDE = """\
#define __global__ __attribute__((global))
#define offsetof(t, f) __builtin_offsetof(t, f)
typedef unsigned char u8; typedef signed char i8;
typedef unsigned short u16; typedef short i16;
typedef unsigned int u32; typedef int i32;
typedef unsigned long long u64; typedef long long i64;
/* Rust's i128/u128 have alignment 8 on amdgcn; C's __int128 has 16. */
typedef unsigned __int128 u128 __attribute__((aligned(8)));
typedef __int128 i128 __attribute__((aligned(8)));
typedef unsigned long usize; typedef long isize;
typedef _Float16 f16; typedef float f32; typedef double f64;
typedef unsigned int rchar; /* Rust char: a Unicode scalar value in 4 bytes */
static_assert(sizeof(u128) == 16 && alignof(u128) == 8, "u128");
static_assert(sizeof(usize) == 8 && sizeof(bool) == 1 && sizeof(void *) == 8, "sizes");
"""


def param_type(t):
    """A parameter's C type: a top-level array is passed in a struct around it (C has no array parameters)."""
    return f"AW_{t.name}" if isinstance(t, Array) else t.c()


def kernel_c(k):
    """The kernel's HIP C: its types, record, layout checks and the kernel."""
    out = []
    for t in k.types:
        out.append(t.c_decl())
    for _, t, _ in k.params:
        if isinstance(t, Array):
            out.append(f"struct AW_{t.name} {{ {t.name} a; }};")
    rec = k.rec_ty
    fields = " ".join(f"{t.c()} r{i};" for i, (t, _) in enumerate(k.rec))
    out.append(f"struct {rec.name} {{ {fields} }};")
    out += asserts(k)
    parts = []
    for n, t in k.sig_params():
        parts.append(f"{rec.name} *out" if t is None else f"{param_type(t)} {n}")
    out.append(f"extern \"C\" __global__ void {k.name}({', '.join(parts)}) {{")
    out += [f"  {s}" for s in k.c_body]
    out.append("}")
    return "\n".join(out) + "\n"


def asserts(k):
    """`static_assert`s that clang's sizes, alignments and field offsets are the model's."""
    out = []
    for t in k.types + [k.rec_ty]:
        n = t.name
        out.append(f"static_assert(sizeof({n}) == {t.size} && alignof({n}) == {t.align}, \"{n}\");")
        if isinstance(t, Struct):
            for f, o in t.field_offsets():
                out.append(f"static_assert(offsetof({n}, {f}) == {o}, \"{n}.{f}\");")
        if isinstance(t, Wrapper):
            out.append(f"static_assert(offsetof({n}, f0) == 0, \"{n}\");")
        if hasattr(t, "c_asserts"):
            out += t.c_asserts()
    return out
