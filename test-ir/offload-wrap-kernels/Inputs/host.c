// Hand-written host side for e2e-cpu.ll: registers a CPU device image with
// libomptarget and launches its kernel the way a host pass (clang, rustc, the
// future offload-host pass) would, with KernelArgs version 3:
//   kernel(ptr dyn_ptr, ptr a, i64 n, i64 scale_bits, i64 f_bits, i64 k, ptr s)
// i.e. the signature offload-wrap-kernels gives the device kernel
//   kernel(ptr a, i32 n, double scale, float f, i8 k, ptr byval(S) s):
// `s` is mapped TO and arrives as a device pointer.
//
// Usage: host IMAGE.so   (run with OMP_TARGET_OFFLOAD=MANDATORY)
//
// The host plugin writes the image to /tmp/tmpfile_XXXXXX, dlopens it and
// never deletes it. This program removes exactly its own copies: the
// /tmp/tmpfile_* paths mapped into this process (found in /proc/self/maps).

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// libomptarget's structs as clang 22 and rustc emit them.
typedef struct {
  uint64_t Reserved; // 0: the current (non-legacy) entry format
  uint16_t Version;  // 1
  uint16_t Kind;     // 1: OpenMP
  uint32_t Flags;    // 0: a kernel
  void *Address;     // host-side key (the region id)
  char *SymbolName;  // the kernel symbol in the image
  uint64_t Size;     // 0: a function
  uint64_t Data;
  void *AuxAddr;
} __tgt_offload_entry;

typedef struct {
  void *ImageStart, *ImageEnd;
  __tgt_offload_entry *EntriesBegin, *EntriesEnd;
} __tgt_device_image;

typedef struct {
  int32_t NumDeviceImages;
  __tgt_device_image *DeviceImages;
  __tgt_offload_entry *HostEntriesBegin, *HostEntriesEnd;
} __tgt_bin_desc;

typedef struct {
  uint32_t Version, NumArgs;
  void **ArgBasePtrs, **ArgPtrs;
  int64_t *ArgSizes, *ArgTypes;
  void **ArgNames, **ArgMappers;
  uint64_t Tripcount, Flags;
  uint32_t NumTeams[3], ThreadLimit[3], DynCGroupMem;
} __tgt_kernel_arguments;

_Static_assert(sizeof(__tgt_offload_entry) == 56, "entry layout");
_Static_assert(sizeof(__tgt_kernel_arguments) == 104, "kernel args layout");

void __tgt_register_lib(__tgt_bin_desc *);
void __tgt_unregister_lib(__tgt_bin_desc *);
void __tgt_target_data_begin_mapper(void *loc, int64_t device, int32_t n,
                                    void **base, void **ptrs, int64_t *sizes,
                                    int64_t *types, void **names,
                                    void **mappers);
void __tgt_target_data_end_mapper(void *loc, int64_t device, int32_t n,
                                  void **base, void **ptrs, int64_t *sizes,
                                  int64_t *types, void **names, void **mappers);
int __tgt_target_kernel(void *loc, int64_t device, int32_t num_teams,
                        int32_t thread_limit, void *region_id,
                        __tgt_kernel_arguments *args);

enum {
  TO = 0x1,
  FROM = 0x2,
  TARGET_PARAM = 0x20,
  LITERAL = 0x100,
  IMPLICIT = 0x200,
};

static char region_id; // the kernel's host-side key

struct S {
  double bias;
  int64_t count;
  double unused;
};

static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc(*size);
  if (data && fread(data, 1, *size, f) != *size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

// Removes the host plugin's copies of the image that this process mapped.
static int remove_own_tmpfiles(void) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096], seen[16][256];
  int count = 0;
  if (!maps)
    return -1;
  while (fgets(line, sizeof line, maps)) {
    char *path = strstr(line, "/tmp/tmpfile_");
    if (!path)
      continue;
    path[strcspn(path, " \n")] = '\0';
    int known = 0;
    for (int i = 0; i < count; ++i)
      known |= strcmp(seen[i], path) == 0;
    if (known || count == 16 || strlen(path) >= sizeof seen[0])
      continue;
    strcpy(seen[count], path);
    if (unlink(path) == 0)
      ++count;
  }
  fclose(maps);
  return count;
}

static uint64_t bits_of_double(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

static uint64_t bits_of_float(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits; // zero-extended into the 8-byte slot
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s IMAGE.so\n", argv[0]);
    return 2;
  }
  size_t image_size;
  void *image = read_file(argv[1], &image_size);
  if (!image) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  __tgt_offload_entry entry = {0, 1, 1, 0, &region_id, "kernel", 0, 0, NULL};
  __tgt_device_image device_image = {image, (char *)image + image_size,
                                     &entry, &entry + 1};
  __tgt_bin_desc desc = {1, &device_image, &entry, &entry + 1};
  __tgt_register_lib(&desc);

  double a[4] = {1, 2, 3, 4};
  const int32_t n = 4;
  const double scale = 2.5;
  const float f = 0.25f;
  const int8_t k = -3;
  struct S s = {50.0, 2, 0.0};

  // Map `a` (TO on entry, FROM on exit) and `s` (TO) around the launch.
  void *map_base[2] = {a, &s}, *map_ptrs[2] = {a, &s};
  int64_t map_sizes[2] = {sizeof a, sizeof s}, map_types[2] = {TO | FROM, TO};
  __tgt_target_data_begin_mapper(NULL, -1, 2, map_base, map_ptrs, map_sizes,
                                 map_types, NULL, NULL);

  // One 8-byte slot per argument; scalars are literals (their bit pattern,
  // zero-extended), as the host plugin passes every argument as a pointer.
  void *args[6] = {a,
                   (void *)(uintptr_t)(uint32_t)n,
                   (void *)(uintptr_t)bits_of_double(scale),
                   (void *)(uintptr_t)bits_of_float(f),
                   (void *)(uintptr_t)(uint8_t)k,
                   &s};
  int64_t sizes[6] = {sizeof a, 0, 0, 0, 0, sizeof s};
  const int64_t scalar = LITERAL | IMPLICIT | TARGET_PARAM;
  int64_t types[6] = {TO | FROM | TARGET_PARAM, scalar, scalar, scalar, scalar,
                      TO | TARGET_PARAM};
  __tgt_kernel_arguments kargs = {
      .Version = 3,
      .NumArgs = 6,
      .ArgBasePtrs = args,
      .ArgPtrs = args,
      .ArgSizes = sizes,
      .ArgTypes = types,
      .NumTeams = {1, 0, 0},
      .ThreadLimit = {1, 0, 0},
  };
  int rc = __tgt_target_kernel(NULL, -1, 1, 1, &region_id, &kargs);

  __tgt_target_data_end_mapper(NULL, -1, 2, map_base, map_ptrs, map_sizes,
                               map_types, NULL, NULL);
  printf("launch: %d\n", rc);
  for (int i = 0; i < 4; ++i)
    printf("a[%d] = %.4f\n", i, a[i]);
  printf("tmpfiles removed: %d\n", remove_own_tmpfiles());
  __tgt_unregister_lib(&desc);
  free(image);
  return rc != 0;
}
