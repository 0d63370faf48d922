"""Random types: the weights and shapes the generator draws parameters from."""

from .aggregates import WRAPPER_KINDS, Array, Struct, Union, Wrapper
from .enums import CEnum, DataEnum
from .types import INT_REPRS, SCALARS, Opt, Ptr, Scalar, Slice, int_range


class TypeGen:
    def __init__(self, rng):
        self.rng = rng

    def scalar(self):
        r = self.rng
        names = list(SCALARS)
        # favour the common widths; every one appears
        weights = [3 if n in ("u8", "u32", "u64", "f32", "bool", "i32", "usize") else 1 for n in names]
        return Scalar(r.choices(names, weights)[0])

    def pointee(self, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.6:
            return self.scalar()
        return self.ty(depth - 1, copy_only=True, no_ptr=True)

    def ty(self, depth, copy_only=False, no_ptr=False, top=False):
        r = self.rng
        kinds = ["scalar", "ptr", "opt", "slice", "struct", "pair", "wrapper", "array", "union", "enum", "dataenum"]
        weights = [22, 9, 7, 6, 16, 10, 12, 6, 4, 4, 4]
        if depth <= 0:
            kinds, weights = ["scalar", "ptr", "opt", "enum"], [70, 12, 10, 8]
        if no_ptr:
            weights = [w if k not in ("ptr", "opt", "slice") else 0 for k, w in zip(kinds, weights)]
        k = r.choices(kinds, weights)[0]
        if k == "scalar":
            return self.scalar()
        if k == "ptr":
            kinds_ = ["const", "mut", "ref", "nn"] + ([] if copy_only else ["mutref"])
            return Ptr(r.choice(kinds_), self.pointee(depth - 1))
        if k == "opt":
            kinds_ = ["ref", "nn", "maybe"] + ([] if copy_only else ["mutref"])
            return Opt(r.choice(kinds_), self.pointee(depth - 1))
        if k == "slice":
            return Slice(r.choice(["ref", "raw", "mutraw", "str"]), self.scalar())
        if k == "struct":
            n = r.choice([1, 2, 2, 3, 3, 4])
            fields = [self.ty(depth - 1, copy_only, no_ptr) for _ in range(n)]
            return Struct(fields, self.align_attr(fields))
        if k == "pair":
            # two scalar leaves: the ScalarPair rustc splits into two parameters
            # (also around single-field wrappers)
            fields = []
            for _ in range(2):
                f = self.leafish(no_ptr)
                if r.random() < 0.2:
                    f = Wrapper(f, r.choice(["rust", "transparent", "c"]))
                fields.append(f)
            s = Struct(fields)
            if r.random() < 0.15:
                return Wrapper(s, r.choice(["rust", "transparent", "c"]))
            return s
        if k == "wrapper":
            kind = r.choice(WRAPPER_KINDS)
            inner = self.leafish(no_ptr) if r.random() < 0.6 else self.ty(depth - 1, copy_only, no_ptr)
            al = None
            if kind in ("c_align", "rust_align"):
                al = r.choice([2, 4, 8, 16, 32])
            return Wrapper(inner, kind, al)
        if k == "array":
            return Array(self.ty(depth - 1, copy_only, no_ptr) if r.random() < 0.3 else self.leafish(no_ptr),
                         r.choice([1, 1, 2, 2, 3, 4]))
        if k == "union":
            n = r.choice([2, 2, 3])
            return Union([self.ty(depth - 1, True, no_ptr) for _ in range(n)])
        if k == "enum":
            return self.c_enum()
        if k == "dataenum":
            return self.data_enum(depth, copy_only, no_ptr)
        raise AssertionError(k)

    def leafish(self, no_ptr=False):
        r = self.rng
        if no_ptr or r.random() < 0.7:
            return self.scalar()
        return r.choice([lambda: Ptr(r.choice(["const", "mut", "ref", "nn"]), self.scalar()),
                         lambda: Opt(r.choice(["ref", "nn"]), self.scalar()),
                         lambda: self.c_enum()])()

    def align_attr(self, fields):
        if self.rng.random() < 0.12:
            return self.rng.choice([4, 8, 16, 32])
        return None

    def c_enum(self):
        r = self.rng
        repr_ = r.choice(["C"] + INT_REPRS)
        tag = "i32" if repr_ == "C" else repr_
        lo, hi = int_range(tag)
        n = r.choice([1, 2, 3, 4])
        values = sorted(set(r.choice([lo, hi, 0, 1, r.randint(lo, hi)]) for _ in range(n)))
        return CEnum(repr_, values)

    def data_enum(self, depth, copy_only, no_ptr):
        r = self.rng
        repr_ = r.choice(["C", "C, u8", "C, u32", "u8", "u16", "i32", "u64"])
        nv = r.choice([2, 2, 3])
        variants = []
        for _ in range(nv):
            nf = r.choice([0, 1, 1, 2])
            variants.append([self.ty(depth - 2, copy_only, no_ptr) if r.random() < 0.2 else self.leafish(no_ptr)
                             for _ in range(nf)])
        if not any(variants):
            variants[0] = [self.scalar()]
        tag = "i32" if repr_ == "C" else repr_.replace("C,", "").strip()
        lo, hi = int_range(tag)
        discs = []
        while len(discs) < nv:
            d = r.choice([r.randint(0, 5), r.randint(max(lo, -100), min(hi, 1000)), hi])
            if d not in discs:
                discs.append(d)
        if repr_ == "C":
            discs = list(range(nv))
        return DataEnum(repr_, variants, discs)
