"""The type model, enums: fieldless enums and enums with fields of a
defined layout (RFC 2195)."""

from .types import SCALARS, Ty, align_to, c_int_literal


class CEnum(Ty):
    """A fieldless enum: #[repr(C)] (C int) or #[repr(<int>)]."""
    named = True

    def __init__(self, repr_, values):
        self.repr_, self.values = repr_, values
        tag = "i32" if repr_ == "C" else repr_
        self.size, self.align, _ = SCALARS[tag]
        self.tag = tag

    def json(self):
        return ["enum", self.repr_, self.values]

    def shape(self):
        return f"enum({self.repr_})"

    def rust_decl(self):
        vs = ", ".join(f"V{i} = {v}" for i, v in enumerate(self.values))
        return f"#[repr({self.repr_})] pub enum {self.name} {{ {vs} }}"

    def c_decl(self):
        vs = ", ".join(f"{self.name}_V{i} = {c_int_literal(v, self.tag)}" for i, v in enumerate(self.values))
        return f"enum {self.name} : {self.tag} {{ {vs} }};"

    def rust(self):
        return self.name

    def c(self):
        return self.name


def lay_out(fields, start, align):
    """A variant's fields placed in order from offset `start` (each at its
    alignment): their offsets, the end offset and the variant's alignment
    (at least `align`)."""
    offs, off = [], start
    for f in fields:
        off = align_to(off, f.align)
        offs.append(off)
        off += f.size
        align = max(align, f.align)
    return offs, off, align


class DataEnum(Ty):
    """An enum with fields and a defined layout (RFC 2195):
    #[repr(C)] / #[repr(C, Int)]: struct { tag; union { struct {fields} V0; ... } u; }
    #[repr(Int)]:                  union { struct { Int tag; fields } V0; ... }."""
    named = True

    def __init__(self, repr_, variants, discriminants):
        self.repr_, self.variants, self.discriminants = repr_, variants, discriminants
        if repr_ == "C":
            self.tag, self.tagged_union = "i32", False
        elif repr_.startswith("C,"):
            self.tag, self.tagged_union = repr_[2:].strip(), False
        else:
            self.tag, self.tagged_union = repr_, True
        tsize, talign, _ = SCALARS[self.tag]
        self.tag_size = tsize
        # offsets of each variant's fields, from the start of the enum
        self.field_offsets_v = []
        if self.tagged_union:
            size, al = tsize, talign
            for fields in variants:
                offs, off, val = lay_out(fields, tsize, talign)
                self.field_offsets_v.append(offs)
                size, al = max(size, align_to(off, val)), max(al, val)
            self.align, self.size = al, align_to(size, al)
        else:
            usize_, ual = 0, 1
            rel = []
            for fields in variants:
                offs, off, val = lay_out(fields, 0, 1)
                rel.append(offs)
                if fields:
                    usize_, ual = max(usize_, align_to(off, val)), max(ual, val)
            self.union_offset = align_to(tsize, ual)
            self.align = max(talign, ual)
            self.size = align_to(self.union_offset + align_to(usize_, ual), self.align)
            self.field_offsets_v = [[self.union_offset + o for o in offs] for offs in rel]

    def children(self):
        return [f for fields in self.variants for f in fields]

    def json(self):
        return ["dataenum", self.repr_, [[f.json() for f in v] for v in self.variants], self.discriminants]

    def shape(self):
        vs = " | ".join("(" + ", ".join(f.shape() for f in v) + ")" for v in self.variants)
        return f"enum({self.repr_}){{{vs}}}"

    def rust_decl(self):
        vs = []
        for i, fields in enumerate(self.variants):
            v = f"V{i}"
            if fields:
                v += "(" + ", ".join(f.rust() for f in fields) + ")"
            if self.repr_ != "C":
                v += f" = {self.discriminants[i]}"
            vs.append(v)
        return f"#[repr({self.repr_})] pub enum {self.name} {{ {', '.join(vs)} }}"

    def c_decl(self):
        if self.tagged_union:
            members = []
            for i, fields in enumerate(self.variants):
                fs = " ".join(f"{f.c()} _{j};" for j, f in enumerate(fields))
                members.append(f"struct {{ {self.tag} tag; {fs} }} V{i};")
            return f"union {self.name} {{ {' '.join(members)} }};"
        members = []
        for i, fields in enumerate(self.variants):
            if fields:
                fs = " ".join(f"{f.c()} _{j};" for j, f in enumerate(fields))
                members.append(f"struct {{ {fs} }} V{i};")
        return f"struct {self.name} {{ {self.tag} tag; union {{ {' '.join(members)} }} u; }};"

    def c_tag(self, cexpr):
        return f"{cexpr}.V0.tag" if self.tagged_union else f"{cexpr}.tag"

    def c_field(self, cexpr, v, j):
        return f"{cexpr}.V{v}._{j}" if self.tagged_union else f"{cexpr}.u.V{v}._{j}"

    def c_asserts(self):
        out = []
        for v, offs in enumerate(self.field_offsets_v):
            for j, o in enumerate(offs):
                member = f"V{v}._{j}" if self.tagged_union else f"u.V{v}._{j}"
                out.append(f"static_assert(offsetof({self.name}, {member}) == {o}, \"{self.name}\");")
        return out

    def rust(self):
        return self.name

    def c(self):
        return self.name
