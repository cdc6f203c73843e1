/* unit_launch_records: the launch records' symbols are checked against the
 * functions they name (lowering/launch_plan.c, check_symbols) where the
 * module still holds them: the gpu.func of a gpu.module (before
 * gpu-module-to-binary, which lit's fuser-translate always runs) and the
 * plan's kernel function (a flat entry, the CPU's former records, is
 * refused: the CPU has no records). Each module
 * below is read with fuser_launch_plan_read; a bad one must be refused with
 * the error located at the module. The conditions' attributes round-trip. */
#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "lowering/launch_plan.h"
#include "mlir-c/Diagnostics.h"
#include "unit.h"

static char diag[1024];

static void append(MlirStringRef s, void *data) {
  (void)data;
  size_t n = strlen(diag);
  snprintf(diag + n, sizeof diag - n, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult handler(MlirDiagnostic d, void *data) {
  (void)data;
  append(mlirStringRefCreateFromCString(""), NULL);
  mlirLocationPrint(mlirDiagnosticGetLocation(d), append, NULL);
  append(mlirStringRefCreateFromCString(": "), NULL);
  mlirDiagnosticPrint(d, append, NULL);
  return mlirLogicalResultSuccess();
}

/* The kernel @k: one argument, one result (tensors 0 and 1), and @plain,
 * a function that is no kernel. */
#define KERNELS                                                                          \
  "  func.func private @k(tensor<4xf32>) -> tensor<4xf32> attributes {fuser.kernel}\n" \
  "  func.func private @plain(tensor<4xf32>) -> tensor<4xf32>\n"
#define GPU_MODULE                                                                          \
  "  gpu.module @fuser_kernels_i64 {\n"                                                     \
  "    gpu.func @k__scalar(%a: memref<1xf32>, %b: memref<1xf32>) kernel { gpu.return }\n" \
  "  }\n"

static const char *record(char *buf, size_t len, const char *fields) {
  snprintf(buf, len, "%s%s%s",
           "module attributes {gpu.container_module, fuser.launches = [{", fields,
           "}]} {\n" KERNELS GPU_MODULE "  func.func @k__vector(%a: memref<1xf32>) { return }\n} loc(\"records.mlir\":1:1)\n");
  return buf;
}

/* Reads the module of `fields`; `want` NULL: it must read, else the error must contain `want`. */
static void read(MlirContext ctx, const char *fields, const char *want) {
  char text[4096];
  diag[0] = 0;
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(record(text, sizeof text, fields)));
  CHECK(!mlirModuleIsNull(m));
  if (mlirModuleIsNull(m)) return;
  fuser_launch *ls = NULL;
  int n = fuser_launch_plan_read(mlirModuleGetOperation(m), &ls);
  if (!want) {
    if (n != 1) printf("refused: %s\n", diag);
    CHECK_EQ_INT(n, 1);
    fuser_launch_plan_free(ls, n < 0 ? 0 : n);
  } else {
    CHECK_EQ_INT(n, -1);
    CHECK(ls == NULL);
    CHECK(unit_contains(diag, "loc(\"records.mlir\":1:1): "));
    CHECK(unit_contains(diag, want));
  }
  mlirModuleDestroy(m);
}

/* Every kind of condition written by fk_condition_attr reads back the same
 * (passes/conditions.h), the tensor as `arg` or `result` by num_args = 2. */
static void conditions_round_trip(MlirContext ctx) {
  const fk_condition all[] = {
      {.kind = FK_COND_ALIGN, .tensor = 1, .dim = -1, .inner = -1, .value = 16},
      {.kind = FK_COND_STRIDE, .tensor = 2, .dim = 1, .inner = -1, .value = 8},
      {.kind = FK_COND_EXTENT, .tensor = 0, .dim = 3, .inner = -1, .value = 4},
      {.kind = FK_COND_MERGE, .tensor = 3, .dim = 0, .inner = 1, .value = 0},
      {.kind = FK_COND_INDEX32, .tensor = -1, .dim = -1, .inner = -1, .value = 0},
      {.kind = FK_COND_POINTS, .tensor = 2, .dim = -1, .inner = -1, .value = 65536},
      {.kind = FK_COND_ROW_LENGTH, .tensor = 2, .dim = 1, .inner = -1, .value = 4096},
  };
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    fk_condition back = {0};
    CHECK(fk_condition_read(fk_condition_attr(ctx, &all[i], 2), 2, &back));
    CHECK(memcmp(&back, &all[i], sizeof back) == 0);
  }
  diag[0] = 0;
  mlirAttributePrint(fk_condition_attr(ctx, &all[1], 2), append, NULL);
  CHECK(unit_contains(diag, "{stride = {dim = 1 : i64, multiple = 8 : i64, result = 0 : i64}}"));
  diag[0] = 0;
  mlirAttributePrint(fk_condition_attr(ctx, &all[4], 2), append, NULL);
  CHECK(unit_contains(diag, "{index32}"));
}

#define GOOD_PARAMS "params = [{ptr = 0 : i64}, {ptr = 1 : i64}]"

/* Each record's fields and the error it must give (NULL: it reads). */
static const struct {
  const char *fields, *want;
} cases[] = {
    /* a flat entry, even naming a function of the module (the CPU's former records) */
    {"entry = @k__vector, kernel = @k, num_args = 1 : i64, params = [{ptr = 0 : i64}], conditions = []",
         "launch 0: not a record with entry = @binary::@entry and kernel = @kernel"},
    /* a kernel that is not in the module */
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @gone, num_args = 1 : i64, " GOOD_PARAMS ", conditions = []",
         "launch 0 (k__scalar): kernel names @gone, which is not a kernel of the plan (func.func with fuser.kernel)"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @plain, num_args = 1 : i64, " GOOD_PARAMS ", conditions = []",
         "kernel names @plain, which is not a kernel of the plan"},
    /* the entry: a gpu.func of that module taking one argument per parameter */
    {"entry = @fuser_kernels_i64::@k__vector, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = []",
         "launch 0 (k__vector): entry names @fuser_kernels_i64::@k__vector, which is not a gpu.func of that module"},
    {"entry = @k::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = []",
         "entry names @k, which is not a gpu.module or gpu.binary of the module"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, params = [{ptr = 0 : i64}, {ptr = 1 : i64}, {size = array<i64: 0, 0>}], conditions = []",
         "launch 0 (k__scalar): the entry takes 2 arguments but the record has 3 parameters"},
    /* the kernel's arity: num_args its arguments, tensors among its arguments and results */
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 2 : i64, " GOOD_PARAMS ", conditions = []",
         "launch 0 (k__scalar): num_args is 2 but kernel @k takes 1 arguments"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, params = [{ptr = 0 : i64}, {ptr = 2 : i64}], conditions = []",
         "launch 0 (k__scalar): parameter 1 names tensor 2, but kernel @k has 2 arguments and results"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, params = [{ptr = 0 : i64}, {scalar = 1 : i64}], conditions = []",
         "parameter 1 names tensor 1, but kernel @k has 1 arguments"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [{align = {bytes = 16 : i64, result = 1 : i64}}]",
         "launch 0 (k__scalar): condition 0 names tensor 2, but kernel @k has 2 arguments and results"},
    /* a transpose tile's grid: tile_sides marks each grid dim's side (0, 1 or 2), both sides present */
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [], "
     "row_grid = {tensor = 1 : i64, first = 0 : i64, dims = 2 : i64, rows_per_block = 1 : i64, tile = 64 : i64, tile_sides = array<i64: 1, 2>}",
         NULL},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [], "
     "row_grid = {tensor = 1 : i64, first = 0 : i64, dims = 2 : i64, rows_per_block = 1 : i64, tile = 64 : i64}",
         "launch 0 (k__scalar): row_grid with a tile needs tile_sides, one of 0, 1 or 2 per grid dim with sides 1 and 2 both present"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [], "
     "row_grid = {tensor = 1 : i64, first = 0 : i64, dims = 2 : i64, rows_per_block = 1 : i64, tile = 64 : i64, tile_sides = array<i64: 1, 1>}",
         "row_grid with a tile needs tile_sides"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [], "
     "row_grid = {tensor = 1 : i64, first = 0 : i64, dims = 2 : i64, rows_per_block = 1 : i64, tile = 64 : i64, tile_sides = array<i64: 1, 3>}",
         "row_grid with a tile needs tile_sides"},
    {"entry = @fuser_kernels_i64::@k__scalar, kernel = @k, num_args = 1 : i64, " GOOD_PARAMS ", conditions = [], "
     "row_grid = {tensor = 1 : i64, first = 0 : i64, dims = 2 : i64, rows_per_block = 1 : i64, tile = 64 : i64, tile_sides = array<i64: 0, 1, 2>}",
         "row_grid with a tile needs tile_sides"},
};

int main(void) {
  MlirContext ctx = fuser_context_create();
  mlirContextAttachDiagnosticHandler(ctx, handler, NULL, NULL);
  conditions_round_trip(ctx);
  /* a record whose symbols resolve: the names are read from them */
  char text[4096];
  MlirModule m = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(record(text, sizeof text,
                                                 "entry = @fuser_kernels_i64::@k__scalar, kernel = @k, variant = \"scalar\", "
                                                 "num_args = 1 : i64, " GOOD_PARAMS ", conditions = []")));
  fuser_launch *ls = NULL;
  CHECK_EQ_INT(fuser_launch_plan_read(mlirModuleGetOperation(m), &ls), 1);
  if (ls) {
    CHECK(strcmp(ls[0].binary, "fuser_kernels_i64") == 0);
    CHECK(strcmp(ls[0].entry, "k__scalar") == 0);
    CHECK(strcmp(ls[0].kernel, "k") == 0);
    CHECK(strcmp(ls[0].variant, "scalar") == 0);
    CHECK_EQ_INT(ls[0].num_params, 2);
    fuser_launch_plan_free(ls, 1);
  }
  mlirModuleDestroy(m);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) read(ctx, cases[c].fields, cases[c].want);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
