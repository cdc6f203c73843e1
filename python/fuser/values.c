/* values.c: the values a definition records (binding.h): the DataType
 * enum, fuser.Tensor/Scalar/Vector (with Python arithmetic recording ops),
 * fd.ops.<name>, and recording one call: its Python arguments become a
 * fuser_def_arg tree, located at the calling script's file and line, which
 * the frontend binds and checks by nvFuser's rules. */
#include "binding.h"

#include <stdio.h>

/* ---- DataType ------------------------------------------------------------ */

static PyObject *dtype_repr(PyObject *self) { return PyUnicode_FromFormat("DataType.%s", ((DataTypeObj *)self)->name); }

static PyObject *dtype_for_code(int code) {
  for (size_t i = 0; i < sizeof dtype_codes / sizeof *dtype_codes; i++)
    if (dtype_codes[i] == code) return Py_NewRef(dtype_objs[i]);
  Py_RETURN_NONE;
}

static PyObject *dtype_get_name(PyObject *self, void *c) { return PyUnicode_FromString(((DataTypeObj *)self)->name); }

static PyGetSetDef dtype_getset[] = {{"name", dtype_get_name, NULL, "the DataType's name", NULL}, {NULL}};

static PyType_Slot dtype_slots[] = {{Py_tp_repr, dtype_repr}, {Py_tp_str, dtype_repr}, {Py_tp_getset, dtype_getset},
                                    {Py_tp_doc, "nvFuser's DataType: DataType.Float, DataType.BFloat16, ..."}, {0, NULL}};
PyType_Spec py_dtype_spec = {"fuser.DataType", sizeof(DataTypeObj), 0, Py_TPFLAGS_DEFAULT, dtype_slots};

/* ---- values: Tensor, Scalar, Vector --------------------------------------- */

static bool is_value_obj(PyObject *o) {
  PyTypeObject *t = Py_TYPE(o);
  return t == TensorT || t == ScalarT || t == VectorT;
}

static int value_info(ValueObj *v, fuser_def_value_info *info) {
  if (fuser_definition_value(v->fd->def, v->id, info) != FUSER_OK) {
    PyErr_SetString(FuserError, "the value's definition is gone");
    return -1;
  }
  return 0;
}

static PyObject *value_new(FDObj *fd, int64_t id) {
  fuser_def_value_info info;
  if (fuser_definition_value(fd->def, id, &info) != FUSER_OK) {
    PyErr_SetString(FuserError, "internal error: a result without a value");
    return NULL;
  }
  PyTypeObject *t = info.kind == 1 ? TensorT : info.kind == 3 ? VectorT : ScalarT;
  ValueObj *v = PyObject_New(ValueObj, t);
  if (!v) return NULL;
  v->fd = (FDObj *)Py_NewRef((PyObject *)fd);
  v->id = id;
  return (PyObject *)v;
}

static void value_dealloc(PyObject *self) {
  PyTypeObject *t = Py_TYPE(self);
  Py_XDECREF((PyObject *)((ValueObj *)self)->fd);
  PyObject_Free(self);
  Py_DECREF(t);
}

static PyObject *value_repr(PyObject *self) {
  fuser_def_value_info info;
  if (value_info((ValueObj *)self, &info)) return NULL;
  return PyUnicode_FromString(info.name);
}

static PyObject *value_ndim(PyObject *self, void *c) {
  fuser_def_value_info info;
  if (value_info((ValueObj *)self, &info)) return NULL;
  return PyLong_FromLong(info.rank);
}

static PyObject *value_dtype(PyObject *self, void *c) {
  fuser_def_value_info info;
  if (value_info((ValueObj *)self, &info)) return NULL;
  return dtype_for_code(info.dtype);
}

static PyObject *value_shape(PyObject *self, PyObject *unused) {
  fuser_def_value_info info;
  if (value_info((ValueObj *)self, &info)) return NULL;
  PyObject *l = PyList_New(info.kind == 1 ? info.rank : 0);
  for (int d = 0; l && info.kind == 1 && d < info.rank; d++) PyList_SetItem(l, d, PyLong_FromLongLong(info.shape[d]));
  return l;
}

/* Arithmetic on values records the op, as nvFuser's Tensor/Scalar do:
 * t0 + t1 is fd.ops.add(t0, t1); a Python number on either side is a
 * constant. (record is defined below.) */

static PyObject *value_binary(const char *op, PyObject *a, PyObject *b) {
  FDObj *fd = is_value_obj(a) ? ((ValueObj *)a)->fd : is_value_obj(b) ? ((ValueObj *)b)->fd : NULL;
  if (!fd) Py_RETURN_NOTIMPLEMENTED;
  PyObject *args = PyTuple_Pack(2, a, b);
  PyObject *r = args ? py_record(fd, op, args, NULL) : NULL;
  Py_XDECREF(args);
  return r;
}

static PyObject *value_unary(const char *op, PyObject *a) {
  PyObject *args = PyTuple_Pack(1, a);
  PyObject *r = args ? py_record(((ValueObj *)a)->fd, op, args, NULL) : NULL;
  Py_XDECREF(args);
  return r;
}

static PyObject *value_add(PyObject *a, PyObject *b) { return value_binary("ops.add", a, b); }
static PyObject *value_sub(PyObject *a, PyObject *b) { return value_binary("ops.sub", a, b); }
static PyObject *value_mul(PyObject *a, PyObject *b) { return value_binary("ops.mul", a, b); }
static PyObject *value_div(PyObject *a, PyObject *b) { return value_binary("ops.div", a, b); }
static PyObject *value_mod(PyObject *a, PyObject *b) { return value_binary("ops.fmod", a, b); }
static PyObject *value_pow(PyObject *a, PyObject *b, PyObject *m) {
  if (m != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return value_binary("ops.pow", a, b);
}
static PyObject *value_neg(PyObject *a) { return value_unary("ops.neg", a); }
static PyObject *value_abs(PyObject *a) { return value_unary("ops.abs", a); }

static PyGetSetDef value_getset[] = {{"ndim", value_ndim, NULL, "rank (tensors) or length (vectors)", NULL},
                                     {"dtype", value_dtype, NULL, "the DataType", NULL},
                                     {NULL}};
static PyMethodDef value_methods[] = {{"shape", value_shape, METH_NOARGS, "static extents, -1 where symbolic"}, {NULL}};
static PyType_Slot value_slots[] = {{Py_tp_dealloc, value_dealloc}, {Py_tp_repr, value_repr}, {Py_tp_getset, value_getset},
                                    {Py_tp_methods, value_methods}, {Py_nb_add, value_add}, {Py_nb_subtract, value_sub},
                                    {Py_nb_multiply, value_mul}, {Py_nb_true_divide, value_div},
                                    {Py_nb_remainder, value_mod}, {Py_nb_power, value_pow},
                                    {Py_nb_negative, value_neg}, {Py_nb_absolute, value_abs}, {0, NULL}};
PyType_Spec py_tensor_spec = {"fuser.Tensor", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};
PyType_Spec py_scalar_spec = {"fuser.Scalar", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};
PyType_Spec py_vector_spec = {"fuser.Vector", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};

static bool is_value(PyObject *o) {
  PyTypeObject *t = Py_TYPE(o);
  return t == TensorT || t == ScalarT || t == VectorT;
}

/* ---- Python arguments -> fuser_def_arg ------------------------------------ */

/* Scratch memory of one call, freed at once. */
typedef struct scratch {
  struct scratch *next;
  char data[];
} scratch;

static void *scratch_alloc(scratch **s, size_t size) {
  scratch *b = calloc(1, sizeof *b + size);
  if (!b) return PyErr_NoMemory(), NULL;
  b->next = *s;
  *s = b;
  return b->data;
}

static void scratch_free(scratch *s) {
  while (s) {
    scratch *n = s->next;
    free(s);
    s = n;
  }
}

static int convert(FDObj *fd, PyObject *o, fuser_def_arg *out, scratch **s, int depth, const char *what) {
  memset(out, 0, sizeof *out);
  if (depth > 8) return PyErr_Format(PyExc_TypeError, "%s: lists nested too deeply", what), -1;
  if (o == Py_None) return out->kind = FUSER_DEF_NONE, 0;
  if (PyBool_Check(o)) return out->kind = FUSER_DEF_BOOL, out->i = o == Py_True, 0;
  if (PyLong_Check(o)) {
    out->kind = FUSER_DEF_INT;
    out->i = PyLong_AsLongLong(o);
    return out->i == -1 && PyErr_Occurred() ? -1 : 0;
  }
  if (PyFloat_Check(o)) return out->kind = FUSER_DEF_FLOAT, out->f = PyFloat_AsDouble(o), 0;
  if (PyUnicode_Check(o)) {
    out->kind = FUSER_DEF_STRING;
    out->s = PyUnicode_AsUTF8AndSize(o, NULL);
    return out->s ? 0 : -1;
  }
  if (Py_TYPE(o) == DataTypeT) return out->kind = FUSER_DEF_DTYPE, out->s = ((DataTypeObj *)o)->name, 0;
  if (is_value(o)) {
    if (((ValueObj *)o)->fd != fd)
      return PyErr_Format(PyExc_ValueError, "%s: %R belongs to another FusionDefinition", what, o), -1;
    return out->kind = FUSER_DEF_VALUE, out->i = ((ValueObj *)o)->id, 0;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    out->kind = PyList_Check(o) ? FUSER_DEF_LIST : FUSER_DEF_TUPLE;
    Py_ssize_t n = PySequence_Size(o);
    fuser_def_arg *items = scratch_alloc(s, sizeof *items * (size_t)(n ? n : 1));
    if (!items) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
      PyObject *it = PySequence_GetItem(o, i);
      int rc = it ? convert(fd, it, &items[i], s, depth + 1, what) : -1;
      Py_XDECREF(it);
      if (rc) return -1;
    }
    out->items = items;
    out->n = (size_t)n;
    return 0;
  }
  PyErr_Format(PyExc_TypeError,
               "%s: an argument of type '%s' (expected a Tensor/Scalar/Vector of this definition, a number, a bool, None, "
               "a DataType or a list of them)",
               what, py_type_name(o));
  return -1;
}

/* The calling Python frame's file and line. *keep holds the file's str. */
static const char *caller(int *line, PyObject **keep) {
  *line = 1;
  *keep = NULL;
  PyFrameObject *f = PyEval_GetFrame();
  if (!f) return NULL;
  *line = PyFrame_GetLineNumber(f);
  PyCodeObject *code = PyFrame_GetCode(f);
  if (!code) return PyErr_Clear(), NULL;
  PyObject *file = PyObject_GetAttrString((PyObject *)code, "co_filename");
  Py_DECREF(code);
  if (!file) return PyErr_Clear(), NULL;
  *keep = file;
  const char *s = PyUnicode_AsUTF8AndSize(file, NULL);
  if (!s) PyErr_Clear();
  return s;
}

PyObject *py_record(FDObj *fd, const char *method, PyObject *args, PyObject *kwargs) {
  if (fd->state != 1) {
    PyErr_Format(FuserError, "fd.%s outside the definition: record inside 'with FusionDefinition() as fd:'%s", method,
                 fd->state == 2 ? " (this one is finished)" : fd->state == 3 ? " (this one failed)" : "");
    return NULL;
  }
  char what[80];
  snprintf(what, sizeof what, "fd.%s", method);
  scratch *s = NULL;
  Py_ssize_t npos = args ? PyTuple_Size(args) : 0, nkw = kwargs ? PyDict_Size(kwargs) : 0;
  fuser_def_arg *a = scratch_alloc(&s, sizeof *a * (size_t)(npos + nkw + 1));
  PyObject *result = NULL, *keep = NULL;
  if (!a) goto done;
  for (Py_ssize_t i = 0; i < npos; i++)
    if (convert(fd, PyTuple_GetItem(args, i), &a[i], &s, 0, what)) goto done;
  Py_ssize_t pos = 0, k = npos;
  PyObject *key, *val;
  while (kwargs && PyDict_Next(kwargs, &pos, &key, &val)) {
    if (convert(fd, val, &a[k], &s, 0, what)) goto done;
    if (!(a[k].keyword = PyUnicode_AsUTF8AndSize(key, NULL))) goto done;
    k++;
  }
  int line;
  const char *file = caller(&line, &keep);
  int64_t ids[2];
  size_t n;
  fuser_error err;
  if (fuser_definition_call(fd->def, method, a, (size_t)k, file, line, 1, ids, 2, &n, &err) != FUSER_OK) {
    fd->state = 3;
    py_raise_fuser(&err);
    goto done;
  }
  if (n == 0) {
    result = Py_NewRef(Py_None);
  } else if (n == 1) {
    result = value_new(fd, ids[0]);
  } else {
    PyObject *a0 = value_new(fd, ids[0]), *a1 = a0 ? value_new(fd, ids[1]) : NULL;
    result = a1 ? PyTuple_Pack(2, a0, a1) : NULL;
    Py_XDECREF(a0);
    Py_XDECREF(a1);
  }
done:
  Py_XDECREF(keep);
  scratch_free(s);
  return result;
}

/* ---- fd.ops ------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD
  FDObj *fd;
  char method[56]; /* "ops.<name>" */
} OpObj;

static void ops_dealloc(PyObject *self) {
  PyTypeObject *t = Py_TYPE(self);
  Py_XDECREF((PyObject *)((OpsObj *)self)->fd);
  PyObject_Free(self);
  Py_DECREF(t);
}

static bool known_op(const char *name) {
  for (size_t i = 0; fuser_definition_op_name(i); i++)
    if (strcmp(fuser_definition_op_name(i), name) == 0) return true;
  return false;
}

static PyObject *ops_getattro(PyObject *self, PyObject *name) {
  PyObject *r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  const char *n = PyUnicode_AsUTF8AndSize(name, NULL);
  if (!n || !known_op(n) || strlen(n) > 48) return NULL; /* the AttributeError stands */
  PyErr_Clear();
  OpObj *op = PyObject_New(OpObj, OpT);
  if (!op) return NULL;
  op->fd = (FDObj *)Py_NewRef((PyObject *)((OpsObj *)self)->fd);
  snprintf(op->method, sizeof op->method, "ops.%s", n);
  return (PyObject *)op;
}

static PyObject *ops_dir(PyObject *self, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && fuser_definition_op_name(i); i++) {
    PyObject *s = PyUnicode_FromString(fuser_definition_op_name(i));
    if (!s || PyList_Append(l, s)) Py_CLEAR(l);
    Py_XDECREF(s);
  }
  return l;
}

static PyMethodDef ops_methods[] = {{"__dir__", ops_dir, METH_NOARGS, NULL}, {NULL}};
static PyType_Slot ops_slots[] = {{Py_tp_dealloc, ops_dealloc}, {Py_tp_getattro, ops_getattro}, {Py_tp_methods, ops_methods},
                                  {Py_tp_doc, "fd.ops: the fuser dialect's ops under nvFuser's names"}, {0, NULL}};
PyType_Spec py_ops_spec = {"fuser.Operators", sizeof(OpsObj), 0, Py_TPFLAGS_DEFAULT, ops_slots};

static PyObject *op_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  OpObj *op = (OpObj *)self;
  return py_record(op->fd, op->method, args, kwargs);
}

static PyObject *op_repr(PyObject *self) { return PyUnicode_FromFormat("<fd.%s>", ((OpObj *)self)->method); }

static PyType_Slot op_slots[] = {{Py_tp_dealloc, ops_dealloc}, {Py_tp_call, op_call}, {Py_tp_repr, op_repr}, {0, NULL}};
PyType_Spec py_op_spec = {"fuser.Operator", sizeof(OpObj), 0, Py_TPFLAGS_DEFAULT, op_slots};

