/* import_internal.h: the importer's state, shared by its files:
 * nvfuser_import.c (script structure, fd.define_*, add_output),
 * import_ops.c and the op family files it dispatches to (fd.ops.*;
 * import_op_call.h), import_inputs.c (the inputs block) and import_args.c
 * (argument binding and evaluation of Python values). */
#ifndef FUSER_FRONTEND_IMPORT_INTERNAL_H
#define FUSER_FRONTEND_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/fuser.h"
#include "frontend/name_map.h"
#include "frontend/py_ast.h"
#include "mlir-c/IR.h"

/* What a Python name inside the fusion definition holds. */
typedef enum {
  BIND_VALUE,  /* a tensor or scalar SSA value (input, op result, symbolic scalar) */
  BIND_CONST,  /* fd.define_scalar(constant): materialized as fuser.scalar on first use */
  BIND_VECTOR, /* fd.define_vector([...]): constants and i64 values, used as shapes */
} binding_kind;

typedef struct {
  bool is_const;
  int64_t value;   /* when is_const */
  MlirValue dyn;   /* an i64 scalar otherwise */
} vector_elem;

typedef struct {
  py_str name;
  binding_kind kind;
  MlirValue value;      /* BIND_VALUE; BIND_CONST once materialized */
  fuser_dtype dtype;    /* BIND_CONST */
  bool is_float;        /* BIND_CONST: the literal's kind */
  int64_t ival;         /* BIND_CONST integer/bool value */
  double fval;          /* BIND_CONST float value */
  MlirLocation loc;     /* BIND_CONST: where it was defined (a NameLoc) */
  int n_elems;          /* BIND_VECTOR */
  vector_elem *elems;
} binding;

typedef struct {
  MlirContext ctx;
  const char *path;
  py_arena *arena;
  bool failed;
  py_str fd_name; /* the def's parameter */
  MlirBlock body;
  /* the fusion's inputs, in definition order */
  int n_args, cap_args;
  MlirAttribute *arg_attrs;
  /* outputs */
  int n_results, cap_results;
  MlirValue *results;
  MlirAttribute *result_attrs;
  /* an output that is a not yet materialized constant: its binding index
   * (else -1); materialized after the body, so that where its fuser.scalar
   * lands does not depend on where add_output stood (the exporter prints
   * every add_output last) */
  int *result_consts;
  /* the Python environment of the def body; later bindings shadow earlier */
  int n_bindings, cap_bindings;
  binding *bindings;
  fuser_name_map scope; /* name -> index of its latest binding */
} importer;

/* ---- errors and locations ---- */
bool imp_error(importer *imp, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
MlirLocation imp_loc(importer *imp, int line, int col);
MlirLocation imp_named_loc(importer *imp, py_str name, int line, int col);

/* ---- bindings ---- */
binding *imp_lookup(importer *imp, py_str name);
binding *imp_bind(importer *imp, py_str name);

/* ---- building ops ---- */
MlirOperation imp_append_op(importer *imp, const char *name, MlirLocation loc, int n_operands,
                            const MlirValue *operands, int n_results, const MlirType *results, int n_attrs,
                            const MlirNamedAttribute *attrs);
MlirNamedAttribute imp_named(importer *imp, const char *name, MlirAttribute a);
/* A fuser.scalar of `dt` holding the integer `i` (or the float `f` when
 * is_float); returns a null value after an error. */
MlirValue imp_scalar(importer *imp, MlirLocation loc, fuser_dtype dt, bool is_float, int64_t i, double f,
                     int line, int col);

/* ---- call arguments ---- */
/* Binds a call's arguments to parameter names (nvFuser's names, in order).
 * `n_required` leading parameters must be given. Writes one expression (or
 * NULL) per parameter into `out`. `what` names the callee in errors. */
bool imp_bind_args(importer *imp, const py_expr *call, const char *what, const char *const *params, int n_params,
                   int n_required, py_expr **out);

/* A Python value inside the fusion: a tensor/scalar name or a literal. */
bool imp_eval_value(importer *imp, const py_expr *e, const char *what, MlirValue *out);
bool imp_eval_tensor(importer *imp, const py_expr *e, const char *what, MlirValue *out);
/* A literal number (int, float, bool, possibly negated). */
bool imp_literal_number(const py_expr *e, bool *is_float, bool *is_bool, int64_t *i, double *f);
bool imp_eval_int(importer *imp, const py_expr *e, const char *what, int64_t *out);
bool imp_eval_bool(importer *imp, const py_expr *e, const char *what, bool *out);
/* A flag as pybind's bool conversion takes it: True/False or an integer
 * (0 is False), as printers write `manual_normalization=0`. */
bool imp_eval_flag(importer *imp, const py_expr *e, const char *what, bool *out);
/* A list or tuple of integer literals; at most `cap` entries. */
bool imp_eval_int_list(importer *imp, const py_expr *e, const char *what, int64_t *out, int cap, int *n);
/* nvFuser's stride_order list for a tensor of `rank` dims (the stride rank
 * of each logical dim, 0 the fastest; negative entries wrapped): `rank`
 * entries forming a permutation of [0, rank). `of` names the tensor in the
 * count error ("shape", "the output"). */
bool imp_eval_stride_order(importer *imp, const py_expr *e, const char *what, const char *of, int rank, int64_t *order);
/* DataType.X; with allow_null, DataType.Null gives FUSER_DTYPE_INVALID. */
bool imp_eval_dtype(importer *imp, const py_expr *e, const char *what, bool allow_null, fuser_dtype *out);
/* A shape: a list of ints and i64 scalars, or a define_vector. Static
 * extents go to shape[], symbolic ones are kDynamic with their value in
 * dyn[] (in order; *n_dyn of them). */
bool imp_eval_shape(importer *imp, const py_expr *e, const char *what, int64_t *shape, int *rank, MlirValue *dyn,
                    int *n_dyn);

/* ---- parts ---- */
/* `targets = fd.ops.<op>(...)`: appends the op and binds its results. */
bool imp_fd_op(importer *imp, const py_stmt *s, const py_expr *call, py_str op_name);
/* `inputs = [...]`: the fuser.inputs attribute, checked against the args
 * (types in `arg_types`). */
bool imp_inputs_block(importer *imp, const py_stmt *s, int n_args, const MlirType *arg_types, MlirAttribute *out);

/* ---- the definition, statement by statement (nvfuser_import.c; the
 * script importer and frontend/record.c drive it) ---- */
/* One statement of the fusion def's body: `names = fd.<define_*|ops.*>(...)`,
 * `fd.add_output(...)` or an alias `T1 = T0`. */
bool imp_body_statement(importer *imp, const py_stmt *s);
/* After the body: outputs that are constants no op used get their
 * fuser.scalar (located at line:col). */
bool imp_output_consts(importer *imp, int line, int col);
/* The fusion func.func named after `def` (its name, line, col), taking the
 * body block (imp->body becomes null); `inputs` is the fuser.inputs
 * attribute or null. */
MlirOperation imp_build_func(importer *imp, const py_stmt *def, MlirAttribute inputs);
/* Frees what the importer holds (the body block if not taken, the arena). */
void imp_release(importer *imp);

#endif
