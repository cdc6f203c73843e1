/* ptx_bench: compile time from fusion IR to PTX, kernels, registers and
 * vector widths.
 *
 *   ptx_bench [--runs=N] [--ptxas=/usr/local/cuda/bin/ptxas] file.py|file.mlir...
 *
 * Per input (an nvFuser script, imported, or fuser IR): the plan passes
 * (when the input is not planned yet), then
 * fuser_plan_to_ptx_pipeline, in one context, N times on fresh parses;
 * prints the median and minimum time from IR text to PTX (context creation
 * is reported once, apart), the kernels and variants with their vector
 * widths, and the registers per entry from `ptxas -v` (when ptxas exists).
 * It asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dialects/fuser.h"
#include "frontend/nvfuser_import.h"
#include "lowering/launch_plan.h"
#include "lowering/lowering.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = 0;
  fclose(f);
  return s;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Compiles once; returns the launches (caller frees) or -1. */
static int compile(MlirContext ctx, const char *path, const char *text, fuser_launch **ls, double *ms) {
  double t0 = now_ms();
  size_t n_path = strlen(path);
  bool script = n_path > 3 && strcmp(path + n_path - 3, ".py") == 0;
  MlirModule m = script ? fuser_import_nvfuser(ctx, text, strlen(text), path)
                        : mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) return -1;
  MlirOperation op = mlirModuleGetOperation(m);
  char err[512];
  bool ok = fuser_module_compile_to_ptx(op, "sm_90", 0, 128, err, sizeof err); /* as fuser-translate --emit-ptx */
  if (!ok) fprintf(stderr, "ptx_bench: %s: %s\n", path, err);
  int n = ok ? fuser_launch_plan_read(op, ls) : -1;
  *ms = now_ms() - t0;
  mlirModuleDestroy(m);
  return n;
}

/* Registers of `entry` from `ptxas -v` on the PTX; -1 if unknown. */
static int registers(const char *ptxas, const fuser_launch *l) {
  if (!ptxas || access(ptxas, X_OK) != 0 || !l->ptx) return -1;
  char path[] = "/tmp/ptx_bench_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "w");
  fwrite(l->ptx, 1, l->ptx_len, f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s --gpu-name sm_90 -v %s -o /dev/null 2>&1", ptxas, path);
  FILE *p = popen(cmd, "r");
  int regs = -1;
  char line[512];
  bool in_entry = false;
  while (p && fgets(line, sizeof line, p)) {
    if (strstr(line, "Compiling entry function")) in_entry = strstr(line, l->entry) != NULL;
    char *u = strstr(line, "Used ");
    if (in_entry && u && strstr(u, "registers")) regs = atoi(u + 5);
  }
  if (p) pclose(p);
  unlink(path);
  return regs;
}

int main(int argc, char **argv) {
  int runs = 10;
  const char *ptxas = "/usr/local/cuda/bin/ptxas";
  double t0 = now_ms();
  MlirContext ctx = fuser_context_create();
  double ctx_ms = now_ms() - t0;
  printf("context creation: %.1f ms (once per process)\n", ctx_ms);
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--runs=", 7) == 0) { runs = atoi(argv[i] + 7); continue; }
    if (strncmp(argv[i], "--ptxas=", 8) == 0) { ptxas = argv[i] + 8; continue; }
    char *text = slurp(argv[i]);
    if (!text) {
      fprintf(stderr, "ptx_bench: error: cannot read '%s'\n", argv[i]);
      return 1;
    }
    double *ms = calloc((size_t)runs, sizeof *ms);
    fuser_launch *ls = NULL;
    int n = -1;
    for (int r = 0; r < runs; r++) {
      if (ls) fuser_launch_plan_free(ls, n);
      ls = NULL;
      n = compile(ctx, argv[i], text, &ls, &ms[r]);
      if (n < 0) {
        fprintf(stderr, "ptx_bench: error: '%s' does not compile\n", argv[i]);
        return 1;
      }
    }
    qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
    int kernels = 0;
    for (int k = 0; k < n; k++) {
      bool first = true;
      for (int j = 0; j < k; j++) first &= strcmp(ls[j].kernel, ls[k].kernel) != 0;
      kernels += first;
    }
    printf("%s\n  to PTX: median %.1f ms, min %.1f ms over %d runs\n  kernels: %d, variants: %d\n", argv[i],
           ms[runs / 2], ms[0], runs, kernels, n);
    for (int k = 0; k < n; k++)
      printf("    %-40s width %d  unroll %d  index %d-bit  registers %d  conditions %d\n", ls[k].entry,
             ls[k].vector_width, ls[k].unroll, ls[k].index_bits, registers(ptxas, &ls[k]), ls[k].num_conditions);
    fuser_launch_plan_free(ls, n);
    free(ms);
    free(text);
  }
  mlirContextDestroy(ctx);
  return 0;
}
