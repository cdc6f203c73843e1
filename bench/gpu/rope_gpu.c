/* rope_gpu: runs the PTX that fuser-translate --emit-ptx made for test/lowering/Inputs/rope.mlir
 * (optionally with a larger batch) on the GPU, from its launch-plan text
 * (--launch-plan), checks every variant bit-exactly against a C
 * reference, and times them against a device-to-device copy of the output.
 * Needs only libc and libcuda.so.1 (dlopen): build it on the GPU machine
 * with `cc -O2 -o rope_gpu rope_gpu.c -ldl`.
 *
 *   rope_gpu plan.txt B
 *
 * The kernel's tensors (rope.mlir): t0 cos [1024, 32], t1 sin [1024, 32],
 * t2 x2 = qkv[..., 0:16], t3 x1 = qkv[..., 16:32], t4 x = qkv[..., 0:32]
 * (views of a [B, 1024, 576] buffer with strides (589824, 32, 576, 1) over
 * [B, 16, 1024, *]), t5 out [B, 16, 1024, 32] dense. With `misaligned` the
 * qkv buffer starts one element off 16 bytes: the vector variant's
 * conditions fail and the scalar variant must run. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, CUdevice);
static CUresult (*cuModuleLoadData)(CUmodule *, const void *);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
static CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  void *, void **, void **);
static CUresult (*cuCtxSynchronize)(void);
static CUresult (*cuEventCreate)(CUevent *, unsigned);
static CUresult (*cuEventRecord)(CUevent, void *);
static CUresult (*cuEventSynchronize)(CUevent);
static CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);

#define CK(x)                                                             \
  do {                                                                    \
    CUresult r_ = (x);                                                    \
    if (r_) {                                                             \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, r_); \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

static void load_cuda(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "cannot load libcuda.so.1\n");
    exit(1);
  }
#define SYM(name, sym) *(void **)&name = dlsym(h, sym)
  SYM(cuInit, "cuInit");
  SYM(cuDeviceGet, "cuDeviceGet");
  SYM(cuCtxCreate, "cuCtxCreate_v2");
  SYM(cuModuleLoadData, "cuModuleLoadData");
  SYM(cuModuleGetFunction, "cuModuleGetFunction");
  SYM(cuMemAlloc, "cuMemAlloc_v2");
  SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  SYM(cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  SYM(cuMemsetD8, "cuMemsetD8_v2");
  SYM(cuLaunchKernel, "cuLaunchKernel");
  SYM(cuCtxSynchronize, "cuCtxSynchronize");
  SYM(cuEventCreate, "cuEventCreate");
  SYM(cuEventRecord, "cuEventRecord");
  SYM(cuEventSynchronize, "cuEventSynchronize");
  SYM(cuEventElapsedTime, "cuEventElapsedTime_v2");
  if (!cuEventElapsedTime) SYM(cuEventElapsedTime, "cuEventElapsedTime");
}

/* ---- the launch-plan text (lowering/launch_plan.h) ---------------------- */

typedef struct {
  char entry[160];
  int width, unroll, block, nparams, ptr_tensor[16], ncond, cond_tensor[16], cond_bytes[16];
  char *ptx;
} launch;

static int read_plan(const char *path, launch *ls, int cap) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0;
  char line[1024];
  launch *l = NULL;
  while (fgets(line, sizeof line, f)) {
    int a, b;
    size_t bytes;
    if (strncmp(line, "launch ", 7) == 0 && n < cap) {
      l = &ls[n++];
      memset(l, 0, sizeof *l);
      char variant[32];
      sscanf(line, "launch %159s binary %*s kernel %*s variant %31s width %d unroll %d index_bits %*d param_bits %*d block %d",
             l->entry, variant, &l->width, &l->unroll, &l->block);
    } else if (l && sscanf(line, "param ptr %d", &a) == 1) {
      l->ptr_tensor[l->nparams++] = a;
    } else if (l && strncmp(line, "param ", 6) == 0) {
      fprintf(stderr, "only pointer parameters are supported here: %s", line);
      exit(1);
    } else if (l && sscanf(line, "condition align %d %d", &a, &b) == 2) {
      l->cond_tensor[l->ncond] = a, l->cond_bytes[l->ncond++] = b;
    } else if (l && strncmp(line, "condition", 9) == 0) {
      fprintf(stderr, "only alignment conditions are supported here: %s", line);
      exit(1);
    } else if (l && sscanf(line, "ptx %zu", &bytes) == 1) {
      l->ptx = malloc(bytes + 1);
      if (fread(l->ptx, 1, bytes, f) != bytes) return -1;
      l->ptx[bytes] = 0;
    }
  }
  fclose(f);
  return n;
}

/* ---- reference ------------------------------------------------------------- */

static float bf2f(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint16_t f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rope_gpu plan.txt B\n");
    return 2;
  }
  launch ls[8];
  int nl = read_plan(argv[1], ls, 8);
  int B = atoi(argv[2]);
  if (nl <= 0) {
    fprintf(stderr, "cannot read the plan '%s'\n", argv[1]);
    return 1;
  }
  load_cuda();
  CUdevice dev;
  CUcontext ctx;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuCtxCreate(&ctx, 0, dev));
  const size_t S = 1024, ROW = 576, H = 16, D = 32;
  size_t qkv_n = (size_t)B * S * ROW + 64, tab_n = S * D, out_n = (size_t)B * H * S * D;
  uint16_t *qkv = malloc(qkv_n * 2), *cosb = malloc(tab_n * 2), *sinb = malloc(tab_n * 2);
  uint16_t *out = malloc(out_n * 2), *ref = malloc(out_n * 2);
  uint32_t rng = 1;
  for (size_t i = 0; i < qkv_n; i++) rng = rng * 1664525u + 1013904223u, qkv[i] = f2bf(((rng >> 8) & 0xffff) / 16384.0f - 2);
  for (size_t i = 0; i < tab_n; i++) {
    rng = rng * 1664525u + 1013904223u;
    cosb[i] = f2bf(((rng >> 8) & 0xffff) / 32768.0f - 1);
    sinb[i] = f2bf(((rng >> 9) & 0xffff) / 32768.0f - 1);
  }
  CUdeviceptr d_qkv, d_cos, d_sin, d_out, d_copy;
  CK(cuMemAlloc(&d_qkv, qkv_n * 2));
  CK(cuMemAlloc(&d_cos, tab_n * 2));
  CK(cuMemAlloc(&d_sin, tab_n * 2));
  CK(cuMemAlloc(&d_out, out_n * 2));
  CK(cuMemAlloc(&d_copy, out_n * 2));
  CK(cuMemcpyHtoD(d_qkv, qkv, qkv_n * 2));
  CK(cuMemcpyHtoD(d_cos, cosb, tab_n * 2));
  CK(cuMemcpyHtoD(d_sin, sinb, tab_n * 2));
  CUevent e0, e1;
  CK(cuEventCreate(&e0, 0));
  CK(cuEventCreate(&e1, 0));
  const int reps = 50;
  /* the roofline: a device-to-device copy of the output's bytes */
  CK(cuMemcpyDtoD(d_copy, d_out, out_n * 2));
  CK(cuEventRecord(e0, 0));
  for (int r = 0; r < reps; r++) CK(cuMemcpyDtoD(d_copy, d_out, out_n * 2));
  CK(cuEventRecord(e1, 0));
  CK(cuEventSynchronize(e1));
  float copy_ms;
  CK(cuEventElapsedTime(&copy_ms, e0, e1));
  double copy_us = copy_ms * 1e3 / reps;
  printf("B=%d: %zu output elements; device copy of %zu bytes: %.1f us (%.2f TB/s)\n", B, out_n, out_n * 2, copy_us,
         2.0 * out_n * 2 / copy_us / 1e6);
  int failures = 0;
  for (int shift = 0; shift < 2; shift++) {
    /* reference for this placement of the views */
    uint16_t *base = qkv + shift;
    for (size_t b = 0; b < (size_t)B; b++)
      for (size_t h = 0; h < H; h++)
        for (size_t s = 0; s < S; s++)
          for (size_t d = 0; d < D; d++) {
            size_t in = b * 589824 + h * 32 + s * ROW;
            float cat = d < 16 ? -bf2f(base[in + 16 + d]) : bf2f(base[in + d - 16]);
            float r = bf2f(base[in + d]) * bf2f(cosb[s * D + d]) + bf2f(f2bf(cat)) * bf2f(sinb[s * D + d]);
            ref[((b * H + h) * S + s) * D + d] = f2bf(r);
          }
    CUdeviceptr ptrs[6] = {d_cos, d_sin, d_qkv + 2 * shift, d_qkv + 2 * (shift + 16), d_qkv + 2 * shift, d_out};
    for (int i = 0; i < nl; i++) {
      launch *l = &ls[i];
      bool ok = true;
      for (int c = 0; c < l->ncond; c++) ok &= ptrs[l->cond_tensor[c]] % (unsigned)l->cond_bytes[c] == 0;
      CUmodule mod;
      CUfunction fn;
      CK(cuModuleLoadData(&mod, l->ptx));
      CK(cuModuleGetFunction(&fn, mod, l->entry));
      void *args[16];
      for (int p = 0; p < l->nparams; p++) args[p] = &ptrs[l->ptr_tensor[p]];
      unsigned long long n = out_n, W = (unsigned)l->width, U = (unsigned)l->unroll;
      unsigned long long vt = (n / W + U - 1) / U, tail = n % W, threads = vt > tail ? vt : tail;
      unsigned grid = (unsigned)((threads + l->block - 1) / l->block);
      if (!ok) {
        printf("  shift %d %-24s conditions fail: not run\n", shift, l->entry);
        continue;
      }
      CK(cuMemsetD8(d_out, 0xff, out_n * 2));
      CK(cuLaunchKernel(fn, grid, 1, 1, (unsigned)l->block, 1, 1, 0, NULL, args, NULL));
      CK(cuCtxSynchronize());
      CK(cuMemcpyDtoH(out, d_out, out_n * 2));
      size_t bad = 0;
      for (size_t k = 0; k < out_n; k++) bad += out[k] != ref[k];
      CK(cuEventRecord(e0, 0));
      for (int r = 0; r < reps; r++) CK(cuLaunchKernel(fn, grid, 1, 1, (unsigned)l->block, 1, 1, 0, NULL, args, NULL));
      CK(cuEventRecord(e1, 0));
      CK(cuEventSynchronize(e1));
      float ms;
      CK(cuEventElapsedTime(&ms, e0, e1));
      double us = ms * 1e3 / reps;
      /* bytes that must move: x once (the halves re-read it), tables, out */
      double bytes = 2.0 * out_n * 2 + 2.0 * tab_n * 2;
      printf("  shift %d %-24s grid %6u x %d  %8.1f us  %.2f TB/s  (%.0f%% of copy)  mismatches %zu\n", shift, l->entry,
             grid, l->block, us, bytes / us / 1e6, 100.0 * copy_us / us, bad);
      failures += bad != 0;
    }
  }
  printf("%s\n", failures ? "FAILED" : "all variants bit-exact");
  return failures ? 1 : 0;
}
