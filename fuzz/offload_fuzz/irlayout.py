"""Reading kernel signatures and accesses back from IR text, for the
oracle's checks of the debuginfo and rustc families' outputs: the AMDGPU
kernarg layout of a kernel (offset and size of every explicit argument,
as the backend lays them out) and constant-offset accesses through byref
parameters that leave the argument.
"""

import re

from .srctypes import align_to

# Address spaces whose pointers are 32 bits in the AMDGPU data layout.
SMALL_POINTER_AS = {2, 3, 5, 6}


def define_line(ir, name):
    m = re.search(r"^define [^\n]*@" + re.escape(name) + r"\(.*$", ir, re.M)
    return m[0] if m else None


def split_top(s, sep=","):
    """Splits at `sep` outside brackets and quotes."""
    out, depth, cur, quote = [], 0, "", False
    for c in s:
        if c == '"':
            quote = not quote
        elif not quote and c in "([{<":
            depth += 1
        elif not quote and c in ")]}>":
            depth -= 1
        if c == sep and depth == 0 and not quote:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def params_of(define):
    """The parameter texts of a define line."""
    start = define.index("(", define.index("@"))
    depth = 0
    for i in range(start, len(define)):
        depth += {"(": 1, ")": -1}.get(define[i], 0)
        if depth == 0:
            return split_top(define[start + 1:i])
    raise ValueError(define)


def leading_type(text):
    """(type text, rest) of a parameter or operand text."""
    m = re.match(r"ptr addrspace\(\d+\)|ptr|i\d+|half|bfloat|float|double|x86_fp80|fp128", text)
    if m:
        return m[0], text[m.end():]
    if text[:1] in "<[{":
        close = {"<": ">", "[": "]", "{": "}"}[text[0]]
        depth = 0
        for i, c in enumerate(text):
            depth += (c == text[0]) - (c == close)
            if depth == 0:
                return text[:i + 1], text[i + 1:]
    m = re.match(r"%[\w.\"]+", text)
    if m:
        return m[0], text[m.end():]
    raise ValueError(text)


def type_layout(t):
    """(alloc size, ABI align) in bytes of an IR type in the AMDGPU data
    layout; None for types it does not model (named structs, ...)."""
    t = t.strip()
    m = re.fullmatch(r"i(\d+)", t)
    if m:
        n = max(1, (int(m[1]) + 7) // 8)
        a = 1 << (n - 1).bit_length()
        a = min(a, 8)
        return align_to(n, a), a
    if t in ("half", "bfloat"):
        return 2, 2
    if t == "float":
        return 4, 4
    if t == "double":
        return 8, 8
    m = re.fullmatch(r"ptr(?: addrspace\((\d+)\))?", t)
    if m:
        s = 4 if m[1] and int(m[1]) in SMALL_POINTER_AS else 8
        return s, s
    m = re.fullmatch(r"<(\d+) x (.*)>", t)
    if m:
        bits = re.fullmatch(r"i(\d+)", m[2].strip())
        elem = type_layout(m[2])
        if not elem:
            return None
        # Vectors are packed: <8 x i1> is one byte.
        raw = (int(m[1]) * int(bits[1]) + 7) // 8 if bits else int(m[1]) * elem[0]
        a = 1 << (raw - 1).bit_length() if raw > 1 else 1
        return align_to(raw, a), a
    m = re.fullmatch(r"\[(\d+) x (.*)\]", t)
    if m:
        elem = type_layout(m[2])
        return (int(m[1]) * elem[0], elem[1]) if elem else None
    if t.startswith("{") and t.endswith("}"):
        size, align = 0, 1
        for f in split_top(t[1:-1]):
            fl = type_layout(f)
            if not fl:
                return None
            size = align_to(size, fl[1]) + fl[0]
            align = max(align, fl[1])
        return align_to(size, align), align
    return None


def param_layout(p):
    """(size, align, byref?) of one kernel parameter text, or None."""
    ty, rest = leading_type(p)
    m = re.search(r"\bbyref\(", rest)
    if m:
        inner, _ = leading_type(rest[m.end():])
        lay = type_layout(inner)
        am = re.search(r"\balign (\d+)", rest)
        if not lay:
            return None
        return lay[0], int(am[1]) if am else 1, True
    lay = type_layout(ty)
    return (lay[0], lay[1], False) if lay else None


def kernarg_layout(entries):
    """[(offset, size)] for [(size, align)], as the backend places them."""
    offset, out = 0, []
    for size, align in entries:
        offset = align_to(offset, max(align, 1))
        out.append((offset, size))
        offset += size
    return out


def param_name(p):
    m = re.search(r"(%[\w.\"]+)$", p.strip())
    return m[1] if m else None


def function_body(ir, name):
    m = re.search(r"^define [^\n]*@" + re.escape(name) + r"\(.*?\{\n(.*?)^\}", ir, re.M | re.S)
    return m[1] if m else ""


GEP_I8 = re.compile(r"^\s*(%[\w.]+) = getelementptr (?:inbounds )?(?:nuw )?(?:nusw )?i8, "
                    r"(ptr(?: addrspace\(\d+\))?) (%[\w.]+), i64 (-?\d+)")
GEP_TYPED = re.compile(r"^\s*(%[\w.]+) = getelementptr (?:inbounds )?(?:nuw )?(?:nusw )?"
                       r"(i\d+|float|double|half|ptr), (ptr(?: addrspace\(\d+\))?) (%[\w.]+), i64 (-?\d+)$")
CAST = re.compile(r"^\s*(%[\w.]+) = addrspacecast ptr addrspace\(4\) (%[\w.]+) to ptr\s*(?:,|$)")
LOAD = re.compile(r"= load (?:volatile )?(.+?), (ptr(?: addrspace\(\d+\))?) (%[\w.]+)(?:,|$)")
MEMCPY = re.compile(r"@llvm\.memcpy\.p5\.p4\.i64\(ptr addrspace\(5\)[^,]*, ptr addrspace\(4\)[^,%]*(%[\w.]+), "
                    r"i64 (\d+)")


def byref_overreads(ir, name, generic=False):
    """Accesses at constant offsets through the byref parameters of kernel
    `name` that reach past the parameter's size: [(text, why)]. With
    `generic`, also through `addrspacecast` to generic pointers and GEPs
    on those (what rustc's bodies use); else only address space 4."""
    define = define_line(ir, name)
    if not define:
        return []
    roots = {}  # value -> (param, offset, size of param)
    for p in params_of(define):
        lay = param_layout(p)
        if lay and lay[2] and param_name(p):
            roots[param_name(p)] = (param_name(p), 0, lay[0])
    bad = []
    for line in function_body(ir, name).splitlines():
        line = line.split(", !")[0]
        m = GEP_I8.match(line)
        if m and m[3] in roots and (generic or m[2] == "ptr addrspace(4)"):
            p, off, size = roots[m[3]]
            roots[m[1]] = (p, off + int(m[4]), size)
            continue
        m = GEP_TYPED.match(line)
        if m and m[4] in roots and (generic or m[3] == "ptr addrspace(4)") and type_layout(m[2]):
            p, off, size = roots[m[4]]
            roots[m[1]] = (p, off + int(m[5]) * type_layout(m[2])[0], size)
            continue
        m = CAST.match(line)
        if m and generic and m[2] in roots:
            roots[m[1]] = roots[m[2]]
            continue
        m = LOAD.search(line)
        if m and m[3] in roots and (generic or m[2] == "ptr addrspace(4)"):
            p, off, size = roots[m[3]]
            lay = type_layout(m[1])
            if lay and (off < 0 or off + lay[0] > size):
                bad.append((line.strip(), f"reads bytes {off}..{off + lay[0]} of {p}, a {size}-byte byref"))
        m = MEMCPY.search(line)
        if m and m[1] in roots:
            p, off, size = roots[m[1]]
            if off + int(m[2]) > size:
                bad.append((line.strip(), f"copies {m[2]} bytes at {off} of {p}, a {size}-byte byref"))
    return bad


LINKAGE_WORDS = {"private", "internal", "weak", "weak_odr", "linkonce", "linkonce_odr", "external",
                 "available_externally", "extern_weak", "common", "protected", "hidden", "default",
                 "dso_local", "dso_preemptable"}
TAIL_PROPS = [r'section "[^"]*"', r"comdat(?:\(\$[\w.]+\))?", r"align \d+", r'gc "[^"]*"',
              r"prefix \S+ \S+", r"prologue \S+ \S+", r"personality ptr \S+", r"(?:local_)?unnamed_addr"]


def attribute_groups(ir):
    return {m[1]: m[2] for m in re.finditer(r"^attributes (#\d+) = \{ (.*) \}$", ir, re.M)}


def fn_props(ir, name):
    """The function properties of @name a signature change must keep:
    linkage and visibility words, section, comdat, align, gc, prefix,
    prologue, personality, unnamed_addr, and its attributes (groups
    resolved)."""
    m = re.search(r"^(define|declare) ([^\n]*?)@" + re.escape(name) + r"\(", ir, re.M)
    if not m:
        return set()
    props = {w for w in m[2].split() if w in LINKAGE_WORDS - {"external", "default"}}
    line = ir[m.start():ir.index("\n", m.start())]
    depth, j = 0, m.end() - 1 - m.start()
    for j in range(j, len(line)):
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        if depth == 0:
            break
    tail = re.sub(r"!\w[\w.]* !\d+", "", line[j + 1:]).rstrip(" {")
    for pat in TAIL_PROPS:
        for p in re.findall(pat, tail):
            props.add(p)
        tail = re.sub(pat, "", tail)
    groups = attribute_groups(ir)
    for word in split_top(tail, " "):
        if word.startswith("#"):
            props |= set(split_top(groups.get(word, ""), " "))
        elif word:
            props.add(word)
    return props
