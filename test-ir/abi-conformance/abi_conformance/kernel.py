"""A kernel: its parameters with one value each, the output record `out`
and the body that stores every leaf of every parameter into it (after the
writes into by-value arguments). Its bytes: the kernarg values and the
record the body must leave. The Rust and C text are in rust_source.py and
c_source.py."""

import random

from .aggregates import Array, Struct, Union, Wrapper
from .arena import FILL, OUT_ADDR
from .enums import CEnum, DataEnum
from .types import Opt, Ptr, Scalar, Slice, c_int_literal, walk
from .values import deep_copy, serialize, set_value_at
from .writes import path_exprs


class Kernel:
    """params: list of [name, Ty, value]; out_pos: index of `out` among the
    parameters; writes: list of dicts (see generate.gen_writes)."""

    def __init__(self, kid, params, out_pos, writes, read_seed):
        self.kid, self.params, self.out_pos, self.writes, self.read_seed = kid, params, out_pos, writes, read_seed
        self.name = f"k{kid}"
        self._build()

    # -- JSON
    def to_json(self):
        return {"id": self.kid, "params": [[n, t.json(), v] for n, t, v in self.params],
                "out_pos": self.out_pos, "writes": self.writes, "read_seed": self.read_seed}

    # -- naming and body
    def _build(self):
        self.types = []  # named type nodes in declaration order
        seen = {}
        for _, ty, _ in self.params:
            for node in walk(ty):
                if node.named:
                    key = repr(node.json())
                    if key in seen:
                        node.name = seen[key].name
                        continue
                    node.name = f"T{self.kid}_{len(self.types)}"
                    seen[key] = node
                    self.types.append(node)
        self._body()

    def _body(self):
        r = random.Random(self.read_seed)
        self.rec = []  # [Ty, expected value or None]
        self.rec_src = []  # the Rust expression each record field stores
        self.rec_param = []  # and the parameter it comes from
        rust, c = [], []
        # writes first: they change the values the reads see
        values = {n: deep_copy(v) for n, _, v in self.params}
        types = {n: t for n, t, _ in self.params}
        # a top-level array parameter is a struct around the array in C
        self.cnames = {n: f"{n}.a" if isinstance(t, Array) else n for n, t, _ in self.params}
        for w in self.writes:
            self._emit_write(w, types, values, rust, c)
        order = list(range(len(self.params)))
        r.shuffle(order)
        self._fresh = 0
        for i in order:
            n, ty, _ = self.params[i]
            self._root = n
            self._reads(ty, n, self.cnames[n], values[n], r, rust, c)
        self.rust_body, self.c_body = rust, c
        rec_fields = [t for t, _ in self.rec]
        self.rec_ty = Struct(rec_fields) if rec_fields else Struct([Scalar("u8")])
        if not rec_fields:
            self.rec.append([Scalar("u8"), None])
            self.rec_src.append("(unused)")
            self.rec_param.append(None)
        self.rec_ty.name = f"R{self.kid}"
        self.rec_ty.prefix = "r"

    def _emit_write(self, w, types, values, rust, c):
        kind = w["kind"]
        tgt = [(p, [tuple(s) for s in path]) for p, path in w["targets"]]
        ty = self._leaf_type(types[tgt[0][0]], tgt[0][1])
        lit_r, lit_c, bits = w["lit"]
        if kind == "select":
            # a store through a pointer chosen at run time: it stays a store
            # into the argument's memory after optimisation; the other
            # choice is another leaf of that type, or a local
            n = len(rust)
            (pa, ka) = tgt[0]
            ra, ca = path_exprs(pa, ka, self.cnames[pa])
            assert not any(s == "a" for s, _ in ka)
            if len(tgt) > 1:
                (pb, kb) = tgt[1]
                rb, cb = path_exprs(pb, kb, self.cnames[pb])
                pre_r = pre_c = ""
            else:
                pb = None
                rb, cb = f"l{n}", f"l{n}"
                pre_r, pre_c = f"let mut l{n}: {ty.rust()} = {lit_r}; ", f"{ty.c()} l{n} = {lit_c}; "
            rust.append(f"{pre_r}let q{n}: *mut {ty.rust()} = if {w['cond']} {{ &raw mut {ra} }} else {{ &raw mut {rb} }}; *q{n} = {lit_r};")
            c.append(f"{{ {pre_c}{ty.c()} *q = {w['cond']} ? &{ca} : &{cb}; *q = {lit_c}; }}")
            if values[w["cond"]]:
                set_value_at(values[pa], ka, bits) if ka else values.__setitem__(pa, bits)
            elif pb is not None:
                set_value_at(values[pb], kb, bits) if kb else values.__setitem__(pb, bits)
            return
        p, path = tgt[0]
        rx, cx = path_exprs(p, path, self.cnames[p])
        if path and path[-1][0] == "a":
            arr_r, _ = path_exprs(p, path[:-1])
            n = self._leaf_type(types[p], path[:-1]).n
            names = [f"e{len(rust)}_{i}" for i in range(n)]
            rebuilt = [lit_r if i == path[-1][1] else names[i] for i in range(n)]
            stmt = f"let [{', '.join(names)}] = {arr_r}; {arr_r} = [{', '.join(rebuilt)}];"
        else:
            stmt = f"{rx} = {lit_r};"
        if kind == "cond":
            rust.append(f"if {w['cond']} {{ {stmt} }}")
            c.append(f"if ({w['cond']}) {cx} = {lit_c};")
            if not values[w["cond"]]:
                return
        else:
            rust.append(stmt)
            c.append(f"{cx} = {lit_c};")
        if path:
            set_value_at(values[p], path, bits)
        else:
            values[p] = bits

    def _leaf_type(self, ty, path):
        for step, i in path:
            ty = {"f": lambda: ty.fields[i], "w": lambda: ty.inner, "a": lambda: ty.elem}[step]()
        return ty

    def _rec(self, ty, value, src):
        self.rec.append([ty, value])
        self.rec_src.append(src)
        self.rec_param.append(self._root)
        return f"r{len(self.rec) - 1}"

    def _reads(self, ty, rx, cx, value, r, rust, c):
        leaf = isinstance(ty, (Scalar, Ptr, Opt, Slice, CEnum))
        whole = isinstance(ty, (Struct, Wrapper, Array)) and r.random() < 0.2
        if leaf or whole:
            f = self._rec(ty, value, rx)
            rust.append(f"(*out).{f} = {rx};")
            if isinstance(ty, Array):
                c.append(f"__builtin_memcpy(&out->{f}, &{cx}, sizeof(out->{f}));")
            else:
                c.append(f"out->{f} = {cx};")
        elif isinstance(ty, Struct):
            for i, fty in enumerate(ty.fields):
                self._reads(fty, f"{rx}.f{i}", f"{cx}.f{i}", None if value is None else value[i], r, rust, c)
        elif isinstance(ty, Wrapper):
            self._reads(ty.inner, f"{rx}.0", f"{cx}.f0", None if value is None else value[0], r, rust, c)
        elif isinstance(ty, Array):
            self._fresh += 1
            names = [f"a{self._fresh}_{i}" for i in range(ty.n)]
            rust.append(f"let [{', '.join(names)}] = {rx};")
            for i in range(ty.n):
                self._reads(ty.elem, names[i], f"{cx}[{i}]", None if value is None else value[i], r, rust, c)
        elif isinstance(ty, Union):
            # read the field the value was written as (others are not valid)
            i, v = value if value is not None else (0, None)
            self._reads(ty.fields[i], f"{rx}.u{i}", f"{cx}.u{i}", v, r, rust, c)
        elif isinstance(ty, DataEnum):
            active = None if value is None else value[0]
            self._fresh += 1
            arms_r, arms_c = [], []
            for vi, fields in enumerate(ty.variants):
                names = [f"x{self._fresh}_{vi}_{j}" for j in range(len(fields))]
                on = value is not None and active == vi
                mark = self._rec(Scalar("u8"), vi + 1 if on else None, f"{rx} is V{vi}")
                br, bc = [f"(*out).{mark} = {vi + 1}u8;"], [f"out->{mark} = {vi + 1};"]
                for j, fty in enumerate(fields):
                    self._reads(fty, names[j], ty.c_field(cx, vi, j), value[1][j] if on else None, r, br, bc)
                pat = f"{ty.name}::V{vi}" + (f"({', '.join(names)})" if fields else "")
                arms_r.append(f"{pat} => {{ {' '.join(br)} }}")
                arms_c.append(f"case {c_int_literal(ty.discriminants[vi], ty.tag)}: {{ {' '.join(bc)} break; }}")
            rust.append(f"match {rx} {{ {' '.join(arms_r)} }}")
            c.append(f"switch ({ty.c_tag(cx)}) {{ {' '.join(arms_c)} }}")
        else:
            raise AssertionError(ty)

    # -- signatures
    def sig_params(self):
        """[(name, Ty or None for out)] in parameter order."""
        ps = [(n, t) for n, t, _ in self.params]
        ps.insert(self.out_pos, ("out", None))
        return ps

    # -- bytes
    def arg_types(self):
        """Source types in parameter order, `out` included (as a pointer)."""
        return [Ptr("mut", self.rec_ty) if t is None else t for _, t in self.sig_params()]

    def arg_values(self):
        vals = [v for _, _, v in self.params]
        vals.insert(self.out_pos, OUT_ADDR)
        return vals

    def arg_bytes(self):
        """[(bytes, mask)] for each parameter's value."""
        out = []
        for t, v in zip(self.arg_types(), self.arg_values()):
            buf, mask = bytearray(t.size), bytearray(t.size)
            serialize(t, v, buf, 0, mask)
            out.append((bytes(buf), bytes(mask)))
        return out

    def expected_record(self):
        """(bytes, mask): what the body must leave in *out; unwritten fields
        keep the driver's FILL bytes and are compared as such."""
        size = self.rec_ty.size
        buf, mask = bytearray([FILL]) * size, bytearray(size)
        for (t, v), o in zip(self.rec, self.rec_ty.offsets):
            if v is None:
                for i in range(t.size):
                    mask[o + i] = 1
            else:
                serialize(t, v, buf, o, mask)
        return bytes(buf), bytes(mask)

    def describe(self):
        """One line: the Rust signature with types spelled out."""
        parts = []
        for n, t in self.sig_params():
            parts.append("out: *mut R" if t is None else f"{n}: {t.shape()}")
        w = f"  [writes: {', '.join(w['kind'] for w in self.writes)}]" if self.writes else ""
        return f"{self.name}({', '.join(parts)}){w}"
