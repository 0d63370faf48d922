"""Host-side building blocks of the offload-host generator: values for
launch arguments at a point of a host function (HostFn), a launched
kernel's random declaration and launch descriptor (HostKernel), and the
descriptor's metadata form (md_words)."""

from .irtext import Body, leaves, rand_aggregate, rand_scalar, rand_vector, sym, text

HOST_SCALARS = [("i", 1), ("i", 8), ("i", 16), ("i", 32), ("i", 64), ("f", "half"), ("f", "float"),
                ("f", "double")]
DESCRIPTOR_NAME = "__offload_launch."


def const_of(rng, t):
    """A constant of scalar type t, as IR text."""
    if t[0] == "i":
        if t[1] == 1:
            return rng.choice(["true", "false"])
        return str(rng.choice([0, 1, -1, 7, 100, 2 ** (t[1] - 1) - 1]))
    if t[0] == "f":
        return rng.choice(["0.0", "1.0", "-2.5", "0x7FF0000000000000" if t[1] != "half" else "0xH7C00"])
    return "zeroinitializer"


class HostFn(Body):
    """Instructions of one host function under construction (`lines`), and
    values for launch arguments at the current point."""

    def __init__(self, rng, prefix):
        super().__init__(prefix)
        self.rng = rng

    def fresh(self, base="v"):
        return super().fresh(base)

    def emit(self, rhs, base="v"):
        return super().emit(rhs, base)

    def value(self, t, scope):
        """A value of type t at the current point: from scope, derived from
        it, or a constant."""
        rng = self.rng
        same = [v for v, vt in scope if vt == t]
        if same and rng.random() < 0.6:
            return rng.choice(same)
        if t[0] == "p":
            ptrs = [v for v, vt in scope if vt == ("p", 0)]
            if t[1] != 0:  # a field of an aggregate
                if ptrs and rng.random() < 0.5:
                    return self.emit(f"addrspacecast ptr {rng.choice(ptrs)} to {text(t)}")
                return "null"
            if not ptrs:
                return "null"
            p = rng.choice(ptrs)
            r = rng.random()
            if r < 0.3:
                return self.emit(f"getelementptr inbounds i8, ptr {p}, i64 {rng.choice([0, 4, 16])}")
            if r < 0.4 and len(ptrs) > 1:
                c = self.value(("i", 1), scope)
                return self.emit(f"select i1 {c}, ptr {p}, ptr {rng.choice(ptrs)}")
            return p
        if t[0] == "i":
            ints = [(v, vt) for v, vt in scope if vt[0] == "i" and vt != t]
            if ints and rng.random() < 0.6:
                v, vt = rng.choice(ints)
                if vt[1] > t[1]:
                    return self.emit(f"trunc {text(vt)} {v} to {text(t)}")
                return self.emit(f"{rng.choice(['zext', 'sext'])} {text(vt)} {v} to {text(t)}")
            return const_of(rng, t)
        if t[0] == "f":
            ints = [(v, vt) for v, vt in scope if vt[0] == "i"]
            if ints and rng.random() < 0.5:
                v, vt = rng.choice(ints)
                return self.emit(f"{rng.choice(['sitofp', 'uitofp'])} {text(vt)} {v} to {t[1]}")
            return const_of(rng, t)
        if t[0] == "v":
            ptrs = [v for v, vt in scope if vt == ("p", 0)]
            r = rng.random()
            if ptrs and r < 0.4:
                return self.emit(f"load {text(t)}, ptr {rng.choice(ptrs)}, align 1")
            if r < 0.7:
                e = self.value(t[2], scope)
                return self.emit(f"insertelement {text(t)} zeroinitializer, {text(t[2])} {e}, i32 0")
            return "zeroinitializer"
        # first-class struct / array: insertvalue chains over some leaves
        if rng.random() < 0.2:
            return rng.choice(["zeroinitializer", "poison"])
        agg = "poison" if rng.random() < 0.5 else "zeroinitializer"
        for path, leaf in leaves(t):
            if rng.random() < 0.7:
                lv = self.value(leaf, scope)
                agg = self.emit(f"insertvalue {text(t)} {agg}, {text(leaf)} {lv}, "
                                + ", ".join(str(i) for i in path))
        return agg


class HostKernel:
    """A launched kernel's declaration, descriptor and per-site argument kinds."""

    def __init__(self, rng, name):
        self.name = name
        self.params = []    # dicts: kind, type, decl (attrs), call (attrs), spec (map, size, len)
        self.ret = rng.choice(["void", "void", "i32"])
        self.needs_descriptor = False
        self.cc = "fastcc " if rng.random() < 0.05 else ""
        for _ in range(rng.randint(0, 6)):
            self.add_param(rng)
        rng.random()  # unused draw, kept so that every seed still gives the same module
        if self.needs_descriptor:
            self.desc = rng.choice(["global", "md", "both"])
        else:
            self.desc = rng.choice([None, None, None, "global", "md-some", "both"])
        self.infer_all = not self.needs_descriptor and rng.random() < 0.3
        self.words = self.descriptor_words(rng)
        self.global_form = rng.choice(["i64", "i64", "i8", "struct"])

    def add_param(self, rng):
        r = rng.random()
        p = {"decl": "", "call": "", "spec": (0, 0, 0)}
        if r < 0.3:  # pointer: size from dereferenceable, access from readonly/writeonly
            n = rng.choice([1, 4, 8, 16, 24, 64, 4096])
            size = rng.choice(["dereferenceable", "dereferenceable", "dereferenceable_or_null"]) + f"({n})"
            access = rng.choice(["", "readonly", "writeonly", "readonly", "writeonly"])
            extra = rng.choice(["", "", "noundef", "nonnull", "noalias", "align 8", "captures(none)"])
            where = rng.choice(["decl", "call"])
            p[where] += " " + size
            p[rng.choice(["decl", "call"])] += (" " + access) if access else ""
            p["decl"] += (" " + extra) if extra else ""
            p.update(kind="ptr", type=("p", 0))
            m = rng.random()
            if m < 0.15:
                p["spec"] = (rng.choice([1, 2, 3]), rng.choice([0, n]), 0)
            elif m < 0.2:
                p["spec"] = (rng.choice([0x100, 0x300]), 0, 0)
        elif r < 0.38:  # pointer sized by the descriptor only
            p.update(kind="ptr", type=("p", 0))
            p["spec"] = (rng.choice([0, 1, 2, 3]), rng.choice([1, 8, 100]), 0)
            if rng.random() < 0.5:
                p["call"] += " " + rng.choice(["readonly", "writeonly"])
            self.needs_descriptor = True
        elif r < 0.46:  # slice: pointer + element count argument
            it = rng.choice([("i", 8), ("i", 16), ("i", 32), ("i", 64), ("i", 64)])
            ln = {"kind": "len", "type": it, "decl": "", "call": "", "spec": (0, 0, 0)}
            p.update(kind="ptr", type=("p", 0))
            if rng.random() < 0.5:
                self.params.append(ln)
                at = len(self.params) - 1
                self.params.append(p)
            else:
                self.params.append(p)
                self.params.append(ln)
                at = len(self.params) - 1
            p["spec"] = (rng.choice([1, 2, 3]), rng.choice([1, 2, 4, 8, 12]), at + 1)
            self.needs_descriptor = True
            return
        elif r < 0.56:  # struct by value through byval(T)
            t = rand_aggregate(rng) if rng.random() < 0.8 else rand_scalar(rng)
            attr = f" byval({text(t)}) align {rng.choice([1, 4, 8, 16])}"
            p["decl"] += attr
            if rng.random() < 0.5:
                p["call"] += attr
            p.update(kind="byval", type=("p", 0), byval=t)
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 1]), 0, 0)
        elif r < 0.68:  # first-class aggregate or vector by value
            t = rand_aggregate(rng) if rng.random() < 0.7 else rand_vector(rng)
            p.update(kind="agg", type=t)
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 1]), 0, 0)
        else:
            t = rng.choice(HOST_SCALARS)
            p.update(kind="scalar", type=t)
            if t == ("i", 1) and rng.random() < 0.3:
                p["decl"] += " " + rng.choice(["zeroext", "noundef"])
            if rng.random() < 0.15:
                p["spec"] = (rng.choice([0, 0x100, 0x300]), 0, 0)
        self.params.append(p)

    def descriptor_words(self, rng):
        big = lambda: rng.choice([0, 0, 1, 2, 64, 256, 1024, 2 ** 32 - 1])
        words = [1, big(), big(), big(), big(), big(), big(), rng.choice([0, 0, 64, 4096])]
        if self.infer_all:
            return words + [0]
        words.append(len(self.params))
        for p in self.params:
            words += list(p["spec"])
        return words

    def declaration(self):
        params = ", ".join(f"{text(p['type'])}{p['decl']}" for p in self.params)
        return f"declare {self.cc}{self.ret} {sym(self.name)}({params})"

    def global_descriptor(self):
        w = self.words
        name = sym(DESCRIPTOR_NAME + self.name)
        if self.global_form == "i8":  # rustc's lowering of a [u64; N] static
            b = b"".join(x.to_bytes(8, "little") for x in w)
            s = "".join(f"\\{c:02X}" for c in b)
            return f"{name} = constant [{len(b)} x i8] c\"{s}\", align 8"
        if self.global_form == "struct":
            head = ", ".join(f"i64 {x}" for x in w[:9])
            tail = ", ".join(f"i64 {x}" for x in w[9:])
            ty = f"{{ [9 x i64], [{len(w) - 9} x i64] }}"
            return f"{name} = internal constant {ty} {{ [9 x i64] [{head}], [{len(w) - 9} x i64] [{tail}] }}"
        return f"{name} = constant [{len(w)} x i64] [" + ", ".join(f"i64 {x}" for x in w) + "]"



def md_words(rng, words):
    """Metadata operands: any integer width that holds the value."""
    out = []
    for x in words:
        widths = [64] + [b for b in (32, 16) if x < 2 ** (b - 1)]
        out.append(f"i{rng.choice(widths)} {x}")
    return "!{" + ", ".join(out) + "}"

