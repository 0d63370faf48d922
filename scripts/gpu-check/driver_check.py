#!/usr/bin/env python3
"""The driver check of scripts/gpu-check.sh: loads a cubin into the CUDA
driver (libcuda.so.1 through ctypes, no other package) and launches its
kernels with libomptarget's argument layout.

Usage: driver_check.py LABEL CUBIN

For the three kernels of examples/nvptx it checks each kernel's parameter
layout (cuFuncGetParamInfo: every slot 8 bytes at 0, 8, 16, ...), reads each
kernel's manifest back from the device (cuModuleGetGlobal + copy: the cubin's
bytes of __offload_manifest_<K>, an offload-passes note with the kernel's name
and parameter count), and launches every kernel as libomptarget 22's CUDA
plugin does: one packed buffer of 8-byte slots, first the dyn pointer (~0 for
kernels without an OpenMP kernel environment), then each argument (device
pointers; scalars as their bits zero-extended), passed with
CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE = the kernel's
parameter size; then it compares the results with the numbers host.c expects.

Prints one "PASS driver LABEL <check>: <numbers>" or "FAIL driver LABEL
<check>: <why>" line per check (gpu-check.sh counts them) and exits 0.
"""

import ctypes as C
import struct
import sys

u64, size_t, vp = C.c_uint64, C.c_size_t, C.c_void_p

# cuDeviceGetAttribute: CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, _MINOR
CC_MAJOR, CC_MINOR = 75, 76
# cuLaunchKernel's `extra`: CU_LAUNCH_PARAM_BUFFER_POINTER, _BUFFER_SIZE, _END
BUFFER_POINTER, BUFFER_SIZE, PARAM_END = 1, 2, 0
CUDA_ERROR_INVALID_VALUE = 1

# The kernels of examples/nvptx and their parameter counts.
KERNELS = (("saxpy", 4), ("scalars", 8), ("step", 4))


class CudaError(Exception):
    pass


def bits_f32(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def bits_f64(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def bits_f16(v):
    return struct.unpack("<H", struct.pack("<e", v))[0]


class Driver:
    """The driver calls the check makes, on one module loaded from `image`."""

    def __init__(self, cuda, label, image):
        self.cuda, self.label, self.image = cuda, label, image
        self.module = vp()
        cuda.cuFuncGetParamInfo.argtypes = [vp, size_t, C.POINTER(size_t), C.POINTER(size_t)]
        cuda.cuLaunchKernel.argtypes = [vp] + [C.c_uint] * 7 + [vp, vp, C.POINTER(vp)]
        cuda.cuMemAlloc_v2.argtypes = [C.POINTER(u64), size_t]
        cuda.cuMemcpyHtoD_v2.argtypes = [u64, vp, size_t]
        cuda.cuMemcpyDtoH_v2.argtypes = [vp, u64, size_t]
        cuda.cuMemFree_v2.argtypes = [u64]
        cuda.cuModuleGetGlobal_v2.argtypes = [C.POINTER(u64), C.POINTER(size_t), vp, C.c_char_p]

    def report(self, ok, what, detail):
        print(f"{'PASS' if ok else 'FAIL'} driver {self.label} {what}: {detail}", flush=True)

    def ck(self, res, what):
        if res != 0:
            name = C.c_char_p()
            self.cuda.cuGetErrorName(res, C.byref(name))
            raise CudaError(f"{what}: {name.value.decode() if name.value else res} ({res})")

    def open_device(self):
        """Device 0's primary context, made current; prints the device."""
        cuda, ck = self.cuda, self.ck
        ck(cuda.cuInit(0), "cuInit")
        dev, major, minor, version = C.c_int(), C.c_int(), C.c_int(), C.c_int()
        ck(cuda.cuDeviceGet(C.byref(dev), 0), "cuDeviceGet")
        ck(cuda.cuDeviceGetAttribute(C.byref(major), CC_MAJOR, dev), "compute capability major")
        ck(cuda.cuDeviceGetAttribute(C.byref(minor), CC_MINOR, dev), "compute capability minor")
        ck(cuda.cuDriverGetVersion(C.byref(version)), "cuDriverGetVersion")
        ctx = vp()
        ck(cuda.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        ck(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        print(f"     driver {self.label}: device sm_{major.value}{minor.value}, CUDA driver {version.value}",
              flush=True)

    def load(self):
        buf = C.create_string_buffer(self.image, len(self.image))
        self.ck(self.cuda.cuModuleLoadData(C.byref(self.module), buf), "cuModuleLoadData")

    def unload(self):
        self.cuda.cuModuleUnload(self.module)

    def function(self, name):
        f = vp()
        self.ck(self.cuda.cuModuleGetFunction(C.byref(f), self.module, name.encode()),
                f"cuModuleGetFunction({name})")
        return f

    def params(self, f):
        """[(offset, size)] of the kernel's parameters."""
        layout, i = [], 0
        while True:
            off, size = size_t(), size_t()
            res = self.cuda.cuFuncGetParamInfo(f, i, C.byref(off), C.byref(size))
            if res == CUDA_ERROR_INVALID_VALUE:  # past the last parameter
                return layout
            self.ck(res, "cuFuncGetParamInfo")
            layout.append((off.value, size.value))
            i += 1

    def global_bytes(self, name):
        """(size, bytes) of the module's global `name`, copied from the device."""
        g, n = u64(), size_t()
        self.ck(self.cuda.cuModuleGetGlobal_v2(C.byref(g), C.byref(n), self.module, name.encode()),
                "cuModuleGetGlobal")
        return n.value, self.back(g.value, n.value)

    def device(self, data):
        p = u64()
        self.ck(self.cuda.cuMemAlloc_v2(C.byref(p), len(data)), "cuMemAlloc")
        self.ck(self.cuda.cuMemcpyHtoD_v2(p, data, len(data)), "cuMemcpyHtoD")
        return p.value

    def back(self, p, n):
        out = C.create_string_buffer(n)
        self.ck(self.cuda.cuMemcpyDtoH_v2(out, p, n), "cuMemcpyDtoH")
        return out.raw

    def launch(self, f, grid, block, slots, args_size):
        """libomptarget's buffer: the dyn pointer (~0), then one 8-byte slot
        per argument."""
        packed = C.create_string_buffer(struct.pack(f"<{len(slots) + 1}Q", 2**64 - 1, *slots))
        size = size_t(args_size)
        config = (vp * 5)(BUFFER_POINTER, C.cast(packed, vp), BUFFER_SIZE, C.cast(C.pointer(size), vp), PARAM_END)
        self.ck(self.cuda.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, None, None, config), "cuLaunchKernel")
        self.ck(self.cuda.cuCtxSynchronize(), "cuCtxSynchronize")


def symbol_bytes(image, name):
    """The bytes of ELF symbol `name` in the cubin file (.symtab)."""
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", image, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize) for i in range(shnum)]
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sec[6]][4]
        for at in range(sec[4], sec[4] + sec[5], 24):
            st_name, _, _, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", image, at)
            end = image.index(b"\0", strtab + st_name)
            if image[strtab + st_name:end] == name.encode():
                data = sections[st_shndx]
                start = data[4] + st_value - data[3]
                return image[start:start + st_size]
    return None


def manifest_ok(note, name, count):
    """An offload-passes kernel manifest note (docs/kernel-manifest.md) of
    kernel `name` with `count` parameters."""
    if len(note) < 36:
        return False
    namesz, descsz, kind = struct.unpack_from("<III", note)
    desc = note[12 + ((namesz + 3) & ~3):][:descsz]
    version, params = struct.unpack_from("<II", desc)
    return (note[12:12 + namesz] == b"offload-passes\0" and kind == 0x4D4B and version == 1
            and params == count and desc.endswith(name.encode()))


def describe(note):
    if len(note) < 36:
        return f"{len(note)} bytes, no note"
    namesz, descsz, kind = struct.unpack_from("<III", note)
    desc = note[12 + ((namesz + 3) & ~3):][:descsz]
    version, params = struct.unpack_from("<II", desc)
    owner = note[12:12 + namesz].rstrip(b"\0").decode(errors="replace")
    return f"note {owner} type 0x{kind:x}, version {version}, {params} parameters"


def check_kernels(d):
    """Each kernel's parameter layout and manifest; {name: (function,
    parameter size)} of the kernels found."""
    kernels = {}
    for name, count in KERNELS:
        try:
            f = d.function(name)
            layout = d.params(f)
            want = [(8 * i, 8) for i in range(count + 1)]
            d.report(layout == want, f"{name} params",
                     " ".join(f"{o}:{s}" for o, s in layout) + ("" if layout == want else f" (want {want})"))
            kernels[name] = (f, layout[-1][0] + layout[-1][1] if layout else 0)
        except CudaError as e:
            d.report(False, f"{name} params", str(e))
        try:
            size, got = d.global_bytes(f"__offload_manifest_{name}")
            want = symbol_bytes(d.image, f"__offload_manifest_{name}")
            d.report(got == want and manifest_ok(got, name, count), f"manifest {name}",
                     f"{size} bytes on the device, {'equal to' if got == want else 'NOT equal to'} the cubin's; "
                     f"{describe(got)}")
        except CudaError as e:
            d.report(False, f"manifest {name}", str(e))
    return kernels


def launch_saxpy(d, f, size):
    n = 1000
    x = struct.pack(f"<{n}f", *[0.5 * i for i in range(n)])
    y = struct.pack(f"<{n}f", *[1000.0 - i for i in range(n)])
    dx, dy = d.device(x), d.device(y)
    d.launch(f, 4, 128, [bits_f32(2.5), dx, dy, n], size)
    r = struct.unpack(f"<{n}f", d.back(dy, 4 * n))
    bad = sum(r[i] != 1000.0 + 0.25 * i for i in range(n))
    d.report(bad == 0, "saxpy launch", f"4x128 threads, y[0]={r[0]:g} y[1]={r[1]:g} y[999]={r[999]:g} mismatches={bad}")


def launch_scalars(d, f, size):
    out = d.device(bytes(64))
    slots = [(-5) & 0xFF, (-300) & 0xFFFF, 70000, (-5000000000) & (2**64 - 1), bits_f16(0.5), bits_f32(2.25),
             bits_f64(-1.125), out]
    d.launch(f, 1, 32, slots, size)
    r = struct.unpack("<8d", d.back(out, 64))
    want = (-5.0, -300.0, 70000.0, -5000000000.0, 0.5, 2.25, -1.125, -4999930303.375)
    d.report(r == want, "scalars launch", " ".join(f"{v:g}" for v in r[:7]) + f" sum={r[7]:.3f}")


def launch_step(d, f, size):
    p = d.device(struct.pack("<3d", 1.0, 2.0, 4.0))
    out = d.device(bytes(24))
    d.launch(f, 1, 32, [p, bits_f64(8.0), bits_f64(0.25), out], size)
    r = struct.unpack("<3d", d.back(out, 24))
    d.report(r == (1.625, 2.5, 4.0), "step launch", f"x={r[0]:g} v={r[1]:g} mass={r[2]:g}")


LAUNCHES = (("saxpy", launch_saxpy), ("scalars", launch_scalars), ("step", launch_step))


def main():
    label, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        image = f.read()
    try:
        cuda = C.CDLL("libcuda.so.1")
    except OSError as e:
        print(f"FAIL driver {label} libcuda: cannot load libcuda.so.1: {e}", flush=True)
        return
    d = Driver(cuda, label, image)
    d.open_device()
    try:
        d.load()
        d.report(True, "load", f"{len(image)}-byte cubin loaded")
    except CudaError as e:
        d.report(False, "load", str(e))
        return
    kernels = check_kernels(d)
    try:
        for name, launch in LAUNCHES:
            if name in kernels:
                launch(d, *kernels[name])
    except CudaError as e:
        d.report(False, "launch", str(e))
    d.unload()


if __name__ == "__main__":
    main()
