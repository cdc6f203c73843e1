/* record.c: a fusion definition recorded call by call (record.h).
 *
 * A call fd.ops.add(T0, 2.0) at x.py:7 becomes the tree of the statement
 *   T2 = fd.ops.add(T0, 2.0)        (PY_ASSIGN, every node located at x.py:7)
 * and goes to the importer's imp_body_statement, exactly as if a repro
 * script held that line. Value ids name their bindings the way nvFuser
 * prints them (T2 a tensor, S3 a scalar, V4 a vector). */
#include "frontend/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/fuser_runtime.h"
#include "frontend/import_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

struct fuser_record {
  importer imp;
  char *fname;
  char *path;            /* the file of the latest call (imp.path points here) */
  int line, col;         /* the latest call */
  int first_line;
  size_t n_ids, cap_ids;
  py_str *names;         /* by value id */
  size_t cap_alias;
  int *alias;            /* by result index: input index or -1 */
  size_t n_outputs;
};

static const char FD[] = "fd";

fuser_record *fuser_record_create(MlirContext ctx, const char *name) {
  fuser_record *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->fname = strdup(name && *name ? name : "fusion");
  r->path = strdup("<fusion>");
  r->imp.ctx = ctx;
  r->imp.path = r->path;
  r->imp.arena = py_arena_create();
  r->imp.body = mlirBlockCreate(0, NULL, NULL);
  r->imp.fd_name = (py_str){FD, 2};
  r->first_line = -1;
  return r;
}

void fuser_record_destroy(fuser_record *r) {
  if (!r) return;
  imp_release(&r->imp);
  free(r->fname);
  free(r->path);
  free(r->names);
  free(r->alias);
  free(r);
}

/* ---- trees -------------------------------------------------------------- */

static py_str arena_str(fuser_record *r, const char *s) {
  size_t n = strlen(s);
  char *p = py_arena_alloc(r->imp.arena, n + 1);
  memcpy(p, s, n);
  return (py_str){p, n};
}

static py_expr *node(fuser_record *r, py_expr_kind k) {
  py_expr *e = py_arena_alloc(r->imp.arena, sizeof *e);
  e->kind = k;
  e->line = e->name_line = r->line;
  e->col = e->name_col = r->col;
  return e;
}

static py_expr *negated(fuser_record *r, py_expr *e) {
  py_expr *n = node(r, PY_NEG);
  n->base = e;
  return n;
}

static bool value_name(fuser_record *r, int64_t id, py_str *out) {
  if (id < 0 || (size_t)id >= r->n_ids)
    return imp_error(&r->imp, r->line, r->col, "argument refers to value %lld, which this definition did not make",
                     (long long)id);
  *out = r->names[id];
  return true;
}

/* A fuser_def_arg as the expression a script would hold; NULL after an error. */
static py_expr *convert(fuser_record *r, const fuser_def_arg *a, int depth) {
  if (depth > 8) return imp_error(&r->imp, r->line, r->col, "argument lists nested too deeply"), NULL;
  py_expr *e;
  switch (a->kind) {
  case FUSER_DEF_NONE: return node(r, PY_NONE);
  case FUSER_DEF_BOOL: return node(r, a->i ? PY_TRUE : PY_FALSE);
  case FUSER_DEF_INT:
    e = node(r, PY_INT);
    if (a->i >= 0) return e->ival = a->i, e;
    if (a->i == INT64_MIN) return imp_error(&r->imp, r->line, r->col, "integer argument out of range"), NULL;
    e->ival = -a->i;
    return negated(r, e);
  case FUSER_DEF_FLOAT:
    e = node(r, PY_FLOAT);
    if (isnan(a->f) || !signbit(a->f)) return e->fval = a->f, e;
    e->fval = -a->f;
    return negated(r, e);
  case FUSER_DEF_STRING:
    e = node(r, PY_STRING);
    e->name = arena_str(r, a->s ? a->s : "");
    return e;
  case FUSER_DEF_DTYPE:
    e = node(r, PY_ATTR);
    e->base = node(r, PY_NAME);
    e->base->name = arena_str(r, "DataType");
    e->name = arena_str(r, a->s ? a->s : "");
    return e;
  case FUSER_DEF_VALUE:
    e = node(r, PY_NAME);
    return value_name(r, a->i, &e->name) ? e : NULL;
  case FUSER_DEF_LIST:
  case FUSER_DEF_TUPLE:
    e = node(r, a->kind == FUSER_DEF_LIST ? PY_LIST : PY_TUPLE);
    e->n = (int)a->n;
    e->items = py_arena_alloc(r->imp.arena, sizeof *e->items * (a->n ? a->n : 1));
    for (size_t i = 0; i < a->n; i++)
      if (!(e->items[i] = convert(r, &a->items[i], depth + 1))) return NULL;
    return e;
  }
  return imp_error(&r->imp, r->line, r->col, "argument of unknown kind %d", a->kind), NULL;
}

/* fd.<method>(args) or fd.ops.<op>(args) as a call expression. */
static py_expr *call_expr(fuser_record *r, const char *method, const fuser_def_arg *args, size_t nargs) {
  py_expr *fd = node(r, PY_NAME);
  fd->name = r->imp.fd_name;
  py_expr *callee = node(r, PY_ATTR);
  if (strncmp(method, "ops.", 4) == 0) {
    callee->base = node(r, PY_ATTR);
    callee->base->base = fd;
    callee->base->name = arena_str(r, "ops");
    callee->name = arena_str(r, method + 4);
  } else {
    callee->base = fd;
    callee->name = arena_str(r, method);
  }
  py_expr *call = node(r, PY_CALL);
  call->base = callee;
  call->n = (int)nargs;
  call->args = py_arena_alloc(r->imp.arena, sizeof *call->args * (nargs ? nargs : 1));
  for (size_t i = 0; i < nargs; i++) {
    py_arg *pa = &call->args[i];
    if (args[i].keyword) pa->keyword = arena_str(r, args[i].keyword);
    pa->kw_line = r->line;
    pa->kw_col = r->col;
    if (!(pa->value = convert(r, &args[i], 0))) return NULL;
  }
  return call;
}

/* ---- values ------------------------------------------------------------- */

static binding *binding_of(fuser_record *r, int64_t id) {
  if (id < 0 || (size_t)id >= r->n_ids) return NULL;
  return imp_lookup(&r->imp, r->names[id]);
}

static bool is_tensor_binding(const binding *b) {
  return b && b->kind == BIND_VALUE && fuser_value_is_tensor(b->value);
}

static bool any_tensor_arg(fuser_record *r, const fuser_def_arg *args, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (args[i].kind == FUSER_DEF_VALUE && is_tensor_binding(binding_of(r, args[i].i))) return true;
    if ((args[i].kind == FUSER_DEF_LIST || args[i].kind == FUSER_DEF_TUPLE) && any_tensor_arg(r, args[i].items, args[i].n))
      return true;
  }
  return false;
}

/* The prefix nvFuser would print for the results of `method`. */
static char result_prefix(fuser_record *r, const char *method, const fuser_def_arg *args, size_t nargs) {
  if (strcmp(method, "define_tensor") == 0) return 'T';
  if (strcmp(method, "define_vector") == 0) return 'V';
  if (strncmp(method, "ops.", 4) != 0) return 'S';
  switch (fuser_op_kind_of(fuser_op_from_mnemonic(method + 4, strlen(method + 4)))) {
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY: return any_tensor_arg(r, args, nargs) ? 'T' : 'S';
  default: return 'T';
  }
}

static int64_t new_id(fuser_record *r, char prefix) {
  if (r->n_ids == r->cap_ids) {
    r->cap_ids = r->cap_ids ? 2 * r->cap_ids : 64;
    r->names = realloc(r->names, sizeof *r->names * r->cap_ids);
  }
  char buf[32];
  snprintf(buf, sizeof buf, "%c%zu", prefix, r->n_ids);
  r->names[r->n_ids] = arena_str(r, buf);
  return (int64_t)r->n_ids++;
}

bool fuser_record_value(fuser_record *r, int64_t id, int *kind, const char **name, int *rank, fuser_dtype *dtype,
                        int64_t *shape) {
  binding *b = binding_of(r, id);
  if (!b) return false;
  *name = r->names[id].data;
  *rank = 0;
  *dtype = FUSER_DTYPE_INVALID;
  if (b->kind == BIND_VECTOR) {
    *kind = 3;
    *rank = b->n_elems;
    *dtype = FUSER_DTYPE_I64;
    return true;
  }
  if (b->kind == BIND_CONST && mlirValueIsNull(b->value)) {
    *kind = 2;
    *dtype = b->dtype;
    return true;
  }
  MlirType t = mlirValueGetType(b->value);
  *kind = fuser_value_is_tensor(b->value) ? 1 : 2;
  *dtype = fuser_value_dtype(b->value);
  if (*kind == 1) {
    *rank = (int)mlirShapedTypeGetRank(t);
    for (int d = 0; d < *rank && d < FUSER_TENSOR_MAX_RANK; d++)
      shape[d] = mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
  }
  return true;
}

/* ---- the calls only a running definition makes ------------------------------ */

static bool is_int_list(const fuser_def_arg *a) {
  if (a->kind != FUSER_DEF_LIST && a->kind != FUSER_DEF_TUPLE) return false;
  if (!a->n) return false;
  for (size_t i = 0; i < a->n; i++)
    if (a->items[i].kind != FUSER_DEF_INT) return false;
  return true;
}

/* define_tensor(sizes, strides, dtype, static_sizes, is_cpu), nvFuser's
 * overload for a tensor in hand: told apart by its keywords or by integer
 * strides (contiguity holds bools and None). */
static bool is_sizes_form(const fuser_def_arg *args, size_t nargs) {
  size_t positional = 0;
  for (size_t i = 0; i < nargs; i++) {
    const char *k = args[i].keyword;
    if (k && (!strcmp(k, "sizes") || !strcmp(k, "strides") || !strcmp(k, "static_sizes"))) return true;
    if (!k && positional++ == 1 && is_int_list(&args[i])) return true;
  }
  return false;
}

static py_expr *int_node(fuser_record *r, int64_t v) {
  py_expr *e = node(r, PY_INT);
  if (v >= 0) return e->ival = v, e;
  e->ival = -v;
  return negated(r, e);
}

static py_expr *list_node(fuser_record *r, int n) {
  py_expr *e = node(r, PY_LIST);
  e->n = n;
  e->items = py_arena_alloc(r->imp.arena, sizeof *e->items * (n ? n : 1));
  return e;
}

static py_arg kw_arg(fuser_record *r, const char *keyword, py_expr *value) {
  return (py_arg){.keyword = arena_str(r, keyword), .kw_line = r->line, .kw_col = r->col, .value = value};
}

/* Rewrites the sizes/strides form into the shape/contiguity/stride_order
 * form: extents symbolic (-1) unless static_sizes, 1 stays a broadcast;
 * contiguity and stride order from the strides by the runtime's layout rule
 * (fuser_tensor_layout), the one that also keys libfuser's cache. */
static py_expr *sizes_form(fuser_record *r, py_expr *call) {
  static const char *const params[] = {"sizes", "strides", "dtype", "static_sizes", "is_cpu"};
  const char *what = "fd.define_tensor";
  py_expr *a[5];
  importer *imp = &r->imp;
  if (!imp_bind_args(imp, call, what, params, 5, 2, a)) return NULL;
  int64_t sizes[FUSER_MAX_RANK], strides[FUSER_MAX_RANK];
  int rank, n_strides;
  bool static_sizes = false;
  if (!imp_eval_int_list(imp, a[0], "define_tensor sizes", sizes, FUSER_MAX_RANK, &rank) ||
      !imp_eval_int_list(imp, a[1], "define_tensor strides", strides, FUSER_MAX_RANK, &n_strides) ||
      (a[3] && !imp_eval_bool(imp, a[3], "define_tensor static_sizes", &static_sizes)))
    return NULL;
  if (n_strides != rank)
    return imp_error(imp, a[1]->line, a[1]->col, "define_tensor strides has %d entries but sizes has %d", n_strides, rank), NULL;
  for (int d = 0; d < rank; d++)
    if (sizes[d] < 0) return imp_error(imp, a[0]->line, a[0]->col, "define_tensor sizes entry %d is negative", d), NULL;
  DLTensor t = {.ndim = rank, .shape = sizes, .strides = strides, .dtype = {kDLFloat, 32, 1}};
  fuser_layout l;
  fuser_error err;
  if (fuser_tensor_layout(&t, &l, &err) != FUSER_OK)
    return imp_error(imp, a[1]->line, a[1]->col, "define_tensor strides: %s", err.message), NULL;
  py_expr *shape = list_node(r, rank), *contig = list_node(r, rank), *order = list_node(r, rank);
  for (int d = 0; d < rank; d++) {
    shape->items[d] = int_node(r, static_sizes || sizes[d] == 1 ? sizes[d] : -1);
    contig->items[d] = node(r, l.contiguity[d] < 0 ? PY_NONE : l.contiguity[d] ? PY_TRUE : PY_FALSE);
    order->items[d] = int_node(r, l.stride_order[d]);
  }
  py_expr *out = node(r, PY_CALL);
  out->base = call->base;
  out->args = py_arena_alloc(imp->arena, sizeof *out->args * 5);
  out->args[out->n++] = kw_arg(r, "shape", shape);
  out->args[out->n++] = kw_arg(r, "contiguity", contig);
  if (a[2]) out->args[out->n++] = kw_arg(r, "dtype", a[2]);
  if (a[4]) out->args[out->n++] = kw_arg(r, "is_cpu", a[4]);
  out->args[out->n++] = kw_arg(r, "stride_order", order);
  return out;
}

/* add_output(output, alias_input): takes alias_input out of the call (a
 * script cannot alias) and returns the input index it names, -1 if none. */
static bool take_alias(fuser_record *r, py_expr *call, int *alias) {
  *alias = -1;
  int positional = 0;
  for (int i = 0; i < call->n; i++) {
    py_arg *pa = &call->args[i];
    bool is_alias = false;
    if (pa->keyword.len) {
      is_alias = py_str_eq(pa->keyword, "alias_input");
    } else if (++positional == 2) {
      bool list = pa->value->kind == PY_LIST || pa->value->kind == PY_TUPLE;
      if (list) pa->keyword = arena_str(r, "stride_order"); /* add_output(out, [1, 0]): the stride_order overload */
      is_alias = !list;
    } else if (positional == 3) {
      pa->keyword = arena_str(r, "stride_order");
    }
    if (!is_alias) continue;
    const py_expr *v = pa->value;
    if (v->kind != PY_NONE) {
      binding *b = v->kind == PY_NAME ? imp_lookup(&r->imp, v->name) : NULL;
      if (!is_tensor_binding(b) || !mlirValueIsABlockArgument(b->value))
        return imp_error(&r->imp, v->line, v->col, "fd.add_output alias_input must be a tensor defined by fd.define_tensor");
      *alias = (int)mlirBlockArgumentGetArgNumber(b->value);
    }
    memmove(pa, pa + 1, sizeof *pa * (size_t)(call->n - i - 1));
    call->n--;
    i--;
  }
  return true;
}

/* ---- calls -------------------------------------------------------------- */

static void set_location(fuser_record *r, const char *file, int line, int col) {
  if (!file) file = "<fusion>";
  if (strcmp(file, r->path) != 0) {
    free(r->path);
    r->path = strdup(file);
    r->imp.path = r->path;
  }
  r->line = line > 0 ? line : 1;
  r->col = col > 0 ? col : 1;
  if (r->first_line < 0) r->first_line = r->line;
}

bool fuser_record_call(fuser_record *r, const char *method, const fuser_def_arg *args, size_t nargs, const char *file,
                       int line, int col, int64_t *results, size_t max_results, size_t *nresults) {
  *nresults = 0;
  set_location(r, file, line, col);
  if (!method || !*method) return imp_error(&r->imp, r->line, r->col, "empty FusionDefinition method name");
  py_expr *call = call_expr(r, method, args, nargs);
  if (!call) return false;
  bool output = strcmp(method, "add_output") == 0;
  int alias = -1;
  if (output && !take_alias(r, call, &alias)) return false;
  if (strcmp(method, "define_tensor") == 0 && is_sizes_form(args, nargs) && !(call = sizes_form(r, call))) return false;

  py_stmt *s = py_arena_alloc(r->imp.arena, sizeof *s);
  s->line = r->line;
  s->col = r->col;
  s->value = call;
  s->kind = output ? PY_EXPR : PY_ASSIGN;
  int n = 0;
  if (!output) {
    bool pair = strncmp(method, "ops.", 4) == 0 &&
                fuser_op_kind_of(fuser_op_from_mnemonic(method + 4, strlen(method + 4))) == FUSER_KIND_VAR_MEAN;
    n = pair ? 2 : 1;
    if ((size_t)n > max_results) return imp_error(&r->imp, r->line, r->col, "%s returns %d values", method, n);
    char prefix = result_prefix(r, method, args, nargs);
    s->n_names = n;
    s->names = py_arena_alloc(r->imp.arena, sizeof *s->names * n);
    s->name_lines = py_arena_alloc(r->imp.arena, sizeof(int) * n);
    s->name_cols = py_arena_alloc(r->imp.arena, sizeof(int) * n);
    for (int i = 0; i < n; i++) {
      results[i] = new_id(r, prefix);
      s->names[i] = r->names[results[i]];
      s->name_lines[i] = r->line;
      s->name_cols[i] = r->col;
    }
  }
  if (!imp_body_statement(&r->imp, s)) return false;
  if (output) {
    size_t k = (size_t)r->imp.n_results - 1;
    if (k >= r->cap_alias) {
      r->cap_alias = r->cap_alias ? 2 * r->cap_alias : 8;
      while (r->cap_alias <= k) r->cap_alias *= 2;
      r->alias = realloc(r->alias, sizeof *r->alias * r->cap_alias);
    }
    r->alias[k] = alias;
  }
  *nresults = (size_t)n;
  return true;
}

MlirModule fuser_record_finish(fuser_record *r) {
  importer *imp = &r->imp;
  int line = r->first_line > 0 ? r->first_line : 1;
  if (!imp_output_consts(imp, r->line > 0 ? r->line : 1, r->col > 0 ? r->col : 1)) return (MlirModule){NULL};
  py_stmt def = {.kind = PY_DEF, .line = line, .col = 1};
  def.name = (py_str){r->fname, strlen(r->fname)};
  r->n_outputs = (size_t)imp->n_results;
  MlirOperation func = imp_build_func(imp, &def, mlirAttributeGetNull());
  MlirLocation loc = imp_loc(imp, line, 1);
  MlirModule module = mlirModuleCreateEmpty(loc);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), func);
  MlirOperation mop = mlirModuleGetOperation(module);
  if (fuser_verify(mop) != 0 || !mlirOperationVerify(mop)) {
    mlirModuleDestroy(module);
    return (MlirModule){NULL};
  }
  return module;
}

size_t fuser_record_num_outputs(const fuser_record *r) { return r->n_outputs; }

int fuser_record_output_alias(const fuser_record *r, size_t k) {
  return k < r->n_outputs && r->alias ? r->alias[k] : -1;
}
