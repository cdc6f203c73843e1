/* frontend_bench: import and export time of nvFuser scripts by size.
 *
 * Builds scripts of N ops (N = 1,000 ... 200,000) in two shapes, both two
 * inputs and then element-wise ops:
 *  - "mixed": every 10th op also names a constant (define_scalar) and every
 *    op reads the two values before it, so the name environment sees
 *    lookups and fresh names, and no value has more than two uses;
 *  - "chain": every op reads the one before and the input T1 (the chain of
 *    bench/compile_scaling and test/lowering/long-chain.test), so T1 has N
 *    uses: anything that walks a value's uses per op is quadratic here
 *    (a 100,000-op chain took 17 s to import). Times
 * fuser_import_nvfuser and fuser_export_nvfuser and prints one line per
 * size (CPU time of this process, the best of REPEATS runs: the machine is
 * shared, and other work only ever adds time; each run in a fresh context,
 * so that no run finds the names and locations of another uniqued already).
 * Both used to be quadratic (a linear scan per name lookup: 200k ops
 * took 15 s to import); they should grow about linearly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/strbuf.h"
#include "dialects/fuser.h"
#include "frontend/nvfuser_export.h"
#include "frontend/nvfuser_import.h"

#define REPEATS 3

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine is shared */
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

enum shape { MIXED, CHAIN };
static const char *const shape_names[] = {"mixed", "chain"};

static strbuf make_script(int n, enum shape shape) {
  strbuf t = {0};
  sb_printf(&t, "import torch\nfrom nvfuser import FusionDefinition, DataType\n\n");
  sb_printf(&t, "def bench(fd : FusionDefinition) -> None :\n");
  sb_printf(&t, "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)\n");
  sb_printf(&t, "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)\n");
  static const char *const ops[] = {"add", "mul", "sub", "maximum"};
  for (int i = 2; i < n + 2; i++) {
    if (shape == CHAIN) {
      sb_printf(&t, "    T%d = fd.ops.%s(T%d, T1)\n", i, i % 2 ? "mul" : "add", i - 1);
    } else if (i % 10 == 0) {
      sb_printf(&t, "    S%d = fd.define_scalar(%d.5, dtype=DataType.Double)\n", i, i);
      sb_printf(&t, "    T%d = fd.ops.mul(T%d, S%d)\n", i, i - 1, i);
    } else {
      sb_printf(&t, "    T%d = fd.ops.%s(T%d, T%d)\n", i, ops[i % 4], i - 1, i - 2);
    }
  }
  sb_printf(&t, "    fd.add_output(T%d)\n\nwith FusionDefinition() as fd:\n    bench(fd)\n", n + 1);
  return t;
}

int main(int argc, char **argv) {
  int sizes[] = {1000, 10000, 50000, 100000, 200000};
  int count = sizeof sizes / sizeof *sizes;
  if (argc > 1) count = atoi(argv[1]) < count ? atoi(argv[1]) : count; /* the first N sizes */
  printf("%8s %6s %10s %12s %12s   (best of %d)\n", "ops", "shape", "bytes", "import ms", "export ms", REPEATS);
  int status = 0;
  for (int run = 0; run < 2 * count; run++) {
    int k = run / 2;
    enum shape shape = run % 2 ? CHAIN : MIXED;
    strbuf script = make_script(sizes[k], shape);
    double best_import = 1e30, best_export = 1e30;
    for (int r = 0; r < REPEATS && !status; r++) {
      MlirContext ctx = fuser_context_create();
      double t0 = now_ms();
      MlirModule m = fuser_import_nvfuser(ctx, script.data, script.len, "bench.py");
      double t1 = now_ms();
      char *out = mlirModuleIsNull(m) ? NULL : fuser_export_nvfuser(mlirModuleGetOperation(m));
      double t2 = now_ms();
      if (!out) {
        fprintf(stderr, "frontend_bench: %d ops failed to %s\n", sizes[k], mlirModuleIsNull(m) ? "import" : "export");
        status = 1;
      }
      if (t1 - t0 < best_import) best_import = t1 - t0;
      if (t2 - t1 < best_export) best_export = t2 - t1;
      free(out);
      if (!mlirModuleIsNull(m)) mlirModuleDestroy(m);
      mlirContextDestroy(ctx);
    }
    printf("%8d %6s %10zu %12.1f %12.1f\n", sizes[k], shape_names[shape], script.len, best_import, best_export);
    fflush(stdout);
    sb_free(&script);
  }
  return status;
}
