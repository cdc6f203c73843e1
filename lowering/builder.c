/* builder.c: the op builder (builder.h). Generic operation states for every
 * op; constants de-duplicated in a hash table keyed by (type, value bits). */
#include "lowering/builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

struct fb_const_entry {
  const void *type;
  uint64_t bits;
  bool is_float, used;
  MlirValue value;
};

struct fb_attr_cache {
  char *spelling;
  MlirAttribute attr;
};

static MlirStringRef S(const char *s) { return mlirStringRefCreateFromCString(s); }

void fb_init(fb_builder *b, MlirContext ctx, MlirLocation loc) {
  memset(b, 0, sizeof *b);
  b->ctx = ctx;
  b->loc = loc;
}

void fb_free(fb_builder *b) {
  free(b->consts);
  for (int i = 0; i < b->nattrs; i++) free(b->attrs[i].spelling);
  free(b->attrs);
  memset(b, 0, sizeof *b);
}

/* ---- location and insertion point ---------------------------------------- */

void fb_set_loc(fb_builder *b, MlirLocation loc) { b->loc = loc; }
MlirLocation fb_get_loc(const fb_builder *b) { return b->loc; }
MlirLocation fb_set_loc_of(fb_builder *b, MlirOperation op) {
  MlirLocation old = b->loc;
  b->loc = mlirOperationGetLocation(op);
  return old;
}

fb_ip fb_ip_end(MlirBlock block) { return (fb_ip){block, {NULL}}; }
fb_ip fb_ip_in(MlirBlock block) { return (fb_ip){block, mlirBlockGetTerminator(block)}; }
fb_ip fb_ip_before(MlirOperation op) { return (fb_ip){mlirOperationGetBlock(op), op}; }
fb_ip fb_ip_after(MlirOperation op) { return (fb_ip){mlirOperationGetBlock(op), mlirOperationGetNextInBlock(op)}; }
fb_ip fb_get_ip(const fb_builder *b) { return b->ip; }
void fb_set_ip(fb_builder *b, fb_ip ip) { b->ip = ip; }

void fb_set_const_ip(fb_builder *b, fb_ip ip) {
  b->const_ip = ip;
  if (b->consts) memset(b->consts, 0, (size_t)b->capconsts * sizeof *b->consts);
  b->nconsts = 0;
}

static void insert_at(fb_ip ip, MlirOperation op) {
  if (mlirOperationIsNull(ip.before)) mlirBlockAppendOwnedOperation(ip.block, op);
  else mlirBlockInsertOwnedOperationBefore(ip.block, ip.before, op);
}

void fb_insert(fb_builder *b, MlirOperation op) { insert_at(b->ip, op); }

/* ---- types and attributes ------------------------------------------------- */

MlirType fb_index_type(fb_builder *b) { return mlirIndexTypeGet(b->ctx); }
MlirType fb_int_type(fb_builder *b, unsigned bits) { return mlirIntegerTypeGet(b->ctx, bits); }
MlirType fb_f32_type(fb_builder *b) { return mlirF32TypeGet(b->ctx); }
MlirType fb_vector_type(MlirType elem, int64_t n) { return mlirVectorTypeGet(1, &n, elem); }
int64_t fb_dynamic(void) { return mlirShapedTypeGetDynamicSize(); }
MlirType fb_memref_1d_type(MlirType elem, int64_t n) {
  return mlirMemRefTypeContiguousGet(elem, 1, &n, mlirAttributeGetNull());
}
bool fb_is_vector(MlirType t) { return mlirTypeIsAVector(t); }
MlirType fb_elem_type(MlirType t) { return mlirTypeIsAVector(t) ? mlirShapedTypeGetElementType(t) : t; }

MlirAttribute fb_i64_attr(fb_builder *b, int64_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), v); }
MlirAttribute fb_i32_attr(fb_builder *b, int32_t v) { return mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 32), v); }
MlirAttribute fb_str_attr(fb_builder *b, const char *s) { return mlirStringAttrGet(b->ctx, S(s)); }
MlirAttribute fb_i64_array_attr(fb_builder *b, int n, const int64_t *v) { return mlirDenseI64ArrayGet(b->ctx, n, v); }
MlirNamedAttribute fb_named(fb_builder *b, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(b->ctx, S(name)), a);
}

MlirAttribute fb_dialect_attr(fb_builder *b, const char *spelling) {
  for (int i = 0; i < b->nattrs; i++)
    if (strcmp(b->attrs[i].spelling, spelling) == 0) return b->attrs[i].attr;
  MlirAttribute a = mlirAttributeParseGet(b->ctx, S(spelling));
  if (mlirAttributeIsNull(a)) {
    mlirEmitError(b->loc, "internal error: a dialect attribute constant does not parse");
    return a;
  }
  if (b->nattrs == b->capattrs) {
    b->capattrs = b->capattrs ? 2 * b->capattrs : 8;
    b->attrs = realloc(b->attrs, (size_t)b->capattrs * sizeof *b->attrs);
  }
  size_t len = strlen(spelling) + 1;
  b->attrs[b->nattrs].spelling = memcpy(malloc(len), spelling, len);
  b->attrs[b->nattrs++].attr = a;
  return a;
}

/* ---- generic ops ---------------------------------------------------------- */

MlirOperation fb_op(fb_builder *b, const char *name, int nres, const MlirType *res, int nops, const MlirValue *ops,
                    int nattrs, const MlirNamedAttribute *attrs, int nregions) {
  MlirOperationState st = mlirOperationStateGet(S(name), b->loc);
  if (nres) mlirOperationStateAddResults(&st, nres, res);
  if (nops) mlirOperationStateAddOperands(&st, nops, ops);
  if (nattrs) mlirOperationStateAddAttributes(&st, nattrs, attrs);
  if (nregions) {
    MlirRegion regions[4];
    for (int i = 0; i < nregions && i < 4; i++) regions[i] = mlirRegionCreate();
    mlirOperationStateAddOwnedRegions(&st, nregions < 4 ? nregions : 4, regions);
  }
  MlirOperation op = mlirOperationCreate(&st);
  insert_at(b->ip, op);
  return op;
}

MlirBlock fb_add_block(fb_builder *b, MlirOperation op, int r, int n, const MlirType *arg_types) {
  MlirLocation locs[16] = {{NULL}};
  MlirLocation *lp = locs;
  if (n > 16) lp = malloc((size_t)n * sizeof *lp);
  for (int i = 0; i < n; i++) lp[i] = b->loc;
  MlirBlock blk = mlirBlockCreate(n, arg_types, lp);
  if (lp != locs) free(lp);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(op, r), blk);
  return blk;
}

MlirBlock fb_region_block(MlirOperation op, int r) { return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); }
MlirValue fb_result(MlirOperation op, int i) { return mlirOperationGetResult(op, i); }

MlirValue fb_op1(fb_builder *b, const char *name, MlirType t, int n, const MlirValue *ops) {
  return fb_result(fb_op(b, name, 1, &t, n, ops, 0, NULL, 0), 0);
}

/* ---- constants ------------------------------------------------------------ */

static uint64_t hash_key(const void *type, uint64_t bits, bool is_float) {
  uint64_t h = (uint64_t)(uintptr_t)type * 0x9E3779B97F4A7C15ull ^ bits * 0xC2B2AE3D27D4EB4Full ^ (uint64_t)is_float;
  return h ^ (h >> 29);
}

static fb_const_entry *const_slot(fb_builder *b, const void *type, uint64_t bits, bool is_float) {
  if (2 * (b->nconsts + 1) > b->capconsts) { /* grow, rehash */
    int cap = b->capconsts ? 2 * b->capconsts : 64;
    fb_const_entry *old = b->consts, *fresh = calloc((size_t)cap, sizeof *fresh);
    int oldcap = b->capconsts;
    b->consts = fresh, b->capconsts = cap;
    for (int i = 0; i < oldcap; i++) {
      if (!old[i].used) continue;
      uint64_t h = hash_key(old[i].type, old[i].bits, old[i].is_float) & (uint64_t)(cap - 1);
      while (fresh[h].used) h = (h + 1) & (uint64_t)(cap - 1);
      fresh[h] = old[i];
    }
    free(old);
  }
  uint64_t h = hash_key(type, bits, is_float) & (uint64_t)(b->capconsts - 1);
  while (b->consts[h].used &&
         !(b->consts[h].type == type && b->consts[h].bits == bits && b->consts[h].is_float == is_float))
    h = (h + 1) & (uint64_t)(b->capconsts - 1);
  return &b->consts[h];
}

static MlirValue make_const(fb_builder *b, MlirType t, MlirAttribute value, uint64_t bits, bool is_float) {
  fb_const_entry *e = const_slot(b, t.ptr, bits, is_float);
  if (e->used) return e->value;
  fb_ip saved = b->ip;
  b->ip = mlirBlockIsNull(b->const_ip.block) ? b->ip : b->const_ip;
  MlirNamedAttribute a = fb_named(b, "value", value);
  MlirValue v = fb_result(fb_op(b, "arith.constant", 1, &t, 0, NULL, 1, &a, 0), 0);
  b->ip = saved;
  *e = (fb_const_entry){t.ptr, bits, is_float, true, v};
  b->nconsts++;
  return v;
}

MlirValue fb_const_index(fb_builder *b, int64_t v) {
  MlirType t = mlirIndexTypeGet(b->ctx);
  return make_const(b, t, mlirIntegerAttrGet(t, v), (uint64_t)v, false);
}

MlirValue fb_const_int(fb_builder *b, MlirType t, int64_t v) {
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) v = v != 0;
  return make_const(b, t, mlirIntegerAttrGet(t, v), (uint64_t)v, false);
}

MlirValue fb_const_bool(fb_builder *b, bool v) { return fb_const_int(b, mlirIntegerTypeGet(b->ctx, 1), v); }

MlirValue fb_const_float(fb_builder *b, MlirType t, double v) {
  union { double d; uint64_t u; } bits = {.d = v};
  return make_const(b, t, mlirFloatAttrDoubleGet(b->ctx, t, v), bits.u, true);
}

static bool is_named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

bool fb_const_int_value(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!is_named(op, "arith.constant")) return false;
  MlirAttribute a = mlirOperationGetAttributeByName(op, S("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static bool is_const(MlirValue v, int64_t c) {
  int64_t x;
  return fb_const_int_value(v, &x) && x == c;
}

/* ---- arith and math ------------------------------------------------------ */

MlirValue fb_binary(fb_builder *b, const char *name, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  return fb_op1(b, name, mlirValueGetType(x), 2, ops);
}

MlirValue fb_unary(fb_builder *b, const char *name, MlirValue x) { return fb_op1(b, name, mlirValueGetType(x), 1, &x); }
MlirValue fb_cast(fb_builder *b, const char *name, MlirValue x, MlirType t) { return fb_op1(b, name, t, 1, &x); }
MlirValue fb_index_cast(fb_builder *b, MlirValue x, MlirType t) { return fb_cast(b, "arith.index_cast", x, t); }

MlirValue fb_addi(fb_builder *b, MlirValue x, MlirValue y) {
  if (is_const(x, 0)) return y;
  if (is_const(y, 0)) return x;
  return fb_binary(b, "arith.addi", x, y);
}

MlirValue fb_subi(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.subi", x, y); }

MlirValue fb_muli(fb_builder *b, MlirValue x, MlirValue y) {
  if (is_const(x, 0)) return x;
  if (is_const(y, 0)) return y;
  if (is_const(y, 1)) return x;
  if (is_const(x, 1)) return y;
  return fb_binary(b, "arith.muli", x, y);
}

MlirValue fb_addi_const(fb_builder *b, MlirValue x, int64_t c) {
  if (c == 0) return x;
  MlirType t = mlirValueGetType(x);
  if (c > 0) return fb_binary(b, "arith.addi", x, fb_const_int(b, t, c));
  return fb_binary(b, "arith.subi", x, fb_const_int(b, t, -c));
}

MlirValue fb_divui(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.divui", x, y); }
MlirValue fb_remui(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.remui", x, y); }
MlirValue fb_ceildivui(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.ceildivui", x, y); }
MlirValue fb_maxui(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.maxui", x, y); }
MlirValue fb_andi(fb_builder *b, MlirValue x, MlirValue y) { return fb_binary(b, "arith.andi", x, y); }

/* The i1 type in the shape of t (a vector of i1 for a vector). */
static MlirType bool_like(fb_builder *b, MlirType t) {
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  if (!mlirTypeIsAVector(t)) return i1;
  int64_t n = mlirShapedTypeGetDimSize(t, 0);
  return mlirVectorTypeGet(1, &n, i1);
}

static MlirValue compare(fb_builder *b, const char *name, int pred, MlirValue x, MlirValue y) {
  MlirValue ops[2] = {x, y};
  MlirNamedAttribute a = fb_named(b, "predicate", fb_i64_attr(b, pred));
  MlirType t = bool_like(b, mlirValueGetType(x));
  return fb_result(fb_op(b, name, 1, &t, 2, ops, 1, &a, 0), 0);
}

MlirValue fb_cmpi(fb_builder *b, fb_cmpi_pred p, MlirValue x, MlirValue y) { return compare(b, "arith.cmpi", p, x, y); }
MlirValue fb_cmpf(fb_builder *b, fb_cmpf_pred p, MlirValue x, MlirValue y) { return compare(b, "arith.cmpf", p, x, y); }

MlirValue fb_select(fb_builder *b, MlirValue cond, MlirValue x, MlirValue y) {
  MlirValue ops[3] = {cond, x, y};
  return fb_op1(b, "arith.select", mlirValueGetType(x), 3, ops);
}

/* ---- vector --------------------------------------------------------------- */

MlirValue fb_broadcast(fb_builder *b, MlirValue x, MlirType vector_type) {
  return fb_op1(b, "vector.broadcast", vector_type, 1, &x);
}

MlirValue fb_vector_load(fb_builder *b, MlirType vector_type, MlirValue mem, MlirValue index, int64_t align) {
  MlirValue ops[2] = {mem, index};
  MlirNamedAttribute a = fb_named(b, "alignment", fb_i64_attr(b, align));
  return fb_result(fb_op(b, "vector.load", 1, &vector_type, 2, ops, align > 0, &a, 0), 0);
}

void fb_vector_store(fb_builder *b, MlirValue v, MlirValue mem, MlirValue index, int64_t align) {
  MlirValue ops[3] = {v, mem, index};
  MlirNamedAttribute a = fb_named(b, "alignment", fb_i64_attr(b, align));
  fb_op(b, "vector.store", 0, NULL, 3, ops, align > 0, &a, 0);
}

MlirValue fb_from_elements(fb_builder *b, MlirType vector_type, int n, const MlirValue *elems) {
  return fb_op1(b, "vector.from_elements", vector_type, n, elems);
}

MlirValue fb_extract(fb_builder *b, MlirValue v, int64_t pos) {
  MlirNamedAttribute a = fb_named(b, "static_position", fb_i64_array_attr(b, 1, &pos));
  MlirType t = mlirShapedTypeGetElementType(mlirValueGetType(v));
  return fb_result(fb_op(b, "vector.extract", 1, &t, 1, &v, 1, &a, 0), 0);
}

MlirValue fb_vector_reduction(fb_builder *b, const char *kind, MlirValue v) {
  char spelling[64];
  snprintf(spelling, sizeof spelling, "#vector.kind<%s>", kind);
  MlirNamedAttribute a = fb_named(b, "kind", fb_dialect_attr(b, spelling));
  MlirType t = mlirShapedTypeGetElementType(mlirValueGetType(v));
  return fb_result(fb_op(b, "vector.reduction", 1, &t, 1, &v, 1, &a, 0), 0);
}

/* ---- memref --------------------------------------------------------------- */

MlirValue fb_load(fb_builder *b, MlirValue mem, MlirValue index) {
  MlirValue ops[2] = {mem, index};
  return fb_op1(b, "memref.load", mlirShapedTypeGetElementType(mlirValueGetType(mem)), 2, ops);
}

void fb_store(fb_builder *b, MlirValue v, MlirValue mem, MlirValue index) {
  MlirValue ops[3] = {v, mem, index};
  fb_op(b, "memref.store", 0, NULL, 3, ops, 0, NULL, 0);
}

MlirValue fb_reinterpret_1d(fb_builder *b, MlirValue src, MlirValue size) {
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(src));
  MlirType t = fb_memref_1d_type(elem, fb_dynamic());
  int64_t off = 0, dyn = fb_dynamic(), one = 1;
  int32_t seg[4] = {1, 0, 1, 0};
  MlirNamedAttribute attrs[4] = {
      fb_named(b, "static_offsets", fb_i64_array_attr(b, 1, &off)),
      fb_named(b, "static_sizes", fb_i64_array_attr(b, 1, &dyn)),
      fb_named(b, "static_strides", fb_i64_array_attr(b, 1, &one)),
      fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, seg)),
  };
  MlirValue ops[2] = {src, size};
  return fb_result(fb_op(b, "memref.reinterpret_cast", 1, &t, 2, ops, 4, attrs, 0), 0);
}

MlirValue fb_atomic_rmw(fb_builder *b, fb_atomic_kind kind, MlirValue v, MlirValue mem, MlirValue index) {
  MlirValue ops[3] = {v, mem, index};
  MlirNamedAttribute a = fb_named(b, "kind", fb_i64_attr(b, kind));
  MlirType t = mlirValueGetType(v);
  return fb_result(fb_op(b, "memref.atomic_rmw", 1, &t, 3, ops, 1, &a, 0), 0);
}

/* ---- scf ------------------------------------------------------------------ */

void fb_yield(fb_builder *b, int n, const MlirValue *vals) { fb_op(b, "scf.yield", 0, NULL, n, vals, 0, NULL, 0); }

/* Appends a terminator `name` (no operands) to block blk. */
static void terminate(fb_builder *b, MlirBlock blk, const char *name) {
  fb_ip saved = b->ip;
  b->ip = fb_ip_end(blk);
  fb_op(b, name, 0, NULL, 0, NULL, 0, NULL, 0);
  b->ip = saved;
}

MlirOperation fb_for(fb_builder *b, MlirValue lb, MlirValue ub, MlirValue step, int n, const MlirValue *inits) {
  MlirValue ops[3 + 16];
  MlirType types[1 + 16];
  ops[0] = lb, ops[1] = ub, ops[2] = step;
  types[0] = mlirValueGetType(lb);
  for (int i = 0; i < n && i < 16; i++) ops[3 + i] = inits[i], types[1 + i] = mlirValueGetType(inits[i]);
  if (n > 16) n = 16;
  MlirOperation loop = fb_op(b, "scf.for", n, types + 1, 3 + n, ops, 0, NULL, 1);
  MlirBlock body = fb_add_block(b, loop, 0, 1 + n, types);
  if (n == 0) terminate(b, body, "scf.yield");
  return loop;
}

MlirValue fb_for_iv(MlirOperation loop) { return mlirBlockGetArgument(fb_body(loop), 0); }
MlirValue fb_for_iter_arg(MlirOperation loop, int i) { return mlirBlockGetArgument(fb_body(loop), 1 + i); }
MlirBlock fb_body(MlirOperation op) { return fb_region_block(op, 0); }

MlirOperation fb_if(fb_builder *b, MlirValue cond, int n, const MlirType *types, bool with_else) {
  MlirOperation op = fb_op(b, "scf.if", n, types, 1, &cond, 0, NULL, 2);
  MlirBlock then = fb_add_block(b, op, 0, 0, NULL);
  if (n == 0) terminate(b, then, "scf.yield");
  if (with_else || n > 0) {
    MlirBlock els = fb_add_block(b, op, 1, 0, NULL);
    if (n == 0) terminate(b, els, "scf.yield");
  }
  return op;
}

MlirBlock fb_then(MlirOperation if_op) { return fb_region_block(if_op, 0); }
MlirBlock fb_else(MlirOperation if_op) { return fb_region_block(if_op, 1); }

MlirOperation fb_parallel(fb_builder *b, int n, const MlirValue *lbs, const MlirValue *ubs, const MlirValue *steps) {
  MlirValue ops[3 * 8];
  MlirType types[8];
  if (n > 8) n = 8;
  for (int i = 0; i < n; i++) {
    ops[i] = lbs[i], ops[n + i] = ubs[i], ops[2 * n + i] = steps[i];
    types[i] = mlirIndexTypeGet(b->ctx);
  }
  int32_t seg[4] = {n, n, n, 0};
  MlirNamedAttribute a = fb_named(b, "operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, seg));
  MlirOperation op = fb_op(b, "scf.parallel", 0, NULL, 3 * n, ops, 1, &a, 1);
  MlirBlock body = fb_add_block(b, op, 0, n, types);
  terminate(b, body, "scf.reduce");
  return op;
}

MlirValue fb_parallel_iv(MlirOperation op, int d) { return mlirBlockGetArgument(fb_body(op), d); }

/* ---- func, gpu ------------------------------------------------------------ */

MlirOperation fb_func(fb_builder *b, const char *name, int nargs, const MlirType *args) {
  MlirType ft = mlirFunctionTypeGet(b->ctx, nargs, args, 0, NULL);
  MlirNamedAttribute attrs[2] = {fb_named(b, "sym_name", fb_str_attr(b, name)),
                                 fb_named(b, "function_type", mlirTypeAttrGet(ft))};
  MlirOperation f = fb_op(b, "func.func", 0, NULL, 0, NULL, 2, attrs, 1);
  MlirBlock entry = fb_add_block(b, f, 0, nargs, args);
  terminate(b, entry, "func.return");
  return f;
}

MlirOperation fb_gpu_module(fb_builder *b, const char *name, int index_bits) {
  MlirNamedAttribute attrs[2] = {fb_named(b, "sym_name", fb_str_attr(b, name))};
  int n = 1;
  if (index_bits) {
    char spelling[64];
    snprintf(spelling, sizeof spelling, "#dlti.dl_spec<index = %d : i64>", index_bits);
    attrs[n++] = fb_named(b, "dlti.dl_spec", fb_dialect_attr(b, spelling));
  }
  MlirOperation m = fb_op(b, "gpu.module", 0, NULL, 0, NULL, n, attrs, 1);
  fb_add_block(b, m, 0, 0, NULL);
  return m;
}

MlirType fb_workgroup_memref_type(fb_builder *b, MlirType elem, int64_t n) {
  return mlirMemRefTypeContiguousGet(elem, 1, &n, fb_dialect_attr(b, "#gpu.address_space<workgroup>"));
}

MlirOperation fb_gpu_func(fb_builder *b, const char *name, int nargs, const MlirType *args, int nworkgroup,
                          const MlirType *workgroup, bool kernel) {
  MlirType ft = mlirFunctionTypeGet(b->ctx, nargs, args, 0, NULL);
  MlirNamedAttribute attrs[4] = {fb_named(b, "sym_name", fb_str_attr(b, name)),
                                 fb_named(b, "function_type", mlirTypeAttrGet(ft)),
                                 fb_named(b, "workgroup_attributions", fb_i64_attr(b, nworkgroup)),
                                 fb_named(b, "gpu.kernel", mlirUnitAttrGet(b->ctx))};
  MlirOperation f = fb_op(b, "gpu.func", 0, NULL, 0, NULL, kernel ? 4 : 3, attrs, 1);
  int n = nargs + nworkgroup;
  MlirType stack[32];
  MlirType *all = n > 32 ? malloc((size_t)n * sizeof *all) : stack;
  for (int i = 0; i < nargs; i++) all[i] = args[i];
  for (int i = 0; i < nworkgroup; i++) all[nargs + i] = workgroup[i];
  MlirBlock entry = fb_add_block(b, f, 0, n, all);
  if (all != stack) free(all);
  terminate(b, entry, "gpu.return");
  return f;
}

static MlirValue gpu_index_op(fb_builder *b, const char *name, char dim) {
  char spelling[32];
  snprintf(spelling, sizeof spelling, "#gpu<dim %c>", dim);
  MlirNamedAttribute a = fb_named(b, "dimension", fb_dialect_attr(b, spelling));
  MlirType t = mlirIndexTypeGet(b->ctx);
  return fb_result(fb_op(b, name, 1, &t, 0, NULL, 1, &a, 0), 0);
}

MlirValue fb_thread_id(fb_builder *b, char dim) { return gpu_index_op(b, "gpu.thread_id", dim); }
MlirValue fb_block_id(fb_builder *b, char dim) { return gpu_index_op(b, "gpu.block_id", dim); }
MlirValue fb_block_dim(fb_builder *b, char dim) { return gpu_index_op(b, "gpu.block_dim", dim); }
MlirValue fb_grid_dim(fb_builder *b, char dim) { return gpu_index_op(b, "gpu.grid_dim", dim); }
void fb_barrier(fb_builder *b) { fb_op(b, "gpu.barrier", 0, NULL, 0, NULL, 0, NULL, 0); }

MlirValue fb_shuffle_xor(fb_builder *b, MlirValue v, MlirValue offset, MlirValue width, MlirValue *valid) {
  MlirValue ops[3] = {v, offset, width};
  MlirType types[2] = {mlirValueGetType(v), mlirIntegerTypeGet(b->ctx, 1)};
  MlirNamedAttribute a = fb_named(b, "mode", fb_dialect_attr(b, "#gpu<shuffle_mode xor>"));
  MlirOperation op = fb_op(b, "gpu.shuffle", 2, types, 3, ops, 1, &a, 0);
  if (valid) *valid = fb_result(op, 1);
  return fb_result(op, 0);
}
