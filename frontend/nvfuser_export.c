/* The exporter: a fusion func.func back to an nvFuser repro script in the
 * classic format. Values keep the Python names the importer recorded in
 * their NameLocs where that is safe (the name's previous value is dead);
 * otherwise they get fresh T<n>/S<n>/V<n> names. Constants print as
 * define_scalar, symbolic shapes as define_vector, left-nested cat chains
 * fold back into one cat list, and fuser.inputs becomes the inputs block. */
#include "frontend/nvfuser_export.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "frontend/name_map.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "passes/ptr_map.h"

typedef struct {
  char *buf;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    t->buf = realloc(t->buf, t->cap);
  }
  va_start(ap, fmt);
  vsnprintf(t->buf + t->len, n + 1, fmt, ap);
  va_end(ap);
  t->len += n;
}

typedef struct {
  MlirValue value;
  char name[64];
  int last_use; /* index of the last op that uses it (n_ops: the return) */
} named_value;

typedef struct {
  MlirContext ctx;
  text out;
  MlirOperation *ops; /* the fusion body, without the return */
  int n_ops;
  bool *folded; /* cat links printed as part of a later cat */
  named_value *names;
  int n_names, cap_names;
  fuser_ptr_map op_at;      /* op -> its index in ops */
  fuser_ptr_map value_name; /* value -> index in names */
  fuser_name_map name_at;   /* name -> index in names of its latest value */
  int fresh; /* counter for fresh names */
  const char *def_name;
  bool failed;
} exporter;

static bool exp_error(exporter *e, MlirLocation loc, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(loc, msg);
  e->failed = true;
  return false;
}

static bool str_is(MlirStringRef s, const char *lit) { return s.length == strlen(lit) && memcmp(s.data, lit, s.length) == 0; }

/* ---- numbers ---------------------------------------------------------------- */

/* The shortest decimal that reads back as the same double, as Python's repr. */
static void put_float(text *t, double v) {
  if (isnan(v)) { put(t, "float('nan')"); return; }
  if (isinf(v)) { put(t, v > 0 ? "float('inf')" : "float('-inf')"); return; }
  char buf[64];
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v) break;
  }
  put(t, "%s%s", buf, strpbrk(buf, ".en") ? "" : ".0");
}

static void put_ints(text *t, const int64_t *v, int n) {
  put(t, "[");
  for (int i = 0; i < n; i++) put(t, "%s%lld", i ? ", " : "", (long long)v[i]);
  put(t, "]");
}

static void put_tuple(text *t, const int64_t *v, int n) {
  put(t, "(");
  for (int i = 0; i < n; i++) put(t, "%s%lld", i ? ", " : "", (long long)v[i]);
  put(t, n == 1 ? ",)" : ")");
}

static int read_array(MlirAttribute a, int64_t *out, int cap) {
  if (mlirAttributeIsNull(a)) return -1;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  if (n > cap) return -1;
  for (intptr_t i = 0; i < n; i++)
    out[i] = mlirAttributeIsADenseI64Array(a) ? mlirDenseI64ArrayGetElement(a, i)
             : mlirAttributeIsADenseBoolArray(a) ? mlirDenseBoolArrayGetElement(a, i)
                                                 : 0;
  return (int)n;
}

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* ---- names ------------------------------------------------------------------ */

static int op_index(exporter *e, MlirOperation op) {
  intptr_t i;
  return fuser_ptr_map_get(&e->op_at, op.ptr, &i) ? (int)i : e->n_ops; /* else the return */
}

static int last_use(exporter *e, MlirValue v) {
  int last = -1;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    int i = op_index(e, mlirOpOperandGetOwner(u));
    if (i > last) last = i;
  }
  return last;
}

static named_value *find_value(exporter *e, MlirValue v) {
  intptr_t i;
  return fuser_ptr_map_get(&e->value_name, v.ptr, &i) ? &e->names[i] : NULL;
}

/* The most recent value bound to `name`, if any. */
static named_value *find_name(exporter *e, const char *name) {
  intptr_t i;
  return fuser_name_map_get(&e->name_at, name, strlen(name), &i) ? &e->names[i] : NULL;
}

/* A Python identifier that the script's own names cannot shadow (the def
 * name and every value name avoid these; the importer rejects them as def
 * names too). */
static bool is_identifier(MlirStringRef s) {
  if (s.length == 0) return false;
  for (size_t i = 0; i < s.length; i++) {
    char c = s.data[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  static const char *const reserved[] = {"fd", "inputs", "torch", "DataType", "FusionDefinition", "nvfuser",
                                         "None", "True", "False", "float", "and", "as", "assert", "break", "class",
                                         "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
                                         "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
                                         "pass", "raise", "return", "try", "while", "with", "yield", "async", "await"};
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
    if (str_is(s, reserved[i])) return false;
  return true;
}

/* The Python name the importer recorded for result `index` of a location. */
static bool recorded_name(MlirLocation loc, int index, MlirStringRef *out) {
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (index >= n || n > 8) return false;
    MlirLocation parts[8];
    mlirLocationFusedGetLocations(loc, parts);
    loc = parts[index];
  } else if (index != 0) {
    return false;
  }
  if (!mlirLocationIsAName(loc)) return false;
  *out = mlirIdentifierStr(mlirLocationNameGetName(loc));
  return true;
}

/* Names `v`, defined at op index `at`, preferring its recorded name. */
static const char *name_value(exporter *e, MlirValue v, MlirLocation loc, int result_index, int at, char prefix) {
  if (e->n_names == e->cap_names) {
    e->cap_names = e->cap_names ? e->cap_names * 2 : 64;
    e->names = realloc(e->names, sizeof *e->names * e->cap_names);
  }
  named_value *nv = &e->names[e->n_names];
  nv->value = v;
  nv->last_use = last_use(e, v);
  MlirStringRef rec;
  bool have = recorded_name(loc, result_index, &rec) && rec.length < sizeof nv->name && is_identifier(rec) &&
              !(strlen(e->def_name) == rec.length && memcmp(e->def_name, rec.data, rec.length) == 0);
  if (have) {
    snprintf(nv->name, sizeof nv->name, "%.*s", (int)rec.length, rec.data);
    named_value *prev = find_name(e, nv->name);
    if (prev && prev->last_use > at) have = false; /* the old value is still needed */
  }
  if (!have) {
    do {
      snprintf(nv->name, sizeof nv->name, "%c%d", prefix, e->fresh++);
    } while (find_name(e, nv->name));
  }
  fuser_ptr_map_put(&e->value_name, v.ptr, e->n_names);
  fuser_name_map_put(&e->name_at, nv->name, strlen(nv->name), e->n_names);
  e->n_names++;
  return nv->name;
}

static const char *name_of(exporter *e, MlirValue v) {
  named_value *nv = find_value(e, v);
  return nv ? nv->name : "<unnamed>";
}

/* ---- types ------------------------------------------------------------------ */

static bool dtype_name(exporter *e, MlirType t, MlirLocation loc, const char **out) {
  fuser_dtype dt = fuser_dtype_of_type(mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetElementType(t) : t);
  if (dt == FUSER_DTYPE_INVALID) return exp_error(e, loc, "cannot export a value of an unsupported element type");
  *out = fuser_dtype_nvfuser_name(dt);
  return true;
}

static const char *torch_dtype(fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return "bfloat16";
  case FUSER_DTYPE_F16: return "float16";
  case FUSER_DTYPE_F32: return "float32";
  case FUSER_DTYPE_F64: return "float64";
  case FUSER_DTYPE_I1: return "bool";
  case FUSER_DTYPE_I32: return "int32";
  case FUSER_DTYPE_I64: return "int64";
  default: return "?";
  }
}

/* ---- arguments -------------------------------------------------------------- */

static bool export_args(exporter *e, MlirOperation func, MlirBlock body) {
  MlirAttribute arg_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  intptr_t n = mlirBlockGetNumArguments(body);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue v = mlirBlockGetArgument(body, i);
    MlirType t = mlirValueGetType(v);
    MlirLocation loc = mlirValueGetLocation(v);
    const char *dt;
    if (!dtype_name(e, t, loc, &dt)) return false;
    bool tensor = mlirTypeIsARankedTensor(t);
    const char *name = name_value(e, v, loc, 0, -1, tensor ? 'T' : 'S');
    if (!tensor) {
      put(&e->out, "    %s = fd.define_scalar(None, dtype=DataType.%s)\n", name, dt);
      continue;
    }
    int rank = (int)mlirShapedTypeGetRank(t);
    if (rank > FUSER_MAX_RANK) return exp_error(e, loc, "cannot export a tensor of rank %d", rank);
    int64_t shape[FUSER_MAX_RANK], order[FUSER_MAX_RANK], contig[FUSER_MAX_RANK];
    for (int d = 0; d < rank; d++) {
      int64_t x = mlirShapedTypeGetDimSize(t, d);
      shape[d] = x == mlirShapedTypeGetDynamicSize() ? -1 : x;
      order[d] = rank - 1 - d;
    }
    MlirAttribute dict = !mlirAttributeIsNull(arg_attrs) && mlirAttributeIsAArray(arg_attrs) &&
                                 i < mlirArrayAttrGetNumElements(arg_attrs)
                             ? mlirArrayAttrGetElement(arg_attrs, i)
                             : mlirAttributeGetNull();
    MlirAttribute so = mlirAttributeGetNull(), co = mlirAttributeGetNull(), cpu = mlirAttributeGetNull();
    if (!mlirAttributeIsNull(dict) && mlirAttributeIsADictionary(dict)) {
      so = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.stride_order"));
      co = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.contiguity"));
      cpu = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("fuser.is_cpu"));
    }
    if (!mlirAttributeIsNull(so) && read_array(so, order, FUSER_MAX_RANK) != rank)
      return exp_error(e, loc, "argument #%ld: fuser.stride_order does not match its rank", (long)i);
    if (!mlirAttributeIsNull(co)) {
      if (read_array(co, contig, FUSER_MAX_RANK) != rank)
        return exp_error(e, loc, "argument #%ld: fuser.contiguity does not match its rank", (long)i);
    } else { /* no layout given: contiguous, None for broadcast dims */
      for (int d = 0; d < rank; d++) contig[rank - 1 - order[d]] = shape[d] == 1 ? -1 : 1;
    }
    put(&e->out, "    %s = fd.define_tensor(shape=", name);
    put_ints(&e->out, shape, rank);
    put(&e->out, ", contiguity=[");
    for (int p = 0; p < rank; p++)
      put(&e->out, "%s%s", p ? ", " : "", contig[p] < 0 ? "None" : contig[p] ? "True" : "False");
    put(&e->out, "], dtype=DataType.%s, is_cpu=%s, stride_order=", dt, mlirAttributeIsNull(cpu) ? "False" : "True");
    put_ints(&e->out, order, rank);
    put(&e->out, ")\n");
  }
  return true;
}

/* ---- ops -------------------------------------------------------------------- */

/* A shape from a result type and its i64 operands starting at `first`:
 * a literal list, or (with symbolic extents) a define_vector printed first. */
static void shape_arg(exporter *e, MlirOperation op, int first, char *out, size_t cap) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int rank = (int)mlirShapedTypeGetRank(t);
  text s = {0};
  int k = first;
  bool symbolic = false;
  put(&s, "[");
  for (int d = 0; d < rank; d++) {
    int64_t x = mlirShapedTypeGetDimSize(t, d);
    if (x == mlirShapedTypeGetDynamicSize()) {
      symbolic = true;
      put(&s, "%s%s", d ? ", " : "", name_of(e, mlirOperationGetOperand(op, k++)));
    } else {
      put(&s, "%s%lld", d ? ", " : "", (long long)x);
    }
  }
  put(&s, "]");
  if (symbolic) {
    char v[16];
    do snprintf(v, sizeof v, "V%d", e->fresh++);
    while (find_name(e, v));
    put(&e->out, "    %s = fd.define_vector(%s, dtype=DataType.Int)\n", v, s.buf);
    snprintf(out, cap, "%s", v);
  } else {
    snprintf(out, cap, "%s", s.buf);
  }
  free(s.buf);
}

static void put_attr_ints(exporter *e, MlirOperation op, const char *name, const char *keyword) {
  int64_t v[2 * FUSER_MAX_RANK];
  int n = read_array(attr(op, name), v, 2 * FUSER_MAX_RANK);
  put(&e->out, ", %s=", keyword);
  put_ints(&e->out, v, n < 0 ? 0 : n);
}

static bool attr_bool(MlirOperation op, const char *name) {
  int64_t v = 0;
  return fuser_get_i64(op, name, &v) && v;
}

static bool export_scalar(exporter *e, MlirOperation op, const char *name) {
  MlirAttribute v = attr(op, "value");
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  const char *dt;
  if (!dtype_name(e, t, mlirOperationGetLocation(op), &dt)) return false;
  put(&e->out, "    %s = fd.define_scalar(", name);
  if (mlirAttributeIsAFloat(v)) put_float(&e->out, mlirFloatAttrGetValueDouble(v));
  else if (mlirAttributeIsABool(v)) put(&e->out, mlirBoolAttrGetValue(v) ? "True" : "False");
  else if (mlirAttributeIsAInteger(v) && fuser_dtype_of_type(t) == FUSER_DTYPE_I1)
    put(&e->out, mlirIntegerAttrGetValueInt(v) ? "True" : "False");
  else if (mlirAttributeIsAInteger(v)) put(&e->out, "%lld", (long long)mlirIntegerAttrGetValueInt(v));
  else return exp_error(e, mlirOperationGetLocation(op), "cannot export a fuser.scalar without a number value");
  put(&e->out, ", dtype=DataType.%s)\n", dt);
  return true;
}

/* cat(cat(a, b), c): the operands of the whole chain ending at `op`. */
static int cat_chain(exporter *e, int index, MlirValue *items, int cap) {
  MlirOperation op = e->ops[index];
  int n = 0;
  if (index > 0 && e->folded[index - 1]) n = cat_chain(e, index - 1, items, cap);
  else if (cap > 0) items[n++] = mlirOperationGetOperand(op, 0);
  if (n < cap) items[n++] = mlirOperationGetOperand(op, 1);
  return n;
}

static bool export_op(exporter *e, int index) {
  MlirOperation op = e->ops[index];
  MlirLocation loc = mlirOperationGetLocation(op);
  fuser_op_id id = fuser_op_id_of(op);
  if (id == FUSER_OP_NONE) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    return exp_error(e, loc, "cannot export '%.*s' to an nvFuser script (only fuser ops)", (int)n.length, n.data);
  }
  if (e->folded[index]) return true;
  int nres = (int)mlirOperationGetNumResults(op);
  const char *names[2];
  for (int i = 0; i < nres && i < 2; i++) {
    MlirValue r = mlirOperationGetResult(op, i);
    names[i] = name_value(e, r, loc, i, index, id == FUSER_OP_scalar || !fuser_value_is_tensor(r) ? 'S' : 'T');
  }
  if (id == FUSER_OP_scalar) return export_scalar(e, op, names[0]);
  fuser_op_kind kind = fuser_op_kind_of(id);
  if (id == FUSER_OP_size) {
    int64_t dim = 0;
    fuser_get_i64(op, "dim", &dim);
    put(&e->out, "    %s = fd.ops.size(%s, dim=%lld)\n", names[0], name_of(e, mlirOperationGetOperand(op, 0)), (long long)dim);
    return true;
  }
  if (fuser_op_is_plan_level(id)) /* made by passes: no nvFuser spelling */
    return exp_error(e, loc, "cannot export '%s' to an nvFuser script (a plan-level op; export before the passes)",
                     fuser_op_full_name(id));
  /* a set with its own stride order is fd.ops.stride_order */
  bool layout_set = fuser_op_is_layout_set(op);
  const char *mn = layout_set ? "stride_order" : fuser_op_mnemonic(id);
  int nops = (int)mlirOperationGetNumOperands(op);
  const char *dt;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!dtype_name(e, rt, loc, &dt)) return false;
  char shape[512];
  switch (fuser_op_kind_of(id)) {
  case FUSER_KIND_SHAPED:
  case FUSER_KIND_FULL:
    shape_arg(e, op, 1, shape, sizeof shape);
    break;
  case FUSER_KIND_RNG:
    shape_arg(e, op, 4, shape, sizeof shape);
    break;
  default:
    break;
  }
  text *o = &e->out;
  if (nres == 2) put(o, "    %s, %s = fd.ops.%s(", names[0], names[1], mn);
  else put(o, "    %s = fd.ops.%s(", names[0], mn);
  switch (kind) {
  case FUSER_KIND_VIEW:
  case FUSER_KIND_QUERY:
  case FUSER_KIND_CHECK:
  case FUSER_KIND_HOST:
  case FUSER_KIND_ADDRESS:
  case FUSER_KIND_LAUNCH:
  case FUSER_KIND_NONE:
    break;
  case FUSER_KIND_UNARY:
  case FUSER_KIND_BINARY:
  case FUSER_KIND_TERNARY:
    for (int i = 0; i < nops; i++) put(o, "%s%s", i ? ", " : "", name_of(e, mlirOperationGetOperand(op, i)));
    if (id == FUSER_OP_cast) put(o, ", dtype=DataType.%s", dt);
    if (fuser_is_triangle_op(id)) {
      int64_t diagonal = 0;
      fuser_get_i64(op, "diagonal", &diagonal);
      put(o, ", diagonal=%lld", (long long)diagonal);
    }
    break;
  case FUSER_KIND_SHAPED:
    put(o, "%s, %s=%s", name_of(e, mlirOperationGetOperand(op, 0)), id == FUSER_OP_reshape ? "new_shape" : "shape", shape);
    if (id == FUSER_OP_broadcast_in_dim) put_attr_ints(e, op, "broadcast_dims", "broadcast_dims");
    break;
  case FUSER_KIND_META:
    put(o, "%s", name_of(e, mlirOperationGetOperand(op, 0)));
    if (id == FUSER_OP_permute || id == FUSER_OP_squeeze) put_attr_ints(e, op, "dims", "dims");
    if (layout_set) put_attr_ints(e, op, "fuser.stride_order", "stride_order");
    if (id == FUSER_OP_slice) {
      put_attr_ints(e, op, "start_indices", "start_indices");
      put_attr_ints(e, op, "end_indices", "end_indices");
      put_attr_ints(e, op, "strides", "strides");
    }
    if (id == FUSER_OP_broadcast) {
      int64_t v[FUSER_MAX_RANK];
      int n = read_array(attr(op, "is_broadcast_dim"), v, FUSER_MAX_RANK);
      put(o, ", is_broadcast_dim=[");
      for (int i = 0; i < n; i++) put(o, "%s%s", i ? ", " : "", v[i] ? "True" : "False");
      put(o, "]");
    }
    break;
  case FUSER_KIND_PAD:
    put(o, "%s", name_of(e, mlirOperationGetOperand(op, 0)));
    put_attr_ints(e, op, "pad_widths", "pad_widths");
    put(o, ", value=%s", name_of(e, mlirOperationGetOperand(op, 1)));
    break;
  case FUSER_KIND_CAT: {
    int links = 1;
    while (index - links >= 0 && e->folded[index - links]) links++;
    MlirValue *items = malloc(sizeof *items * (links + 1));
    int n = cat_chain(e, index, items, links + 1);
    int64_t dim = 0;
    fuser_get_i64(op, "dim", &dim);
    put(o, "[");
    for (int i = 0; i < n; i++) put(o, "%s%s", i ? ", " : "", name_of(e, items[i]));
    put(o, "], dim=%lld", (long long)dim);
    free(items);
    break;
  }
  case FUSER_KIND_REDUCTION:
    put(o, "%s", name_of(e, mlirOperationGetOperand(op, 0)));
    put_attr_ints(e, op, "dims", "dims");
    put(o, ", keepdim=%s, dtype=DataType.%s", attr_bool(op, "keepdim") ? "True" : "False", dt);
    break;
  case FUSER_KIND_VAR_MEAN: {
    int64_t corr = 1;
    fuser_get_i64(op, "correction", &corr);
    put(o, "%s", name_of(e, mlirOperationGetOperand(op, 0)));
    put_attr_ints(e, op, "dims", "dims");
    put(o, ", correction=%lld, keepdim=%s", (long long)corr, attr_bool(op, "keepdim") ? "True" : "False");
    break;
  }
  case FUSER_KIND_FULL:
    put(o, "shape=%s, fill_value=%s, dtype=DataType.%s", shape, name_of(e, mlirOperationGetOperand(op, 0)), dt);
    break;
  case FUSER_KIND_RNG:
    put(o, "%s, %s, shape=%s, rng_seed=%s, rng_offset=%s, dtype=DataType.%s", name_of(e, mlirOperationGetOperand(op, 0)),
        name_of(e, mlirOperationGetOperand(op, 1)), shape, name_of(e, mlirOperationGetOperand(op, 2)),
        name_of(e, mlirOperationGetOperand(op, 3)), dt);
    break;
  case FUSER_KIND_IOTA:
    for (int i = 0; i < nops; i++) put(o, "%s%s", i ? ", " : "", name_of(e, mlirOperationGetOperand(op, i)));
    put(o, ", dtype=DataType.%s", dt);
    break;
  case FUSER_KIND_MATMUL: /* fd.ops.matmul(a, b), fd.ops.linear(input, weight[, bias]) */
    for (int i = 0; i < nops; i++) put(o, "%s%s", i ? ", " : "", name_of(e, mlirOperationGetOperand(op, i)));
    break;
  case FUSER_KIND_INDEX: { /* fd.ops.index_select / gather / take_along_axis(arg, index, dim) */
    int64_t dim = 0;
    fuser_get_i64(op, "dim", &dim);
    put(o, "%s, %s, dim=%lld", name_of(e, mlirOperationGetOperand(op, 0)), name_of(e, mlirOperationGetOperand(op, 1)),
        (long long)dim);
    break;
  }
  case FUSER_KIND_SCALAR:
    break;
  }
  put(o, ")\n");
  return true;
}

/* Marks the cat links that fold into the next cat: a cat whose only use is
 * the lhs of the cat right after it, along the same dim. */
static void mark_folded_cats(exporter *e) {
  for (int i = 0; i + 1 < e->n_ops; i++) {
    MlirOperation a = e->ops[i], b = e->ops[i + 1];
    if (fuser_op_id_of(a) != FUSER_OP_cat || fuser_op_id_of(b) != FUSER_OP_cat) continue;
    MlirValue r = mlirOperationGetResult(a, 0);
    MlirOpOperand u = mlirValueGetFirstUse(r);
    if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u))) continue;
    if (mlirOpOperandGetOwner(u).ptr != b.ptr || mlirOpOperandGetOperandNumber(u) != 0) continue;
    int64_t da = -1, db = -2;
    if (fuser_get_i64(a, "dim", &da) && fuser_get_i64(b, "dim", &db) && da == db) e->folded[i] = true;
  }
}

/* ---- inputs block --------------------------------------------------------------- */

static MlirAttribute dict_get(MlirAttribute d, const char *name) {
  return mlirDictionaryAttrGetElementByName(d, mlirStringRefCreateFromCString(name));
}

/* Whether argument `i` is a CPU scalar tensor (fuser.is_cpu). */
static bool arg_is_cpu(MlirOperation func, intptr_t i) {
  MlirAttribute all = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || i >= mlirArrayAttrGetNumElements(all)) return false;
  MlirAttribute d = mlirArrayAttrGetElement(all, i);
  return mlirAttributeIsADictionary(d) && !mlirAttributeIsNull(dict_get(d, "fuser.is_cpu"));
}

/* A bound of make_tensor/randint: an integer for integer dtypes. */
static void put_bound(text *o, double v, bool integral) {
  if (integral && v == floor(v) && fabs(v) < 9e15) put(o, "%lld", (long long)v);
  else put_float(o, v);
}

static bool export_inputs(exporter *e, MlirOperation func, MlirAttribute inputs, MlirLocation loc) {
  text *o = &e->out;
  put(o, "inputs = [\n");
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(inputs); i++) {
    MlirAttribute d = mlirArrayAttrGetElement(inputs, i);
    if (!mlirAttributeIsADictionary(d)) return exp_error(e, loc, "fuser.inputs entry %ld is not a dictionary", (long)i);
    MlirAttribute value = dict_get(d, "value");
    put(o, "    ");
    if (!mlirAttributeIsNull(value)) {
      if (mlirAttributeIsAFloat(value)) put_float(o, mlirFloatAttrGetValueDouble(value));
      else if (mlirAttributeIsABool(value)) put(o, mlirBoolAttrGetValue(value) ? "True" : "False");
      else if (mlirAttributeIsAInteger(value)) put(o, "%lld", (long long)mlirIntegerAttrGetValueInt(value));
      else return exp_error(e, loc, "fuser.inputs entry %ld has a non-numeric value", (long)i);
      put(o, ",\n");
      continue;
    }
    MlirAttribute factory = dict_get(d, "factory"), dtype = dict_get(d, "dtype");
    int64_t shape[FUSER_MAX_RANK], sizes[FUSER_MAX_RANK], strides[FUSER_MAX_RANK];
    int rank = read_array(dict_get(d, "shape"), shape, FUSER_MAX_RANK);
    int vr = read_array(dict_get(d, "sizes"), sizes, FUSER_MAX_RANK);
    int sr = read_array(dict_get(d, "strides"), strides, FUSER_MAX_RANK);
    MlirAttribute off = dict_get(d, "offset");
    if (mlirAttributeIsNull(factory) || !mlirAttributeIsAString(factory) || mlirAttributeIsNull(dtype) ||
        !mlirAttributeIsAType(dtype) || rank < 0 || vr < 0 || sr != vr ||
        (!mlirAttributeIsNull(off) && !mlirAttributeIsAInteger(off)))
      return exp_error(e, loc, "fuser.inputs entry %ld is malformed", (long)i);
    MlirStringRef f = mlirStringAttrGetValue(factory);
    fuser_dtype dt = fuser_dtype_of_type(mlirTypeAttrGetValue(dtype));
    if (dt == FUSER_DTYPE_INVALID) return exp_error(e, loc, "fuser.inputs entry %ld has an unsupported dtype", (long)i);
    bool bounded = str_is(f, "make_tensor") || str_is(f, "randint");
    double low = 0, high = 0;
    if (bounded) {
      MlirAttribute lo = dict_get(d, "low"), hi = dict_get(d, "high");
      if (mlirAttributeIsNull(lo) || !mlirAttributeIsAFloat(lo) || mlirAttributeIsNull(hi) || !mlirAttributeIsAFloat(hi))
        return exp_error(e, loc, "fuser.inputs entry %ld: %.*s needs low and high", (long)i, (int)f.length, f.data);
      low = mlirFloatAttrGetValueDouble(lo), high = mlirFloatAttrGetValueDouble(hi);
    }
    bool integral = str_is(f, "randint") || !fuser_dtype_is_float(dt);
    put(o, "torch.%s%.*s(", str_is(f, "make_tensor") ? "testing." : "", (int)f.length, f.data);
    if (str_is(f, "randint")) {
      put_bound(o, low, true);
      put(o, ", ");
      put_bound(o, high, true);
      put(o, ", ");
      put_tuple(o, shape, rank);
    } else if (str_is(f, "arange")) {
      MlirAttribute a[3] = {dict_get(d, "start"), dict_get(d, "end"), dict_get(d, "step")};
      for (int k = 0; k < 3; k++) {
        if (mlirAttributeIsNull(a[k]) || !mlirAttributeIsAFloat(a[k]))
          return exp_error(e, loc, "fuser.inputs entry %ld: arange needs start, end and step", (long)i);
        if (k) put(o, ", ");
        put_float(o, mlirFloatAttrGetValueDouble(a[k]));
      }
    } else {
      put_tuple(o, shape, rank);
      if (str_is(f, "full")) {
        MlirAttribute fv = dict_get(d, "fill_value");
        if (mlirAttributeIsNull(fv) || !mlirAttributeIsAFloat(fv))
          return exp_error(e, loc, "fuser.inputs entry %ld: full needs fill_value", (long)i);
        put(o, ", ");
        put_float(o, mlirFloatAttrGetValueDouble(fv));
      }
    }
    put(o, ", dtype=torch.%s, device='%s'", torch_dtype(dt), arg_is_cpu(func, i) ? "cpu" : "cuda:0");
    if (str_is(f, "make_tensor") && dt != FUSER_DTYPE_I1) {
      put(o, ", low=");
      put_bound(o, low, integral);
      put(o, ", high=");
      put_bound(o, high, integral);
    }
    put(o, ")");
    int64_t offset = mlirAttributeIsNull(off) ? 0 : mlirIntegerAttrGetValueInt(off);
    bool plain = offset == 0 && vr == rank;
    int64_t stride = 1;
    for (int k = vr - 1; plain && k >= 0; k--) {
      plain = sizes[k] == shape[k] && strides[k] == stride;
      stride *= shape[k] ? shape[k] : 1;
    }
    if (!plain) {
      put(o, ".as_strided(");
      put_tuple(o, sizes, vr);
      put(o, ", ");
      put_tuple(o, strides, vr);
      if (offset) put(o, ", %lld", (long long)offset);
      put(o, ")");
    }
    put(o, ",\n");
  }
  put(o, "]\n");
  return true;
}

/* ---- the script ------------------------------------------------------------------- */

static bool is_fusion(MlirOperation op) {
  return str_is(mlirIdentifierStr(mlirOperationGetName(op)), "func.func") &&
         !mlirAttributeIsNull(attr(op, "fuser.fusion"));
}

static MlirOperation find_fusion(exporter *e, MlirOperation op) {
  if (is_fusion(op)) return op;
  MlirOperation found = {NULL};
  int count = 0;
  if (mlirOperationGetNumRegions(op) == 1) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    for (MlirOperation c = mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(c); c = mlirOperationGetNextInBlock(c))
      if (is_fusion(c)) found = c, count++;
  }
  if (count != 1) {
    exp_error(e, mlirOperationGetLocation(op), count ? "cannot export %d fusions into one script (one per script)"
                                                     : "no fusion function (a func.func with fuser.fusion) to export",
              count);
    return (MlirOperation){NULL};
  }
  return found;
}

static bool export_body(exporter *e, MlirOperation func, const char *def_name);

static bool export_func(exporter *e, MlirOperation func) {
  MlirAttribute sym = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef fname = mlirStringAttrGetValue(sym);
  if (!is_identifier(fname))
    return exp_error(e, mlirOperationGetLocation(func), "fusion name '%.*s' is not a Python identifier the script can use",
                     (int)(fname.length > 200 ? 200 : fname.length), fname.data);
  char *def_name = malloc(fname.length + 1);
  memcpy(def_name, fname.data, fname.length);
  def_name[fname.length] = 0;
  e->def_name = def_name;
  bool ok = export_body(e, func, def_name);
  free(def_name);
  return ok;
}

static bool export_body(exporter *e, MlirOperation func, const char *def_name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(body)) return exp_error(e, mlirOperationGetLocation(func), "cannot export a fusion without a body");
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (op.ptr != ret.ptr) e->n_ops++;
  e->ops = calloc(e->n_ops + 1, sizeof *e->ops);
  e->folded = calloc(e->n_ops + 1, sizeof *e->folded);
  int k = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (op.ptr != ret.ptr) fuser_ptr_map_put(&e->op_at, op.ptr, k), e->ops[k++] = op;
  if (mlirOperationIsNull(ret) || !str_is(mlirIdentifierStr(mlirOperationGetName(ret)), "func.return"))
    return exp_error(e, mlirOperationGetLocation(func), "the fusion must end with func.return");
  mark_folded_cats(e);

  text *o = &e->out;
  put(o, "import torch\nfrom nvfuser import FusionDefinition, DataType\n\n");
  put(o, "def %s(fd : FusionDefinition) -> None :\n", def_name);
  size_t body_start = o->len;
  if (!export_args(e, func, body)) return false;
  for (int i = 0; i < e->n_ops; i++)
    if (!export_op(e, i)) return false;
  MlirAttribute res_attrs = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    put(o, "    fd.add_output(%s", name_of(e, mlirOperationGetOperand(ret, i)));
    if (!mlirAttributeIsNull(res_attrs) && mlirAttributeIsAArray(res_attrs) && i < mlirArrayAttrGetNumElements(res_attrs)) {
      MlirAttribute d = mlirArrayAttrGetElement(res_attrs, i);
      MlirAttribute so = mlirAttributeIsADictionary(d) ? dict_get(d, "fuser.stride_order") : mlirAttributeGetNull();
      int64_t order[FUSER_MAX_RANK];
      int n = mlirAttributeIsNull(so) ? -1 : read_array(so, order, FUSER_MAX_RANK);
      if (n >= 0) {
        put(o, ", stride_order=");
        put_ints(o, order, n);
      }
      /* written into an input (nvFuser prints the alias positionally) */
      MlirAttribute al = mlirAttributeIsADictionary(d) ? dict_get(d, "fuser.alias_input") : mlirAttributeGetNull();
      if (!mlirAttributeIsNull(al) && mlirAttributeIsAInteger(al) && mlirIntegerAttrGetValueInt(al) >= 0 &&
          mlirIntegerAttrGetValueInt(al) < mlirBlockGetNumArguments(body))
        put(o, ", %s", name_of(e, mlirBlockGetArgument(body, (intptr_t)mlirIntegerAttrGetValueInt(al))));
    }
    put(o, ")\n");
  }
  /* a fusion with nothing in it (the importer drops unused constants):
   * Python needs a statement in the def */
  if (o->len == body_start) put(o, "    pass\n");
  put(o, "\nwith FusionDefinition() as fd:\n    %s(fd)\n", def_name);
  MlirAttribute inputs = attr(func, "fuser.inputs");
  if (!mlirAttributeIsNull(inputs)) {
    if (!mlirAttributeIsAArray(inputs) || mlirArrayAttrGetNumElements(inputs) != mlirBlockGetNumArguments(body))
      return exp_error(e, mlirOperationGetLocation(func), "fuser.inputs must be an array with one entry per argument");
    put(o, "\n");
    if (!export_inputs(e, func, inputs, mlirOperationGetLocation(func))) return false;
    put(o, "fd.execute(inputs)\n");
  }
  return true;
}

char *fuser_export_nvfuser(MlirOperation op) {
  exporter e = {.ctx = mlirOperationGetContext(op)};
  fuser_ptr_map_init(&e.op_at);
  fuser_ptr_map_init(&e.value_name);
  MlirOperation func = find_fusion(&e, op);
  bool ok = !mlirOperationIsNull(func) && export_func(&e, func);
  free(e.ops);
  free(e.folded);
  free(e.names);
  fuser_ptr_map_free(&e.op_at);
  fuser_ptr_map_free(&e.value_name);
  fuser_name_map_free(&e.name_at);
  if (!ok || e.failed) {
    free(e.out.buf);
    return NULL;
  }
  return e.out.buf;
}
