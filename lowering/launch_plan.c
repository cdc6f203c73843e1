/* launch_plan.c: reading the launch description of launch_plan.h out of a
 * compiled module, writing the text form. */
#include "lowering/launch_plan.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "lowering/launch_param.h"
#include "support/error.h"


static MlirAttribute fattr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirAttribute i64(MlirContext ctx, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v); }

static MlirAttribute int_or_zero(MlirContext ctx, MlirOperation f, const char *name) {
  MlirAttribute a = fattr(f, name);
  return mlirAttributeIsNull(a) ? i64(ctx, 0) : a;
}

static MlirAttribute array_or_empty(MlirContext ctx, MlirOperation f, const char *name) {
  MlirAttribute a = fattr(f, name);
  return mlirAttributeIsNull(a) ? mlirArrayAttrGet(ctx, 0, NULL) : a;
}

/* The entry's reference: @binary::@entry into its gpu.module (a gpu.binary
 * after gpu-module-to-binary, which keeps the module's name). */
static MlirAttribute entry_ref(MlirContext ctx, const char *binary, const char *entry) {
  MlirAttribute leaf = mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(entry));
  return mlirSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(binary), 1, &leaf);
}

MlirAttribute fuser_launch_dict(MlirOperation f, const char *binary, const char *entry, int block) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirAttribute kernel = fattr(f, "fuser.kernel_name"), variant = fattr(f, "fuser.variant");
  MlirNamedAttribute e[] = {
      named(ctx, "entry", entry_ref(ctx, binary, entry)),
      named(ctx, "kernel", kernel),
      named(ctx, "variant", variant),
      named(ctx, "vector_width", int_or_zero(ctx, f, "fuser.vector_width")),
      named(ctx, "unroll", int_or_zero(ctx, f, "fuser.unroll")),
      named(ctx, "index_bits", int_or_zero(ctx, f, "fuser.index_bits")),
      named(ctx, "param_bits", i64(ctx, 64)),
      named(ctx, "block_size", i64(ctx, block)),
      named(ctx, "num_args", int_or_zero(ctx, f, "fuser.num_args")),
      named(ctx, "params", array_or_empty(ctx, f, "fuser.params")),
      named(ctx, "conditions", array_or_empty(ctx, f, "fuser.vector_conditions")),
      {{NULL}, {NULL}}, /* row kernels: row_grid (lowering/row_gen.h) */
  };
  intptr_t n = (intptr_t)(sizeof e / sizeof e[0]) - 1;
  MlirAttribute rg = fattr(f, "fuser.row_grid");
  if (!mlirAttributeIsNull(rg)) e[n++] = named(ctx, "row_grid", rg);
  return mlirDictionaryAttrGet(ctx, n, e);
}

static MlirAttribute field(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

static int64_t int_field(MlirAttribute dict, const char *name, int64_t dflt) {
  MlirAttribute a = field(dict, name);
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? dflt : mlirIntegerAttrGetValueInt(a);
}

static void str_field(MlirAttribute dict, const char *name, char *out, size_t len) {
  MlirAttribute a = field(dict, name);
  MlirStringRef s = mlirAttributeIsNull(a) || !mlirAttributeIsAString(a) ? mlirStringRefCreate("", 0) : mlirStringAttrGetValue(a);
  snprintf(out, len, "%.*s", (int)s.length, s.data);
}

/* row_grid's tile_sides (transpose_gen.c): one entry per grid dim, 0, 1
 * or 2, both sides present; false if absent or of another form. */
static bool read_tile_sides(MlirAttribute rg, fuser_launch *l) {
  MlirAttribute ts = mlirAttributeIsNull(rg) ? rg : field(rg, "tile_sides");
  if (mlirAttributeIsNull(ts) || !mlirAttributeIsADenseI64Array(ts) || mlirDenseArrayGetNumElements(ts) != l->grid_dims ||
      l->grid_dims > FK_R)
    return false;
  bool seen[3] = {false, false, false};
  for (int q = 0; q < l->grid_dims; q++) {
    int64_t s = mlirDenseI64ArrayGetElement(ts, q);
    if (s < 0 || s > 2) return false;
    seen[s] = true;
    l->grid_tile_side[q] = (int8_t)s;
  }
  return seen[1] && seen[2];
}

/* A name into out[len]; false if it does not fit (the caller refuses it). */
static bool copy_ref(MlirStringRef s, char *out, size_t len) {
  if (s.length >= len) return false;
  snprintf(out, len, "%.*s", (int)s.length, s.data);
  return true;
}

/* entry (@binary::@entry) and kernel (@kernel) into l; false if either is
 * not a symbol reference of that shape or a name does not fit. */
static bool read_refs(MlirAttribute d, fuser_launch *l) {
  MlirAttribute e = field(d, "entry"), k = field(d, "kernel");
  if (mlirAttributeIsNull(e) || !mlirAttributeIsASymbolRef(e) || mlirSymbolRefAttrGetNumNestedReferences(e) != 1) return false;
  if (mlirAttributeIsNull(k) || !mlirAttributeIsAFlatSymbolRef(k)) return false;
  if (!copy_ref(mlirSymbolRefAttrGetRootReference(e), l->binary, sizeof l->binary)) return false;
  return copy_ref(mlirSymbolRefAttrGetLeafReference(e), l->entry, sizeof l->entry) &&
         copy_ref(mlirFlatSymbolRefAttrGetValue(k), l->kernel, sizeof l->kernel);
}

static bool op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* The op named `name` in the symbol table of `table` (null if none). */
static MlirOperation lookup(MlirOperation table, const char *name) {
  MlirSymbolTable st = mlirSymbolTableCreate(table);
  if (mlirSymbolTableIsNull(st)) return (MlirOperation){NULL};
  MlirOperation op = mlirSymbolTableLookup(st, mlirStringRefCreateFromCString(name));
  mlirSymbolTableDestroy(st);
  return op;
}

/* The function type of a func.func or gpu.func. */
static MlirType function_type(MlirOperation f) {
  return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
}

/* The records' symbols resolve and agree with the functions they name:
 *   kernel  a func.func with fuser.kernel taking num_args arguments; every
 *           tensor a parameter or condition names is one of its arguments
 *           or results (a scalar: an argument).
 *   entry   @binary::@e: a gpu.binary @binary (its functions are PTX now)
 *           or a gpu.module @binary holding gpu.func @e. A function found
 *           takes one argument per parameter.
 * Emits a located error and returns false otherwise. */
static bool check_symbols(MlirOperation module, int i, const fuser_launch *l) {
  MlirOperation entry = {NULL};
  MlirOperation bin = lookup(module, l->binary);
  if (mlirOperationIsNull(bin) || !(op_is(bin, "gpu.binary") || op_is(bin, "gpu.module")))
    return fuser_emit_error(module, "launch %d (%s): entry names @%s, which is not a gpu.module or gpu.binary of the module", i,
                            l->entry, l->binary);
  if (op_is(bin, "gpu.module")) {
    entry = lookup(bin, l->entry);
    if (mlirOperationIsNull(entry) || !op_is(entry, "gpu.func"))
      return fuser_emit_error(module, "launch %d (%s): entry names @%s::@%s, which is not a gpu.func of that module", i, l->entry,
                              l->binary, l->entry);
  }
  if (!mlirOperationIsNull(entry) && mlirFunctionTypeGetNumInputs(function_type(entry)) != l->num_params)
    return fuser_emit_error(module, "launch %d (%s): the entry takes %d arguments but the record has %d parameters", i, l->entry,
                            (int)mlirFunctionTypeGetNumInputs(function_type(entry)), l->num_params);
  MlirOperation kernel = lookup(module, l->kernel);
  if (mlirOperationIsNull(kernel) || !op_is(kernel, "func.func") ||
      mlirAttributeIsNull(fattr(kernel, "fuser.kernel")))
    return fuser_emit_error(module, "launch %d (%s): kernel names @%s, which is not a kernel of the plan (func.func with fuser.kernel)",
                            i, l->entry, l->kernel);
  MlirType ft = function_type(kernel);
  int nin = (int)mlirFunctionTypeGetNumInputs(ft), ntensors = nin + (int)mlirFunctionTypeGetNumResults(ft);
  if (l->num_args != nin)
    return fuser_emit_error(module, "launch %d (%s): num_args is %d but kernel @%s takes %d arguments", i, l->entry, l->num_args,
                            l->kernel, nin);
  for (int p = 0; p < l->num_params; p++) {
    const fk_param *q = &l->params[p];
    int limit = q->kind == FK_PARAM_SCALAR ? nin : ntensors;
    if (q->kind != FK_PARAM_CHECK && q->tensor >= limit)
      return fuser_emit_error(module, "launch %d (%s): parameter %d names tensor %d, but kernel @%s has %d %s", i, l->entry, p,
                              q->tensor, l->kernel, limit, q->kind == FK_PARAM_SCALAR ? "arguments" : "arguments and results");
  }
  for (int c = 0; c < l->num_conditions; c++)
    if (l->conditions[c].tensor >= ntensors)
      return fuser_emit_error(module, "launch %d (%s): condition %d names tensor %d, but kernel @%s has %d arguments and results", i,
                              l->entry, c, l->conditions[c].tensor, l->kernel, ntensors);
  return true;
}

char *fuser_binary_ptx(MlirOperation module, const char *name, size_t *len) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (n.length != 10 || memcmp(n.data, "gpu.binary", 10) != 0) continue;
    MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
    if (sym.length != strlen(name) || memcmp(sym.data, name, sym.length) != 0) continue;
    MlirAttribute objects = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("objects"));
    if (mlirAttributeIsNull(objects) || mlirArrayAttrGetNumElements(objects) < 1) return NULL;
    MlirStringRef ptx = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
    char *copy = malloc(ptx.length + 1);
    memcpy(copy, ptx.data, ptx.length);
    copy[ptx.length] = 0;
    *len = ptx.length;
    return copy;
  }
  return NULL;
}

int fuser_launch_plan_read(MlirOperation module, fuser_launch **out) {
  *out = NULL;
  MlirAttribute all = mlirOperationGetDiscardableAttributeByName(module, mlirStringRefCreateFromCString("fuser.launches"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all)) return 0;
  int n = (int)mlirArrayAttrGetNumElements(all);
  fuser_launch *ls = calloc((size_t)n ? (size_t)n : 1, sizeof *ls);
  for (int i = 0; i < n; i++) {
    MlirAttribute d = mlirArrayAttrGetElement(all, i);
    fuser_launch *l = &ls[i];
    if (mlirAttributeIsNull(d) || !mlirAttributeIsADictionary(d) || !read_refs(d, l)) {
      fuser_emit_error(module, "launch %d: not a record with entry = @binary::@entry and kernel = @kernel", i);
      fuser_launch_plan_free(ls, n);
      return -1;
    }
    str_field(d, "variant", l->variant, sizeof l->variant);
    l->vector_width = (int)int_field(d, "vector_width", 1);
    l->unroll = (int)int_field(d, "unroll", 1);
    l->index_bits = (int)int_field(d, "index_bits", 64);
    l->param_bits = (int)int_field(d, "param_bits", 64);
    l->block_size = (int)int_field(d, "block_size", 256);
    l->num_args = (int)int_field(d, "num_args", 0);
    MlirAttribute rg = field(d, "row_grid");
    l->grid_tensor = mlirAttributeIsNull(rg) ? -1 : (int)int_field(rg, "tensor", -1);
    l->grid_dims = mlirAttributeIsNull(rg) ? 0 : (int)int_field(rg, "dims", 0);
    l->grid_first = mlirAttributeIsNull(rg) ? 0 : (int)int_field(rg, "first", 0);
    l->rows_per_block = mlirAttributeIsNull(rg) ? 1 : (int)int_field(rg, "rows_per_block", 1);
    l->grid_tile = mlirAttributeIsNull(rg) ? 0 : (int)int_field(rg, "tile", 0);
    l->blocks_per_row = mlirAttributeIsNull(rg) ? 1 : (int)int_field(rg, "blocks_per_row", 1);
    if (l->grid_tile > 0 && !read_tile_sides(rg, l)) {
      fuser_emit_error(module, "launch %d (%s): row_grid with a tile needs tile_sides, one of 0, 1 or 2 per grid dim with sides 1 and 2 both present",
                       i, l->entry);
      fuser_launch_plan_free(ls, n);
      return -1;
    }
    MlirAttribute skip = mlirAttributeIsNull(rg) ? rg : field(rg, "skip");
    bool has_skip = !mlirAttributeIsNull(skip) && mlirAttributeIsADenseI64Array(skip) && mlirDenseArrayGetNumElements(skip) == 2;
    for (int i = 0; i < 2; i++) l->grid_skip[i] = has_skip ? (int)mlirDenseI64ArrayGetElement(skip, i) : 0;
    /* a parameter that does not read would shift every later argument of
     * the kernel: the whole plan is refused */
    MlirAttribute params = field(d, "params");
    intptr_t np = mlirAttributeIsNull(params) || !mlirAttributeIsAArray(params) ? -1 : mlirArrayAttrGetNumElements(params);
    if (np < 0 || np > FK_MAX_PARAMS) {
      fuser_emit_error(module, "launch %d (%s): params must be an array of at most %d parameters", i, l->entry, FK_MAX_PARAMS);
      fuser_launch_plan_free(ls, n);
      return -1;
    }
    for (intptr_t p = 0; p < np; p++)
      if (!fk_param_read(mlirArrayAttrGetElement(params, p), &l->params[l->num_params++])) {
        fuser_emit_error(module, "launch %d (%s): parameter %d is not {ptr = T}, {size = [T, D]}, {stride = [T, D]}, {scalar = T} or {check}",
                         i, l->entry, (int)p);
        fuser_launch_plan_free(ls, n);
        return -1;
      }
    MlirAttribute conds = field(d, "conditions");
    intptr_t nc = mlirAttributeIsNull(conds) || !mlirAttributeIsAArray(conds) ? -1 : mlirArrayAttrGetNumElements(conds);
    if (nc < 0 || nc > FUSER_LAUNCH_MAX_CONDITIONS) {
      fuser_emit_error(module, "launch %d (%s): conditions must be an array of at most %d conditions", i, l->entry,
                       FUSER_LAUNCH_MAX_CONDITIONS);
      fuser_launch_plan_free(ls, n);
      return -1;
    }
    for (intptr_t c = 0; c < nc; c++)
      if (!fk_condition_read(mlirArrayAttrGetElement(conds, c), l->num_args, &l->conditions[l->num_conditions++])) {
        fuser_emit_error(module, "launch %d (%s): condition %d is not one of {align = {...}}, {stride = ...}, {extent = ...}, {merge = ...}, {points = ...}, {row_length = ...}, {index32} with the fields its kind needs",
                         i, l->entry, (int)c);
        fuser_launch_plan_free(ls, n);
        return -1;
      }
    if (!check_symbols(module, i, l)) {
      fuser_launch_plan_free(ls, n);
      return -1;
    }
    l->ptx = fuser_binary_ptx(module, l->binary, &l->ptx_len);
  }
  *out = ls;
  return n;
}

void fuser_launch_plan_free(fuser_launch *launches, int n) {
  for (int i = 0; i < n; i++) free(launches[i].ptx);
  free(launches);
}

void fuser_launch_plan_write(FILE *out, const fuser_launch *ls, int n) {
  static const char *pk[] = {"ptr", "size", "stride", "scalar", "check"};
  for (int i = 0; i < n; i++) {
    const fuser_launch *l = &ls[i];
    fprintf(out, "launch %s binary %s kernel %s variant %s width %d unroll %d index_bits %d param_bits %d block %d num_args %d\n",
            l->entry, l->binary, l->kernel, l->variant, l->vector_width, l->unroll, l->index_bits, l->param_bits,
            l->block_size, l->num_args);
    if (l->grid_tensor >= 0 && l->grid_tile > 0)
    {
      fprintf(out, "row_grid %d %d %d %d tile %d sides", l->grid_tensor, l->grid_first, l->grid_dims, l->rows_per_block, l->grid_tile);
      for (int q = 0; q < l->grid_dims; q++) fprintf(out, " %d", l->grid_tile_side[q]);
      fprintf(out, "\n");
    }
    else if (l->grid_tensor >= 0 && l->blocks_per_row > 1)
      fprintf(out, "row_grid %d %d %d %d blocks_per_row %d\n", l->grid_tensor, l->grid_first, l->grid_dims, l->rows_per_block,
              l->blocks_per_row);
    else if (l->grid_tensor >= 0 && l->grid_skip[1] > l->grid_skip[0])
      fprintf(out, "row_grid %d %d %d %d skip %d %d\n", l->grid_tensor, l->grid_first, l->grid_dims, l->rows_per_block, l->grid_skip[0],
              l->grid_skip[1]);
    else if (l->grid_tensor >= 0) fprintf(out, "row_grid %d %d %d %d\n", l->grid_tensor, l->grid_first, l->grid_dims, l->rows_per_block);
    for (int p = 0; p < l->num_params; p++) {
      const fk_param *q = &l->params[p];
      if (q->kind == FK_PARAM_SIZE || q->kind == FK_PARAM_STRIDE) fprintf(out, "param %s %d %d\n", pk[q->kind], q->tensor, q->dim);
      else if (q->kind == FK_PARAM_CHECK) fprintf(out, "param check\n");
      else fprintf(out, "param %s %d\n", pk[q->kind], q->tensor);
    }
    for (int c = 0; c < l->num_conditions; c++) {
      const fuser_launch_condition *k = &l->conditions[c];
      switch (k->kind) {
      case FK_COND_ALIGN: fprintf(out, "condition align %d %lld\n", k->tensor, (long long)k->value); break;
      case FK_COND_STRIDE: fprintf(out, "condition stride %d %d %lld\n", k->tensor, k->dim, (long long)k->value); break;
      case FK_COND_EXTENT: fprintf(out, "condition extent %d %d %lld\n", k->tensor, k->dim, (long long)k->value); break;
      case FK_COND_INDEX32: fprintf(out, "condition index32\n"); break;
      case FK_COND_MERGE:
        fprintf(out, "condition merge %d %d %d", k->tensor, k->dim, k->inner);
        if (k->value > 0) fprintf(out, " size %lld", (long long)k->value);
        fprintf(out, "\n");
        break;
      case FK_COND_POINTS: fprintf(out, "condition points %d %lld\n", k->tensor, (long long)k->value); break;
      case FK_COND_ROW_LENGTH: fprintf(out, "condition row_length %d %d %lld\n", k->tensor, k->dim, (long long)k->value); break;
      }
    }
    if (l->ptx) {
      fprintf(out, "ptx %zu\n", l->ptx_len);
      fwrite(l->ptx, 1, l->ptx_len, out);
      fputc('\n', out);
    }
    fprintf(out, "end\n");
  }
}
