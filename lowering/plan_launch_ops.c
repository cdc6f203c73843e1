/* fuser-plan-launches: each kernel call's launches as ops of the plan
 * function, its grid, conditions and parameters host SSA of the plan's
 * values (docs/plan.md, "Launches").
 *
 * After the PTX pipeline the module attribute `fuser.launches` holds one
 * record per kernel variant in kernel terms (lowering/launch_plan.h:
 * `{ptr = 0}` is the kernel's tensor 0, `{align = {arg = 0, bytes = 16}}`
 * its address). This resolves them against each func.call of the plan (the
 * tensor's plan value, its sizes, strides and offset as polynomials of the
 * inputs, passes/symbolic.h, through the plan model), writes one
 * fuser.launch per variant after the call, in the records' order, and
 * removes the records: from here on the launches are the plan's ops and
 * nothing else (the artifact reads them through lowering/plan_translate.h).
 *
 *   %4 = call @f_k0(%3) : (tensor<?xbf16>) -> tensor<?xbf16>
 * becomes
 *   %4 = call @f_k0(%3) : (tensor<?xbf16>) -> tensor<?xbf16>
 *   %n = "fuser.size"(%arg0) {dim = 0 : i64} ...                       points
 *   %g = "fuser.maximum"("fuser.ceildiv"(%threads, %c128), %c1) ...   grid
 *   %a = "fuser.address"(%arg0) ... %al = "fuser.eq"("fuser.fmod"(..., %c16), %c0)
 *   %p0 = "fuser.address"(%3) ... %p1 = "fuser.address"(%4) ...
 *   "fuser.launch"(%g, %c1, %c1, %c128, %c1, %c1, %c0, %al, %p0, %p1, %n)
 *       {entry = @fuser_kernels_i32::@f_k0__vector, kernel = @f_k0, variant = "vector", operandSegmentSizes = ...}
 *   "fuser.launch"(... no conditions ...) {entry = @fuser_kernels_i64::@f_k0__scalar, ...}
 *
 * The rules (one place each): grid = max(ceildiv(max(ceildiv(n / W, U),
 * n mod W), block), 1) for n points of result 0 (a row kernel: a block per
 * rows_per_block rows, a transpose tile dim counting ceil(size / tile));
 * conditions as conditions.h states them, the input alignment
 * (address + offset * element size) mod bytes == 0, the index32 spans, and
 * the extents the kernel assumes equal that the call's checks do not make
 * already. Each builder writes what it needs; fuser_plan_host_cse
 * (plan_host_cse.h) then leaves each host value of the plan once (a size,
 * a constant, an address read by several launches or checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/launch_plan.h"
#include "lowering/plan_host_cse.h"
#include "lowering/plan_model_build.h"
#include "lowering/plan_model_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ir_util.h"
#include "passes/pass.h"

/* Where a call's launches go: before `anchor` (the op after the call).
 * Each operand is made in its own statement, so the ops come in the order
 * they are read (C leaves the order of a call's arguments open). */
typedef struct {
  MlirOperation anchor;
  MlirBlock body; /* the plan's: fuser_poly_emit reads its arguments */
  MlirContext ctx;
  MlirLocation loc;
} emitter;

static MlirValue op_of(emitter *e, const char *name, int n, const MlirValue *ops, int nattrs, const MlirNamedAttribute *attrs,
                       bool i1) {
  MlirType t = mlirIntegerTypeGet(e->ctx, i1 ? 1 : 64);
  MlirOperation op = fuser_create_op(e->loc, name, n, ops, 1, &t, nattrs, attrs);
  fuser_insert_before(e->anchor, op);
  return mlirOperationGetResult(op, 0);
}

static MlirValue num(emitter *e, int64_t v) {
  MlirNamedAttribute a = fuser_named(e->ctx, "value", fuser_i64_attr(e->ctx, v));
  return op_of(e, "fuser.scalar", 0, NULL, 1, &a, false);
}

/* x op y of i64 values (an i1 for the compares and logical_and). */
static MlirValue op2(emitter *e, const char *name, MlirValue x, MlirValue y) {
  MlirValue two[2] = {x, y};
  bool i1 = !strcmp(name, "fuser.eq") || !strcmp(name, "fuser.lt") || !strcmp(name, "fuser.le") || !strcmp(name, "fuser.ge") ||
            !strcmp(name, "fuser.logical_and");
  return op_of(e, name, 2, two, 0, NULL, i1);
}

static MlirValue poly(emitter *e, const fuser_poly *p) { return fuser_poly_emit(p, e->anchor, e->body); }

static MlirValue word(emitter *e, const char *name, MlirValue of) { return op_of(e, name, mlirValueIsNull(of) ? 0 : 1, &of, 0, NULL, false); }

/* x op constant c */
static MlirValue op2c(emitter *e, const char *name, MlirValue x, int64_t c) {
  MlirValue y = num(e, c);
  return op2(e, name, x, y);
}

/* The product of dims [from, to) of d's sizes, starting from 1. */
static MlirValue points_of(emitter *e, const value_desc *d, int from, int to) {
  MlirValue p = num(e, 1);
  for (int q = from; q < to && q < d->rank; q++) {
    MlirValue s = poly(e, &d->size[q]);
    p = op2(e, "fuser.mul", p, s);
  }
  return p;
}

static MlirValue grid_of(emitter *e, const fuser_launch *l, const call_info *c) {
  MlirValue work;
  int64_t per_block;
  if (l->grid_tensor >= 0 && l->grid_tensor < c->num_tensors) {
    /* a row kernel: a block per rows_per_block rows, the product of the row
     * dims' sizes (a transpose tile's two sides count ceil(extent / tile) each, a
     * side's extent the product of its dims' sizes) */
    const value_desc *gt = &c->t[l->grid_tensor];
    MlirValue side[3] = {num(e, 1), num(e, 1), num(e, 1)};
    for (int q = l->grid_first; q < l->grid_first + l->grid_dims && q < gt->rank; q++) {
      if (q >= l->grid_skip[0] && q < l->grid_skip[1]) continue; /* the reduced dims of a held slab */
      int s = l->grid_tile > 0 ? l->grid_tile_side[q - l->grid_first] : 0;
      side[s] = op2(e, "fuser.mul", side[s], poly(e, &gt->size[q]));
    }
    work = side[0];
    for (int s = 1; s <= 2 && l->grid_tile > 0; s++) work = op2(e, "fuser.mul", work, op2c(e, "fuser.ceildiv", side[s], l->grid_tile));
    per_block = l->rows_per_block;
  } else {
    /* threads = max(ceil((n / W) / unroll), n mod W) over result 0's n points */
    const value_desc *r0 = &c->t[c->num_args];
    MlirValue n = points_of(e, r0, 0, r0->rank);
    MlirValue vec = op2c(e, "fuser.ceildiv", op2c(e, "fuser.div", n, l->vector_width), l->unroll);
    work = op2(e, "fuser.maximum", vec, op2c(e, "fuser.fmod", n, l->vector_width));
    per_block = l->block_size;
  }
  MlirValue g = op2c(e, "fuser.maximum", op2c(e, "fuser.ceildiv", work, per_block), 1);
  /* the cluster variant of a row kernel: blocks_per_row blocks (one cluster) per row */
  return l->blocks_per_row > 1 ? op2c(e, "fuser.mul", g, l->blocks_per_row) : g;
}

typedef struct {
  MlirValue *items;
  int n, cap;
} value_list;

static void push(value_list *l, MlirValue v) {
  if (l->n == l->cap) l->items = realloc(l->items, sizeof *l->items * (size_t)(l->cap = l->cap ? 2 * l->cap : 16));
  l->items[l->n++] = v;
}

/* The run-time conditions of a variant (conditions.h), then the extents the
 * kernel assumes equal (or at most) that the call's checks do not make. */
static void conditions_of(emitter *e, const fuser_launch *l, const call_info *c, const fuser_plan_model *m, value_list *out) {
  for (int i = 0; i < l->num_conditions; i++) {
    const fuser_launch_condition *k = &l->conditions[i];
    if (k->kind == FK_COND_INDEX32) {
      /* every tensor's span and point count fit comfortably in 31 bits:
       * 1 + max(size - 1, 0) * stride summed over dims, and the product of sizes */
      for (int t = 0; t < c->num_tensors; t++) {
        const value_desc *d = &c->t[t];
        if (!d->tensor) continue;
        MlirValue span = num(e, 1);
        for (int q = 0; q < d->rank; q++) {
          MlirValue reach = op2c(e, "fuser.maximum", op2c(e, "fuser.sub", poly(e, &d->size[q]), 1), 0);
          MlirValue stride = poly(e, &d->stride[q]);
          span = op2(e, "fuser.add", span, op2(e, "fuser.mul", reach, stride));
        }
        MlirValue fits = op2c(e, "fuser.lt", span, 2147418112);
        push(out, op2(e, "fuser.logical_and", fits, op2c(e, "fuser.lt", points_of(e, d, 0, d->rank), 2147418112)));
      }
      continue;
    }
    const value_desc *d = &c->t[k->tensor];
    switch (k->kind) {
    case FK_COND_ALIGN: { /* (address(input) + offset * esize) mod bytes == 0; outputs and temps are 256-byte aligned */
      if (d->buffer != FPM_INPUT) break;
      MlirValue base = word(e, "fuser.address", mlirBlockGetArgument(e->body, d->index));
      MlirValue at = op2(e, "fuser.add", base, op2c(e, "fuser.mul", poly(e, &d->offset), (int64_t)d->esize));
      push(out, op2c(e, "fuser.eq", op2c(e, "fuser.fmod", at, k->value), 0));
      break;
    }
    case FK_COND_STRIDE:
    case FK_COND_EXTENT: {
      const fuser_poly *p = k->kind == FK_COND_STRIDE ? &d->stride[k->dim] : &d->size[k->dim];
      push(out, op2c(e, "fuser.eq", op2c(e, "fuser.fmod", poly(e, p), k->value), 0));
      break;
    }
    case FK_COND_POINTS:     /* enough points for the unrolled variant to fill the GPU */
    case FK_COND_ROW_LENGTH: /* a row long enough for the cluster variant: dims [dim, rank) */
      push(out, op2c(e, "fuser.ge", points_of(e, d, k->kind == FK_COND_ROW_LENGTH ? k->dim : 0, d->rank), k->value));
      break;
    case FK_COND_MERGE: { /* dims dim and inner form one linear run over the inner extent */
      MlirValue outer = poly(e, &d->stride[k->dim]), inner = poly(e, &d->stride[k->inner]);
      MlirValue extent = k->value > 0 ? num(e, k->value) : poly(e, &d->size[k->inner]);
      push(out, op2(e, "fuser.eq", outer, op2(e, "fuser.mul", inner, extent)));
      break;
    }
    default: break;
    }
  }
  for (int q = 0; q < c->nchecks; q++) {
    if (!fpm_relation_unchecked(m, &c->checks[q])) continue;
    MlirValue a = poly(e, &c->checks[q].a), b = poly(e, &c->checks[q].b);
    push(out, op2(e, c->checks[q].rel == FPM_REL_LE ? "fuser.le" : "fuser.eq", a, b));
  }
}

/* The plan value of the call's tensor t: an operand, then the results. */
static MlirValue call_value(const call_info *c, int t) {
  return t < c->num_args ? mlirOperationGetOperand(c->call, t) : mlirOperationGetResult(c->call, t - c->num_args);
}

/* The parameter words of a launch (the record reader has checked each
 * names a tensor of the kernel); false after a located error. */
static bool params_of(emitter *e, const fuser_launch *l, const call_info *c, value_list *out) {
  if (l->param_bits != 64) { /* every size and stride is an i64 word */
    char why[300];
    snprintf(why, sizeof why, "%s takes sizes and strides of %d bits; a launch passes 64", l->entry, l->param_bits);
    mlirEmitError(mlirOperationGetLocation(c->call), why);
    return false;
  }
  for (int i = 0; i < l->num_params; i++) {
    const fk_param *p = &l->params[i];
    const value_desc *d = p->kind == FK_PARAM_CHECK ? NULL : &c->t[p->tensor];
    switch (p->kind) {
    case FK_PARAM_CHECK: push(out, word(e, "fuser.index_flag", (MlirValue){NULL})); break;
    case FK_PARAM_PTR: push(out, word(e, "fuser.address", call_value(c, p->tensor))); break;
    case FK_PARAM_SIZE: push(out, poly(e, &d->size[p->dim])); break;
    case FK_PARAM_STRIDE: push(out, poly(e, &d->stride[p->dim])); break;
    case FK_PARAM_SCALAR: /* i64 by value; another width (i32, i1, f32, f64) as its bits */
      push(out, d->dtype == FUSER_DTYPE_I64 ? poly(e, &d->value) : word(e, "fuser.bits", call_value(c, p->tensor)));
      break;
    }
  }
  return true;
}

static MlirAttribute entry_ref(MlirContext ctx, const fuser_launch *l) {
  MlirAttribute leaf = mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(l->entry));
  return mlirSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(l->binary), 1, &leaf);
}

static bool write_launch(emitter *e, const fuser_launch *l, const call_info *c, const fuser_plan_model *m) {
  value_list conds = {0}, params = {0};
  MlirValue grid = grid_of(e, l, c);
  conditions_of(e, l, c, m, &conds);
  bool ok = params_of(e, l, c, &params);
  if (ok) {
    MlirValue one = num(e, 1), zero = num(e, 0), block = num(e, l->block_size);
    int n = 7 + conds.n + params.n;
    MlirValue *ops = malloc(sizeof *ops * (size_t)n);
    MlirValue fixed[7] = {grid, one, one, block, one, one, zero};
    memcpy(ops, fixed, sizeof fixed);
    memcpy(ops + 7, conds.items, sizeof *ops * (size_t)conds.n);
    memcpy(ops + 7 + conds.n, params.items, sizeof *ops * (size_t)params.n);
    int32_t seg[9] = {1, 1, 1, 1, 1, 1, 1, conds.n, params.n};
    MlirNamedAttribute a[4] = {
        fuser_named(e->ctx, "entry", entry_ref(e->ctx, l)),
        fuser_named(e->ctx, "kernel", mlirFlatSymbolRefAttrGet(e->ctx, mlirStringRefCreateFromCString(l->kernel))),
        fuser_named(e->ctx, "variant", fuser_str_attr(e->ctx, l->variant)),
        fuser_named(e->ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(e->ctx, 9, seg)),
    };
    fuser_insert_before(e->anchor, fuser_create_op(e->loc, "fuser.launch", n, ops, 0, NULL, 4, a));
    free(ops);
  }
  free(conds.items), free(params.items);
  return ok;
}

static bool run(MlirOperation module, const fuser_pass_options *options) {
  (void)options;
  fuser_launch *ls;
  int n = fuser_launch_plan_read(module, &ls);
  if (n <= 0) return n == 0; /* no records (nothing lowered), or the located error of one that does not read */
  fuser_plan_model m;
  char err[1024];
  bool ok = fuser_plan_model_build(module, &m, err, sizeof err);
  if (!ok) mlirEmitError(mlirOperationGetLocation(module), err);
  model_state *st = m.internal;
  for (int ci = 0; ok && ci < st->ncalls; ci++) {
    call_info *c = &st->calls[ci];
    if (!mlirOperationIsNull(c->matmul)) continue; /* cuBLASLt's: no launch of ours */
    emitter e = {.anchor = mlirOperationGetNextInBlock(c->call), .body = fuser_func_body(st->func),
                 .ctx = mlirOperationGetContext(module), .loc = mlirOperationGetLocation(c->call)};
    for (int li = 0; ok && li < n; li++)
      if (strcmp(ls[li].kernel, c->callee) == 0) ok = write_launch(&e, &ls[li], c, &m);
  }
  if (ok) {
    fuser_plan_host_cse(st->func);
    mlirOperationRemoveDiscardableAttributeByName(module, mlirStringRefCreateFromCString("fuser.launches"));
  }
  fuser_plan_model_free(&m);
  fuser_launch_plan_free(ls, n);
  return ok;
}

const fuser_pass_info fuser_plan_launches_pass = {
    .argument = "fuser-plan-launches",
    .description = "Write each kernel call's launches into the plan function as fuser.launch ops (host SSA grids, conditions, "
                   "parameters) from the launch records, which it removes",
    .anchor = "builtin.module",
    .run = run,
};
