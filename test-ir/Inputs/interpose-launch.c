// An LD_PRELOAD interposer of libomptarget's __tgt_target_kernel: prints what
// each launch passes (the device, num_teams and thread_limit arguments, and
// the KernelArgs grid, dynamic memory, argument sizes and map types), then
// launches through the real function. The host plugin runs every kernel once
// whatever the grid, so this is how a test sees the values reach the runtime.
// It also prints each __tgt_register_lib (how many images a program
// registers: one per image, whatever number of objects carry it).
// Build: clang -shared -fPIC interpose-launch.c -o interpose.so -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

// KernelArgs version 3 (struct.__tgt_kernel_arguments).
struct KernelArgs {
  uint32_t Version, NumArgs;
  void **ArgBasePtrs, **ArgPtrs;
  int64_t *ArgSizes, *ArgTypes;
  void **ArgNames, **ArgMappers;
  uint64_t Tripcount, Flags;
  uint32_t NumTeams[3], ThreadLimit[3], DynCGroupMem;
};

typedef int (*Launch)(void *, int64_t, int32_t, int32_t, void *, struct KernelArgs *);

int __tgt_target_kernel(void *Loc, int64_t Device, int32_t Teams, int32_t Threads, void *Region,
                        struct KernelArgs *Args) {
  static Launch Real;
  if (!Real)
    Real = (Launch)dlsym(RTLD_NEXT, "__tgt_target_kernel");
  fprintf(stderr,
          "launch: device %" PRId64 " num_teams %d thread_limit %d NumTeams %u %u %u ThreadLimit %u %u %u "
          "DynCGroupMem %u sizes",
          Device, Teams, Threads, Args->NumTeams[0], Args->NumTeams[1], Args->NumTeams[2],
          Args->ThreadLimit[0], Args->ThreadLimit[1], Args->ThreadLimit[2], Args->DynCGroupMem);
  for (uint32_t I = 0; I < Args->NumArgs; ++I)
    fprintf(stderr, " %" PRId64, Args->ArgSizes[I]);
  fprintf(stderr, " maptypes");
  for (uint32_t I = 0; I < Args->NumArgs; ++I)
    fprintf(stderr, " 0x%" PRIx64, Args->ArgTypes[I]);
  fprintf(stderr, "\n");
  return Real(Loc, Device, Teams, Threads, Region, Args);
}

typedef void (*Register)(void *);

void __tgt_register_lib(void *Desc) {
  static Register Real;
  if (!Real)
    Real = (Register)dlsym(RTLD_NEXT, "__tgt_register_lib");
  // __tgt_bin_desc: NumDeviceImages, then pointers.
  fprintf(stderr, "register_lib: %d image(s)\n", *(int *)Desc);
  Real(Desc);
}
