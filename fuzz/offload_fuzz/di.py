"""Debug-info metadata text: a module's compile unit, a kernel's
DISubprogram, and DI types for source types (srctypes.Src), with
overrides the lies of gen_debuginfo use. Used by the debuginfo family."""

from .srctypes import SCALARS


class DI:
    """The debug-info metadata of one module under construction, numbered
    from `first` (the rest of the module uses numbers below it)."""

    def __init__(self, first=1000):
        self.lines = []
        self.n = first
        self.basic = {}
        self.file = self.add('!DIFile(filename: "kernel.rs", directory: "/fuzz")')
        self.cu = self.add(f"!DICompileUnit(language: DW_LANG_Rust, file: {self.file}, "
                           'producer: "offload-fuzz", isOptimized: true, runtimeVersion: 0, '
                           "emissionKind: FullDebug)", distinct=True)

    def reserve(self):
        self.n += 1
        return f"!{self.n}"

    def define(self, ref, body, distinct=False):
        self.lines.append(f"{ref} = {'distinct ' if distinct else ''}{body}")
        return ref

    def add(self, body, distinct=False):
        return self.define(self.reserve(), body, distinct)

    def module_metadata(self):
        """Named metadata and flags for the module, then every node."""
        v, d = self.reserve(), self.reserve()
        return (["!llvm.module.flags = !{" + f"{v}, {d}" + "}", f"!llvm.dbg.cu = !{{{self.cu}}}",
                 f'{v} = !{{i32 7, !"Dwarf Version", i32 4}}',
                 f'{d} = !{{i32 2, !"Debug Info Version", i32 3}}'] + self.lines)

    # -- types -------------------------------------------------------------

    def basic_type(self, name, bits=None):
        key = (name, bits)
        if key not in self.basic:
            _, size, _, enc = SCALARS[name]
            bits = size * 8 if bits is None else bits
            self.basic[key] = self.add(f'!DIBasicType(name: "{name}", size: {bits}, encoding: {enc})')
        return self.basic[key]

    def pointer_type(self, t, bits=64):
        base = self.basic_type(t.pointee if t.pointee in SCALARS else "u32")
        return self.add(f'!DIDerivedType(tag: DW_TAG_pointer_type, name: "{t.rust()}", baseType: {base}, '
                        f"size: {bits}, align: 64, dwarfAddressSpace: 0)")

    def type_of(self, t):
        """The true DI type of t."""
        if t.kind == "ptr":
            return self.pointer_type(t)
        if t.scalar:
            return self.basic_type(t.name)
        if t.kind == "array":
            return self.array_type(t)
        return self.composite(t)

    def array_type(self, t, size_bits=None, align_bits=None, count=None, elem=None):
        elem = elem or self.type_of(t.elem)
        count = t.count if count is None else count
        size = t.size * 8 if size_bits is None else size_bits
        align = t.align * 8 if align_bits is None else align_bits
        return self.add(f"!DICompositeType(tag: DW_TAG_array_type, baseType: {elem}, size: {size}, "
                        f"align: {align}, elements: !{{!DISubrange(count: {count}, lowerBound: 0)}})")

    def composite(self, t, size_bits=None, align_bits=None, offsets=None, members=None):
        """A struct or union: its members (`members`: DI refs replacing the
        fields' types, `offsets`: bit offsets replacing theirs)."""
        ref = self.reserve()
        elems = []
        for i, (fname, ft, off) in enumerate(t.fields):
            base = members[i] if members else self.type_of(ft)
            offset = offsets[i] if offsets else off * 8
            elems.append(self.add(f'!DIDerivedType(tag: DW_TAG_member, name: "{fname}", scope: {ref}, '
                                  f"file: {self.file}, baseType: {base}, size: {ft.size * 8}, "
                                  f"align: {ft.align * 8}, offset: {offset})"))
        tag = "DW_TAG_union_type" if t.kind == "union" else "DW_TAG_structure_type"
        size = t.size * 8 if size_bits is None else size_bits
        align = t.align * 8 if align_bits is None else align_bits
        size_text = f"size: {size}, " if size else ""
        return self.define(ref, f'!DICompositeType(tag: {tag}, name: "{t.name}", scope: {self.file}, '
                                f"file: {self.file}, {size_text}align: {align}, "
                                f"elements: !{{{', '.join(elems)}}})")

    def subprogram(self, name, types, variables):
        """A kernel's distinct DISubprogram; `variables`: (name, arg number,
        type ref); returns (subprogram ref, [variable refs], location ref)."""
        st = self.add(f"!DISubroutineType(types: !{{{', '.join(['null'] + types)}}})")
        sp = self.reserve()
        refs = [self.add(f'!DILocalVariable(name: "{v}", arg: {n}, scope: {sp}, file: {self.file}, '
                         f"line: 1, type: {ty})") for v, n, ty in variables]
        self.define(sp, f'!DISubprogram(name: "{name}", scope: {self.file}, file: {self.file}, line: 1, '
                        f"type: {st}, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, "
                        f"unit: {self.cu})", distinct=True)
        loc = self.add(f"!DILocation(line: 1, column: 1, scope: {sp})")
        return sp, refs, loc
