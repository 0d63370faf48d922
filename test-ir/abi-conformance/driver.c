/* x86_64 driver for the execution check of abirun.py.
 *
 * The kernels it calls are AMDGPU kernels after LLVM's
 * amdgpu-lower-kernel-arguments, retargeted to x86_64: every argument is a
 * load from the kernarg segment, whose address the IR now loads from
 * `abi_kernarg`; the kernels take no parameters. A generated table
 * (abi_nkernels, abi_kernels) lists them.
 *
 *   driver IN OUT
 *
 * IN holds, per kernel in table order: u32 kernarg size, the kernarg bytes,
 * u32 record size. For each kernel the driver forks; the child copies the
 * kernarg bytes into a fresh page-aligned mapping it then makes read-only
 * (a store into the kernarg segment, constant memory on the GPU, faults),
 * fills the record at OUT_ADDR with 0xCD, calls the kernel and copies the
 * record out. OUT gets, per kernel: i32 status (0, or 128 + signal, or
 * 256 + exit code), u32 record size, the record bytes.
 *
 * Pointer arguments are arena addresses (ARENA, abi_conformance/arena.py):
 * the arena is mapped at a fixed address and filled with a pattern, so a
 * kernel that wrongly dereferences a pointer value reads defined bytes
 * instead of crashing.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARENA 0x200000000000ULL
#define ARENA_SIZE (1ULL << 20)
#define OUT_ADDR (ARENA + ARENA_SIZE)
#define OUT_SIZE (1ULL << 16)

void *abi_kernarg;
extern const int abi_nkernels;
extern void (*const abi_kernels[])(void);

static void die(const char *what) {
  perror(what);
  exit(2);
}

static uint32_t read_u32(FILE *f) {
  uint32_t v;
  if (fread(&v, 4, 1, f) != 1)
    die("read");
  return v;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
    return 2;
  }
  void *arena = mmap((void *)ARENA, ARENA_SIZE + OUT_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (arena != (void *)ARENA)
    die("mmap arena");
  for (size_t i = 0; i < ARENA_SIZE; i++)
    ((unsigned char *)arena)[i] = (unsigned char)(i * 131 % 251);
  unsigned char *shared = mmap(NULL, OUT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED)
    die("mmap shared");
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
  if (!in || !out)
    die("open");
  long page = sysconf(_SC_PAGESIZE);
  for (int k = 0; k < abi_nkernels; k++) {
    uint32_t ka_size = read_u32(in);
    unsigned char *blob = malloc(ka_size);
    if (fread(blob, 1, ka_size, in) != ka_size)
      die("read kernarg");
    uint32_t rec_size = read_u32(in);
    if (rec_size > OUT_SIZE)
      die("record too large");
    memset(shared, 0, rec_size);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
      die("fork");
    if (pid == 0) {
      alarm(10);
      size_t len = (ka_size + page - 1) / page * page;
      void *ka = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (ka == MAP_FAILED)
        _exit(3);
      memcpy(ka, blob, ka_size);
      if (mprotect(ka, len, PROT_READ))
        _exit(3);
      abi_kernarg = ka;
      memset((void *)OUT_ADDR, 0xCD, rec_size);
      abi_kernels[k]();
      memcpy(shared, (void *)OUT_ADDR, rec_size);
      _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid)
      die("waitpid");
    int32_t status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st) ? 256 + WEXITSTATUS(st) : 0;
    fwrite(&status, 4, 1, out);
    fwrite(&rec_size, 4, 1, out);
    fwrite(shared, 1, rec_size, out);
    free(blob);
  }
  fclose(out);
  return 0;
}
