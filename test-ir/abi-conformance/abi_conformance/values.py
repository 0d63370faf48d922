"""Values (JSON-able): scalars and pointers are ints (raw bits); slices
[ptr, len]; structs, wrappers, arrays lists; unions [index, value]; data
enums [variant, [field values]]; fieldless enums the discriminant. Random
values of a type, and their bytes in memory."""

from .aggregates import Array, Struct, Union, Wrapper
from .arena import ARENA, ARENA_SIZE
from .enums import CEnum, DataEnum
from .types import Opt, Ptr, Scalar, Slice, align_to


def rand_value(ty, r):
    if isinstance(ty, Scalar):
        return rand_scalar(ty, r)
    if isinstance(ty, (Ptr, Opt)):
        if (isinstance(ty, Opt) or ty.kind in ("const", "mut")) and r.random() < 0.25:
            return 0
        return ARENA + align_to(r.randrange(0, ARENA_SIZE // 2), max(ty.pointee.align, 1))
    if isinstance(ty, Slice):
        n = r.randrange(0, 64)
        return [ARENA + align_to(r.randrange(0, ARENA_SIZE // 2), ty.elem.align), n]
    if isinstance(ty, Struct):
        return [rand_value(f, r) for f in ty.fields]
    if isinstance(ty, Wrapper):
        return [rand_value(ty.inner, r)]
    if isinstance(ty, Array):
        return [rand_value(ty.elem, r) for _ in range(ty.n)]
    if isinstance(ty, Union):
        i = r.randrange(len(ty.fields))
        return [i, rand_value(ty.fields[i], r)]
    if isinstance(ty, CEnum):
        return r.choice(ty.values)
    if isinstance(ty, DataEnum):
        v = r.randrange(len(ty.variants))
        return [v, [rand_value(f, r) for f in ty.variants[v]]]
    raise AssertionError(ty)


def rand_scalar(ty, r):
    bits = ty.size * 8
    if ty.kind == "bool":
        return r.randrange(2)
    if ty.kind == "char":
        return r.choice([r.randrange(0, 0xD800), r.randrange(0xE000, 0x110000), 0x41])
    if ty.kind == "float":
        # random sign and mantissa, exponent neither 0 nor all ones (no
        # NaN, infinity or subnormal: every value survives any float move)
        ebits, mbits = {16: (5, 10), 32: (8, 23), 64: (11, 52)}[bits]
        e = r.randrange(1, (1 << ebits) - 1)
        return (r.randrange(2) << (bits - 1)) | (e << mbits) | r.randrange(1 << mbits)
    c = r.random()
    if c < 0.3:
        return r.randrange(0, 256)
    if c < 0.4:
        return (1 << bits) - 1
    return r.randrange(0, 1 << bits)


def serialize(ty, value, buf, off, mask):
    """Writes value at buf[off:]; sets mask[i] for every byte that carries
    the value (padding and inactive union bytes stay unset)."""
    if isinstance(ty, (Scalar, Ptr, Opt, CEnum)):
        size = ty.size
        v = value & ((1 << (size * 8)) - 1)
        buf[off:off + size] = v.to_bytes(size, "little")
        for i in range(size):
            mask[off + i] = 1
    elif isinstance(ty, Slice):
        serialize(Scalar("u64"), value[0], buf, off, mask)
        serialize(Scalar("u64"), value[1], buf, off + 8, mask)
    elif isinstance(ty, Struct):
        for f, o, v in zip(ty.fields, ty.offsets, value):
            serialize(f, v, buf, off + o, mask)
    elif isinstance(ty, Wrapper):
        serialize(ty.inner, value[0], buf, off, mask)
    elif isinstance(ty, Array):
        for i, v in enumerate(value):
            serialize(ty.elem, v, buf, off + i * ty.elem.size, mask)
    elif isinstance(ty, Union):
        serialize(ty.fields[value[0]], value[1], buf, off, mask)
    elif isinstance(ty, DataEnum):
        vi, fvals = value
        serialize(Scalar(ty.tag), ty.discriminants[vi], buf, off, mask)
        for f, o, v in zip(ty.variants[vi], ty.field_offsets_v[vi], fvals):
            serialize(f, v, buf, off + o, mask)
    else:
        raise AssertionError(ty)


def deep_copy(v):
    return [deep_copy(x) for x in v] if isinstance(v, list) else v


def value_at(value, path):
    for step, i in path:
        value = value[i]
    return value


def set_value_at(value, path, v):
    for step, i in path[:-1]:
        value = value[i]
    value[path[-1][1]] = v
