/* builder.h: the op builder of the lowering (docs/lowering.md, "The op
 * builder"). A small C layer over mlirOperationCreate that makes each
 * arith/math/vector/memref/scf/gpu/nvvm/llvm op one short call returning its
 * MlirValue, so that the kernel generator builds IR directly and never
 * prints MLIR text to parse back.
 *
 * A builder holds
 *   - an insertion point: a block and the op to insert before (NULL: at the
 *     block's end; fb_ip_in puts it before the block's terminator);
 *   - the current location: every op it creates gets it. The generator sets
 *     it to the location of the fuser op it lowers (the script's
 *     file:line:col), so a diagnostic on generated IR points at the user's line;
 *   - a constant insertion point (normally the function's entry, before its
 *     first loop): constants are hoisted there and de-duplicated by type and
 *     value, not by name.
 *
 *   fb_builder b;
 *   fb_init(&b, ctx, loc);
 *   fb_set_ip(&b, fb_ip_end(entry));
 *   fb_set_const_ip(&b, fb_ip_end(entry));
 *   MlirValue i = fb_addi(&b, fb_muli(&b, t, fb_const_index(&b, 4)), fb_const_index(&b, 0));  // folds + 0
 *   MlirOperation loop = fb_for(&b, lb, ub, step, 0, NULL);
 *   fb_set_ip(&b, fb_ip_in(fb_body(loop)));                 // before its scf.yield
 *   ...
 *   fb_free(&b);
 *
 * Ops the C API has no builder for are created in generic form (operands,
 * result types, named attributes, regions): fb_op. Enum attributes of
 * dialects without a C constructor (gpu dimension, shuffle mode, address
 * space, vector combining kind, the DLTI index width) come from fb_dialect_attr, the
 * one place that spells such a constant; they are cached per builder.
 *
 * API stability: functions are only added, never renamed (the reduction
 * schedules build on this header). */
#ifndef FUSER_LOWERING_BUILDER_H
#define FUSER_LOWERING_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An insertion point: ops go into `block`, before `before` (NULL: at the end). */
typedef struct {
  MlirBlock block;
  MlirOperation before;
} fb_ip;

typedef struct fb_const_entry fb_const_entry;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  fb_ip ip;
  fb_ip const_ip;
  /* constants at const_ip, by (type, bits): open addressing, power-of-two capacity */
  fb_const_entry *consts;
  int nconsts, capconsts;
  /* fb_dialect_attr's cache */
  struct fb_attr_cache *attrs;
  int nattrs, capattrs;
} fb_builder;

void fb_init(fb_builder *b, MlirContext ctx, MlirLocation loc);
void fb_free(fb_builder *b);

/* ---- location and insertion point ---------------------------------------- */

void fb_set_loc(fb_builder *b, MlirLocation loc);
MlirLocation fb_get_loc(const fb_builder *b);
/* Sets the location to that of op (the fuser op being lowered); returns the old one. */
MlirLocation fb_set_loc_of(fb_builder *b, MlirOperation op);

fb_ip fb_ip_end(MlirBlock block);          /* at the block's end */
fb_ip fb_ip_in(MlirBlock block);           /* before its terminator if it has one, else at the end */
fb_ip fb_ip_before(MlirOperation op);      /* right before op */
fb_ip fb_ip_after(MlirOperation op);       /* right after op */
fb_ip fb_get_ip(const fb_builder *b);
void fb_set_ip(fb_builder *b, fb_ip ip);
/* Where constants go; forgets the constants known so far (a new scope). */
void fb_set_const_ip(fb_builder *b, fb_ip ip);
/* Inserts an op created elsewhere at the insertion point. */
void fb_insert(fb_builder *b, MlirOperation op);

/* ---- types and attributes ------------------------------------------------- */

MlirType fb_index_type(fb_builder *b);
MlirType fb_int_type(fb_builder *b, unsigned bits);
MlirType fb_f32_type(fb_builder *b);
MlirType fb_vector_type(MlirType elem, int64_t n);
/* memref<?xT> (rank-1, dynamic, identity layout) and memref<1xT>. */
MlirType fb_memref_1d_type(MlirType elem, int64_t n); /* n: size or fb_dynamic() */
int64_t fb_dynamic(void);
/* The element type of a vector (or the type itself for a scalar). */
MlirType fb_elem_type(MlirType t);
bool fb_is_vector(MlirType t);

MlirAttribute fb_i64_attr(fb_builder *b, int64_t v);
MlirAttribute fb_i32_attr(fb_builder *b, int32_t v);
MlirAttribute fb_str_attr(fb_builder *b, const char *s);
MlirAttribute fb_i64_array_attr(fb_builder *b, int n, const int64_t *v); /* array<i64: ...> */
MlirNamedAttribute fb_named(fb_builder *b, const char *name, MlirAttribute a);
/* A dialect attribute constant the C API cannot construct, e.g.
 * "#gpu<dim x>", cached per builder. Null attribute (and a located error)
 * if it does not parse: a bug in the caller. */
MlirAttribute fb_dialect_attr(fb_builder *b, const char *spelling);

/* ---- generic ops ---------------------------------------------------------- */

/* Creates `name` at the insertion point with the current location: nres
 * results of the given types, operands, named attributes and nregions empty
 * regions (each given one block with the listed argument types by
 * fb_add_block). */
MlirOperation fb_op(fb_builder *b, const char *name, int nres, const MlirType *res, int nops, const MlirValue *ops,
                    int nattrs, const MlirNamedAttribute *attrs, int nregions);
/* Appends a block with n arguments (at the builder's location) to region r of op. */
MlirBlock fb_add_block(fb_builder *b, MlirOperation op, int r, int n, const MlirType *arg_types);
/* The first block of region r. */
MlirBlock fb_region_block(MlirOperation op, int r);
MlirValue fb_result(MlirOperation op, int i);
/* The one-result op `name` of result type t over n operands. */
MlirValue fb_op1(fb_builder *b, const char *name, MlirType t, int n, const MlirValue *ops);

/* ---- constants (hoisted to the constant insertion point, de-duplicated) ---- */

MlirValue fb_const_index(fb_builder *b, int64_t v);
MlirValue fb_const_int(fb_builder *b, MlirType t, int64_t v); /* any integer type; i1 too */
MlirValue fb_const_float(fb_builder *b, MlirType t, double v);
MlirValue fb_const_bool(fb_builder *b, bool v);
/* Whether v is an arith.constant with an integer value (index included); its value. */
bool fb_const_int_value(MlirValue v, int64_t *out);

/* ---- arith and math ------------------------------------------------------ */

/* Index/integer arithmetic; addi folds + 0, muli folds * 0 and * 1. */
MlirValue fb_addi(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_subi(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_muli(fb_builder *b, MlirValue x, MlirValue y);
/* x + c, folding c == 0; a negative c becomes subi x, -c. */
MlirValue fb_addi_const(fb_builder *b, MlirValue x, int64_t c);
MlirValue fb_divui(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_remui(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_ceildivui(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_maxui(fb_builder *b, MlirValue x, MlirValue y);
MlirValue fb_andi(fb_builder *b, MlirValue x, MlirValue y);
/* A binary op whose result has the type of x: "arith.addf", "math.powf", ... */
MlirValue fb_binary(fb_builder *b, const char *name, MlirValue x, MlirValue y);
/* A unary op whose result has the type of x: "math.exp", "arith.negf", ... */
MlirValue fb_unary(fb_builder *b, const char *name, MlirValue x);
/* A conversion op to type t: "arith.extf", "arith.index_cast", ... */
MlirValue fb_cast(fb_builder *b, const char *name, MlirValue x, MlirType t);
MlirValue fb_index_cast(fb_builder *b, MlirValue x, MlirType t);

/* arith.cmpi / arith.cmpf predicates (their enum values). */
typedef enum { FB_CMPI_EQ, FB_CMPI_NE, FB_CMPI_SLT, FB_CMPI_SLE, FB_CMPI_SGT, FB_CMPI_SGE,
               FB_CMPI_ULT, FB_CMPI_ULE, FB_CMPI_UGT, FB_CMPI_UGE } fb_cmpi_pred;
typedef enum { FB_CMPF_FALSE, FB_CMPF_OEQ, FB_CMPF_OGT, FB_CMPF_OGE, FB_CMPF_OLT, FB_CMPF_OLE, FB_CMPF_ONE,
               FB_CMPF_ORD, FB_CMPF_UEQ, FB_CMPF_UGT, FB_CMPF_UGE, FB_CMPF_ULT, FB_CMPF_ULE, FB_CMPF_UNE,
               FB_CMPF_UNO, FB_CMPF_TRUE } fb_cmpf_pred;
/* i1 (or vector of i1) results. */
MlirValue fb_cmpi(fb_builder *b, fb_cmpi_pred p, MlirValue x, MlirValue y);
MlirValue fb_cmpf(fb_builder *b, fb_cmpf_pred p, MlirValue x, MlirValue y);
MlirValue fb_select(fb_builder *b, MlirValue cond, MlirValue x, MlirValue y);

/* ---- vector --------------------------------------------------------------- */

MlirValue fb_broadcast(fb_builder *b, MlirValue x, MlirType vector_type);
/* vector.load / vector.store with {alignment = align} (0: none). */
MlirValue fb_vector_load(fb_builder *b, MlirType vector_type, MlirValue mem, MlirValue index, int64_t align);
void fb_vector_store(fb_builder *b, MlirValue v, MlirValue mem, MlirValue index, int64_t align);
MlirValue fb_from_elements(fb_builder *b, MlirType vector_type, int n, const MlirValue *elems);
MlirValue fb_extract(fb_builder *b, MlirValue v, int64_t pos);
/* vector.reduction <kind> ("add", "mul", "maximumf", "minsi", ...) to the element type. */
MlirValue fb_vector_reduction(fb_builder *b, const char *kind, MlirValue v);

/* ---- memref --------------------------------------------------------------- */

MlirValue fb_load(fb_builder *b, MlirValue mem, MlirValue index);
void fb_store(fb_builder *b, MlirValue v, MlirValue mem, MlirValue index);
/* memref.reinterpret_cast of src to the rank-1 memref<?xT> with offset 0,
 * size `size` (a value) and stride 1. */
MlirValue fb_reinterpret_1d(fb_builder *b, MlirValue src, MlirValue size);
/* memref.atomic_rmw <kind> of v at mem[index]; returns the old value. */
typedef enum { FB_ATOMIC_ADDF, FB_ATOMIC_ADDI, FB_ATOMIC_ANDI, FB_ATOMIC_ASSIGN, FB_ATOMIC_MAXIMUMF, FB_ATOMIC_MAXNUMF,
               FB_ATOMIC_MAXS, FB_ATOMIC_MAXU, FB_ATOMIC_MINIMUMF, FB_ATOMIC_MINNUMF, FB_ATOMIC_MINS, FB_ATOMIC_MINU,
               FB_ATOMIC_MULF, FB_ATOMIC_MULI, FB_ATOMIC_ORI, FB_ATOMIC_XORI } fb_atomic_kind;
MlirValue fb_atomic_rmw(fb_builder *b, fb_atomic_kind kind, MlirValue v, MlirValue mem, MlirValue index);

/* ---- scf ------------------------------------------------------------------ */

/* scf.for lb to ub step s with n iter_args. With none, the body already
 * ends in scf.yield (insert with fb_ip_in); with some, end it with fb_yield. */
MlirOperation fb_for(fb_builder *b, MlirValue lb, MlirValue ub, MlirValue step, int n, const MlirValue *inits);
MlirValue fb_for_iv(MlirOperation loop);
MlirValue fb_for_iter_arg(MlirOperation loop, int i);
/* The body block of scf.for / scf.parallel / func.func / gpu.func (region 0). */
MlirBlock fb_body(MlirOperation op);
/* scf.if with n results (0: both branches already end in scf.yield; else
 * end each with fb_yield). with_else false only when n == 0. */
MlirOperation fb_if(fb_builder *b, MlirValue cond, int n, const MlirType *types, bool with_else);
MlirBlock fb_then(MlirOperation if_op);
MlirBlock fb_else(MlirOperation if_op);
void fb_yield(fb_builder *b, int n, const MlirValue *vals);
/* scf.parallel over n dims, ending in scf.reduce; fb_parallel_iv(op, d). */
MlirOperation fb_parallel(fb_builder *b, int n, const MlirValue *lbs, const MlirValue *ubs, const MlirValue *steps);
MlirValue fb_parallel_iv(MlirOperation op, int d);

/* ---- func, gpu, nvvm ------------------------------------------------------ */

/* func.func @name with the given argument types and no results, its entry
 * block created, inserted at the insertion point; ends in func.return. */
MlirOperation fb_func(fb_builder *b, const char *name, int nargs, const MlirType *args);
/* gpu.module @name with the DLTI index width `index_bits` (0: none). */
MlirOperation fb_gpu_module(fb_builder *b, const char *name, int index_bits);
/* gpu.func @name (kernel) with the given arguments and workgroup (shared
 * memory) attributions of the given memref types; ends in gpu.return.
 * Workgroup buffers are block arguments nargs.. of fb_body. */
MlirOperation fb_gpu_func(fb_builder *b, const char *name, int nargs, const MlirType *args, int nworkgroup,
                          const MlirType *workgroup, bool kernel);
/* memref<n x T, #gpu.address_space<workgroup>> */
MlirType fb_workgroup_memref_type(fb_builder *b, MlirType elem, int64_t n);
/* gpu.thread_id / block_id / block_dim / grid_dim along 'x', 'y' or 'z' (index). */
MlirValue fb_thread_id(fb_builder *b, char dim);
MlirValue fb_block_id(fb_builder *b, char dim);
MlirValue fb_block_dim(fb_builder *b, char dim);
MlirValue fb_grid_dim(fb_builder *b, char dim);
void fb_barrier(fb_builder *b);
/* gpu.shuffle xor v, offset, width (i32 values); the shuffled value (its
 * `valid` flag in *valid when not NULL). */
MlirValue fb_shuffle_xor(fb_builder *b, MlirValue v, MlirValue offset, MlirValue width, MlirValue *valid);

#ifdef __cplusplus
}
#endif
#endif
