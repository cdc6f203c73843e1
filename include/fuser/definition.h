/* fuser/definition.h: building a fusion call by call, as nvFuser's Python
 * FusionDefinition does, instead of from script text: the C side of the
 * Python binding (python/), usable by any framework frontend.
 *
 * Each call is one statement of nvFuser's frontend: a method ("define_tensor",
 * "define_scalar", "define_vector", "add_output", or "ops.<op>") with
 * positional and keyword arguments, given as a small tree of fuser_def_arg
 * (numbers, bools, None, DataType names, lists, and values recorded before).
 * The arguments are bound by nvFuser's parameter names with its defaults and
 * checked with its rules, by the same code that imports repro scripts
 * (frontend/), so a definition and the script that prints it give the same
 * IR. Results are value ids. The call's source location (the caller's file
 * and line) becomes the op's location, so errors read
 * `script.py:12:1: error: fd.ops.add: ...`.
 *
 *   fuser_definition *d;  fuser_error err;  int64_t t0, t1, t2;  size_t n;
 *   fuser_definition_create("fusion", &d, &err);
 *   fuser_def_arg shape[2] = {fuser_def_int(-1), fuser_def_int(-1)};
 *   fuser_def_arg a[2] = {fuser_def_list(shape, 2), fuser_def_kw("dtype", fuser_def_dtype("BFloat16"))};
 *   fuser_definition_call(d, "define_tensor", a, 2, "x.py", 3, 1, &t0, 1, &n, &err);
 *   ...
 *   fuser_definition_finish(d, &err);           // verified; hashed
 *   fuser_fusion_create_definition(rt, d, NULL, &f, &err);   // rt NULL: CPU only
 *   fuser_fusion_execute_cpu(f, FUSER_BACKEND_AUTO, args, 2, outs, 1, &err);
 *
 * Not thread-safe per definition (one thread records it); different
 * definitions may be recorded and run from different threads. */
#ifndef FUSER_LIBFUSER_DEFINITION_H
#define FUSER_LIBFUSER_DEFINITION_H

#include <stddef.h>
#include <stdint.h>

#include "fuser.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fuser_def_kind {
  FUSER_DEF_NONE = 0,
  FUSER_DEF_BOOL,   /* i: 0 or 1 */
  FUSER_DEF_INT,    /* i */
  FUSER_DEF_FLOAT,  /* f (inf and nan allowed) */
  FUSER_DEF_STRING, /* s */
  FUSER_DEF_DTYPE,  /* s: nvFuser's DataType name, "Float", "BFloat16", ... */
  FUSER_DEF_VALUE,  /* i: the id of a value recorded before */
  FUSER_DEF_LIST,   /* items[n] */
  FUSER_DEF_TUPLE,  /* items[n] */
} fuser_def_kind;

typedef struct fuser_def_arg {
  int kind;
  const char *keyword; /* a keyword argument's name; NULL for positional ones and list items */
  int64_t i;
  double f;
  const char *s;
  size_t n;
  const struct fuser_def_arg *items;
} fuser_def_arg;

static inline fuser_def_arg fuser_def_none(void) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_NONE; return a; }
static inline fuser_def_arg fuser_def_bool(int v) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_BOOL; a.i = v != 0; return a; }
static inline fuser_def_arg fuser_def_int(int64_t v) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_INT; a.i = v; return a; }
static inline fuser_def_arg fuser_def_float(double v) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_FLOAT; a.f = v; return a; }
static inline fuser_def_arg fuser_def_dtype(const char *name) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_DTYPE; a.s = name; return a; }
static inline fuser_def_arg fuser_def_value(int64_t id) { fuser_def_arg a = {0}; a.kind = FUSER_DEF_VALUE; a.i = id; return a; }
static inline fuser_def_arg fuser_def_list(const fuser_def_arg *items, size_t n) {
  fuser_def_arg a = {0}; a.kind = FUSER_DEF_LIST; a.items = items; a.n = n; return a;
}
static inline fuser_def_arg fuser_def_kw(const char *keyword, fuser_def_arg a) { a.keyword = keyword; return a; }

typedef struct fuser_definition fuser_definition;

/* A new, empty definition; `name` names the fusion function. */
int fuser_definition_create(const char *name, fuser_definition **out, fuser_error *err);
void fuser_definition_destroy(fuser_definition *d);

/* Records one call. `method` is "define_tensor" (also the form
 * define_tensor(sizes, strides, dtype, static_sizes, is_cpu)), "define_scalar",
 * "define_constant", "define_vector", "add_output" (output, alias_input,
 * stride_order) or "ops.<name>". The ids of its results (0 for add_output, 2
 * for var_mean, else 1) go to results[0..*nresults). `file`/`line`/`col`
 * locate the call (NULL file: "<fusion>"). An error (FUSER_ERR_COMPILE with
 * the located message) leaves the definition failed: every later call
 * fails too. */
int fuser_definition_call(fuser_definition *d, const char *method, const fuser_def_arg *args, size_t nargs,
                          const char *file, int line, int col, int64_t *results, size_t max_results,
                          size_t *nresults, fuser_error *err);

/* The i-th op name that "ops.<name>" accepts (the dialect's ops that
 * nvFuser spells fd.ops.<name>), NULL past the last. */
const char *fuser_definition_op_name(size_t i);

/* A finished definition imported from an nvFuser repro script (the
 * importer behind FUSER_SOURCE_NVFUSER): equal to the definition recorded
 * by running that script, so the two hash equal. */
int fuser_definition_import(const char *text, size_t len, const char *name, fuser_definition **out, fuser_error *err);

/* What a value id holds. */
typedef struct fuser_def_value_info {
  int kind;      /* 1 tensor, 2 scalar, 3 vector */
  int rank;      /* tensors; vectors: their length */
  int dtype;     /* a FUSER_TYPE_* of driver/fuser_runtime.h (tensors and scalars) */
  int64_t shape[FUSER_TENSOR_MAX_RANK]; /* tensors: static extents, -1 symbolic */
  const char *name; /* "T3", "S4", "V5" (as nvFuser names them) */
} fuser_def_value_info;
int fuser_definition_value(const fuser_definition *d, int64_t id, fuser_def_value_info *out);

/* Ends the recording: builds the fusion function, verifies it and hashes
 * it. Calls after finish fail. */
int fuser_definition_finish(fuser_definition *d, fuser_error *err);
int fuser_definition_finished(const fuser_definition *d);

/* A 64-bit hash of the finished definition's IR (ops, types, attributes;
 * not locations): equal definitions hash equal across processes. */
uint64_t fuser_definition_hash(const fuser_definition *d);

/* The finished fusion's inputs (define_tensor and symbolic define_scalar,
 * in order) and outputs (add_output, in order). */
size_t fuser_definition_num_inputs(const fuser_definition *d);
size_t fuser_definition_num_outputs(const fuser_definition *d);
/* add_output(out, alias_input=in): output k is computed like any other and
 * the caller writes it into input `in` after the call (nvFuser updates the
 * input in place and does not return it). The input index it aliases, or -1. */
int fuser_definition_output_alias(const fuser_definition *d, size_t k);

/* The fusion in the fuser dialect, as text (for printing and tests; the
 * library never reads it back). malloc'd; free() it. */
char *fuser_definition_ir(const fuser_definition *d, int with_locations);

/* A libfuser fusion of the finished definition (compiles on first use per
 * input signature, fuser.h) bound to `rt` (NULL: CPU only); it holds its
 * own copy, so the definition may be destroyed first. */
int fuser_fusion_create_definition(fuser_runtime *rt, const fuser_definition *d, const fuser_fusion_options *options,
                                   fuser_fusion **out, fuser_error *err);

/* What input k of the finished definition takes (kind, rank, dtype,
 * static shape; name ""), for checking a call's arguments as nvFuser
 * does: a fuser_fusion accepts other dtypes (it specialises to them). */
int fuser_definition_input(const fuser_definition *d, size_t k, fuser_def_value_info *out);

#ifdef __cplusplus
}
#endif
#endif
