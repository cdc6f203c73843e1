/* _C.c: fuser's Python binding, fuser._C, a CPython extension on the
 * limited API (one build for Python >= 3.11) over libfuser's public API
 * (libfuser/definition.h, libfuser/fuser.h).
 *
 * fuser.FusionDefinition records what a script calls (define_tensor,
 * fd.ops.*, add_output) straight into fuser IR through
 * fuser_definition_call: each call's Python arguments become a
 * fuser_def_arg tree, located at the calling script's file and line, and
 * the frontend binds and checks them by nvFuser's rules. Nothing is printed
 * as Python and read back. fd.execute(inputs) takes any DLPack tensors
 * (torch, NumPy, ...): CPU tensors run on the library's CPU path, CUDA
 * tensors in place through a libfuser fusion that compiles on first use per
 * input signature and is shared by every FusionDefinition with the same
 * IR (nvFuser's FusionCache). Outputs come back as the inputs' framework's
 * tensors through DLPack, bf16 included. docs/python.md is the user's
 * guide. */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlpack/dlpack.h>

#include "fuser/definition.h"

/* ---- module state ------------------------------------------------------- */

static PyObject *FuserError;     /* fuser.FuserError(RuntimeError) */
static PyTypeObject *DataTypeT;  /* fuser.DataType */
static PyTypeObject *FDT;        /* fuser.FusionDefinition */
static PyTypeObject *TensorT, *ScalarT, *VectorT;
static PyTypeObject *OpsT, *OpT; /* fd.ops and one fd.ops.<name> */
static PyTypeObject *HolderT;    /* a DLPack capsule with __dlpack__, for from_dlpack consumers */

/* The names nvFuser's DataType has; the frontend says which fuser supports. */
static const char *const dtype_names[] = {"Double", "Float", "Half", "BFloat16", "Int", "Int32", "Bool", "Null",
                                          "UInt64", "Index", "Float8_e4m3fn", "Float8_e5m2", "Float8_e8m0fnu",
                                          "Float4_e2m1fn", "Float4_e2m1fn_x2", "ComplexFloat", "ComplexDouble"};
/* FUSER_TYPE_* of the supported ones, by position above (0: none). */
static const int dtype_codes[] = {FUSER_TYPE_F64, FUSER_TYPE_F32, FUSER_TYPE_F16, FUSER_TYPE_BF16, FUSER_TYPE_I64,
                                  FUSER_TYPE_I32, FUSER_TYPE_BOOL};
#define NDTYPES (sizeof dtype_names / sizeof *dtype_names)
static PyObject *dtype_objs[NDTYPES];

typedef struct {
  PyObject_HEAD
  const char *name;
  int code;
} DataTypeObj;

/* A type's name for messages (limited API: no tp_name). */
static const char *type_name(PyObject *o) {
  static char buf[128];
  PyObject *n = PyType_GetName(Py_TYPE(o));
  const char *s = n ? PyUnicode_AsUTF8AndSize(n, NULL) : NULL;
  snprintf(buf, sizeof buf, "%s", s ? s : "?");
  if (!s) PyErr_Clear();
  Py_XDECREF(n);
  return buf;
}

static PyObject *raise_fuser(const fuser_error *err) {
  PyErr_SetString(FuserError, err->message[0] ? err->message : fuser_status_name(err->code));
  return NULL;
}

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
static PyType_Spec dtype_spec = {"fuser.DataType", sizeof(DataTypeObj), 0, Py_TPFLAGS_DEFAULT, dtype_slots};

/* ---- values: Tensor, Scalar, Vector --------------------------------------- */

typedef struct FDObj FDObj;

typedef struct {
  PyObject_HEAD
  FDObj *fd;
  int64_t id;
} ValueObj;

/* Process-wide cache of libfuser fusions: one per definition IR, device and
 * allocator (nvFuser's FusionCache; entries live as long as the process). */
typedef struct cache_entry {
  struct cache_entry *next;
  uint64_t hash;
  char *ir;
  int device, allocator;
  fuser_fusion *fusion;
} cache_entry;

#define MAX_DEVICES 16
struct FDObj {
  PyObject_HEAD
  PyObject *dict; /* subclasses' attributes */
  fuser_definition *def;
  int state;      /* 0 new, 1 recording, 2 finished, 3 failed */
  char *ir;       /* after finish, for cache lookups */
  cache_entry *fusion[MAX_DEVICES + 1][2]; /* [device][allocator]; [MAX_DEVICES][0]: the CPU */
  size_t ninputs;
  fuser_def_value_info *inputs; /* what each input takes, for nvFuser's checks */
};

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
static PyObject *record(FDObj *fd, const char *method, PyObject *args, PyObject *kwargs);

static PyObject *value_binary(const char *op, PyObject *a, PyObject *b) {
  FDObj *fd = is_value_obj(a) ? ((ValueObj *)a)->fd : is_value_obj(b) ? ((ValueObj *)b)->fd : NULL;
  if (!fd) Py_RETURN_NOTIMPLEMENTED;
  PyObject *args = PyTuple_Pack(2, a, b);
  PyObject *r = args ? record(fd, op, args, NULL) : NULL;
  Py_XDECREF(args);
  return r;
}

static PyObject *value_unary(const char *op, PyObject *a) {
  PyObject *args = PyTuple_Pack(1, a);
  PyObject *r = args ? record(((ValueObj *)a)->fd, op, args, NULL) : NULL;
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
static PyType_Spec tensor_spec = {"fuser.Tensor", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};
static PyType_Spec scalar_spec = {"fuser.Scalar", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};
static PyType_Spec vector_spec = {"fuser.Vector", sizeof(ValueObj), 0, Py_TPFLAGS_DEFAULT, value_slots};

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
               what, type_name(o));
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

static PyObject *record(FDObj *fd, const char *method, PyObject *args, PyObject *kwargs) {
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
    raise_fuser(&err);
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
} OpsObj;

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
static PyType_Spec ops_spec = {"fuser.Operators", sizeof(OpsObj), 0, Py_TPFLAGS_DEFAULT, ops_slots};

static PyObject *op_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  OpObj *op = (OpObj *)self;
  return record(op->fd, op->method, args, kwargs);
}

static PyObject *op_repr(PyObject *self) { return PyUnicode_FromFormat("<fd.%s>", ((OpObj *)self)->method); }

static PyType_Slot op_slots[] = {{Py_tp_dealloc, ops_dealloc}, {Py_tp_call, op_call}, {Py_tp_repr, op_repr}, {0, NULL}};
static PyType_Spec op_spec = {"fuser.Operator", sizeof(OpObj), 0, Py_TPFLAGS_DEFAULT, op_slots};

/* ---- DLPack in and out ------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *capsule;
  int device_type, device_id;
} HolderObj;

static void holder_dealloc(PyObject *self) {
  PyTypeObject *t = Py_TYPE(self);
  Py_XDECREF(((HolderObj *)self)->capsule);
  PyObject_Free(self);
  Py_DECREF(t);
}

static PyObject *holder_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
  HolderObj *h = (HolderObj *)self;
  if (!h->capsule) return PyErr_Format(PyExc_BufferError, "this fuser output was already consumed"), NULL;
  PyObject *c = h->capsule;
  h->capsule = NULL;
  return c;
}

static PyObject *holder_device(PyObject *self, PyObject *unused) {
  HolderObj *h = (HolderObj *)self;
  return Py_BuildValue("(ii)", h->device_type, h->device_id);
}

static PyMethodDef holder_methods[] = {{"__dlpack__", (PyCFunction)(void (*)(void))holder_dlpack, METH_VARARGS | METH_KEYWORDS, NULL},
                                       {"__dlpack_device__", holder_device, METH_NOARGS, NULL},
                                       {NULL}};
static PyType_Slot holder_slots[] = {{Py_tp_dealloc, holder_dealloc}, {Py_tp_methods, holder_methods},
                                     {Py_tp_doc, "a fuser output for any DLPack consumer (from_dlpack)"}, {0, NULL}};
static PyType_Spec holder_spec = {"fuser.DLPackTensor", sizeof(HolderObj), 0, Py_TPFLAGS_DEFAULT, holder_slots};

static void capsule_destructor(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, "dltensor")) return; /* consumed: the consumer deletes it */
  DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
  if (m && m->deleter) m->deleter(m);
}

static PyObject *capsule_of(DLManagedTensor *m) {
  PyObject *c = PyCapsule_New(m, "dltensor", capsule_destructor);
  if (!c && m->deleter) m->deleter(m);
  return c;
}

/* What the caller's tensors are, to give outputs back in kind. */
typedef enum { FW_NONE, FW_TORCH, FW_NUMPY, FW_OTHER } framework;

typedef struct {
  PyObject *torch;          /* the torch module once imported by the caller */
  PyObject *torch_tensor;   /* torch.Tensor */
  PyObject *torch_to_dlpack, *torch_from_dlpack, *torch_bool, *torch_uint8;
} torch_api;
static torch_api T;

/* torch's C-level DLPack entry points, found once torch is imported (we
 * never import it ourselves). */
static bool have_torch(void) {
  if (T.torch) return true;
  PyObject *mods = PyImport_GetModuleDict();
  PyObject *torch = mods ? PyDict_GetItemString(mods, "torch") : NULL;
  if (!torch) return false;
  PyObject *C = PyObject_GetAttrString(torch, "_C");
  T.torch_tensor = PyObject_GetAttrString(torch, "Tensor");
  T.torch_to_dlpack = C ? PyObject_GetAttrString(C, "_to_dlpack") : NULL;
  T.torch_from_dlpack = C ? PyObject_GetAttrString(C, "_from_dlpack") : NULL;
  T.torch_bool = PyObject_GetAttrString(torch, "bool");
  T.torch_uint8 = PyObject_GetAttrString(torch, "uint8");
  Py_XDECREF(C);
  if (!T.torch_tensor || !T.torch_to_dlpack || !T.torch_from_dlpack || !T.torch_bool || !T.torch_uint8) {
    PyErr_Clear();
    Py_CLEAR(T.torch_tensor);
    Py_CLEAR(T.torch_to_dlpack);
    Py_CLEAR(T.torch_from_dlpack);
    Py_CLEAR(T.torch_bool);
    Py_CLEAR(T.torch_uint8);
    return false;
  }
  T.torch = Py_NewRef(torch);
  return true;
}

static bool is_torch_tensor(PyObject *o) {
  return have_torch() && PyObject_IsInstance(o, T.torch_tensor) == 1;
}

/* One input tensor taken through DLPack: the capsule (kept until the call
 * is over) and our copy of its DLTensor (bool relabelled where torch
 * exported it as uint8). */
typedef struct {
  PyObject *capsule;
  DLTensor t;
} taken;

/* x.__dlpack__(stream=...) or, for torch tensors on the consumer's own
 * stream, torch's C entry point (same capsule, without the Python-level
 * wrapper's cost). torch 1.x cannot export bool: it goes as uint8 and is
 * relabelled. */
static int take_tensor(PyObject *x, size_t i, PyObject *stream, taken *out) {
  out->capsule = NULL;
  bool torch = is_torch_tensor(x), as_bool = false;
  PyObject *src = Py_NewRef(x);
  if (torch) {
    PyObject *dt = PyObject_GetAttrString(x, "dtype");
    as_bool = dt == T.torch_bool;
    Py_XDECREF(dt);
    if (as_bool) {
      Py_DECREF(src);
      src = PyObject_CallMethod(x, "view", "O", T.torch_uint8);
      if (!src) return -1;
    }
  }
  if (torch && !stream) {
    out->capsule = PyObject_CallFunctionObjArgs(T.torch_to_dlpack, src, NULL);
  } else {
    PyObject *m = PyObject_GetAttrString(src, "__dlpack__");
    if (m) {
      PyObject *args = PyTuple_New(0), *kw = stream ? Py_BuildValue("{sO}", "stream", stream) : NULL;
      out->capsule = args && (kw || !stream) ? PyObject_Call(m, args, kw) : NULL;
      Py_XDECREF(args);
      Py_XDECREF(kw);
      Py_DECREF(m);
    }
  }
  Py_DECREF(src);
  if (!out->capsule) return -1;
  /* a DLPack 0.x capsule, or a 1.x one from a producer that gives those */
  if (PyCapsule_IsValid(out->capsule, "dltensor")) {
    out->t = ((DLManagedTensor *)PyCapsule_GetPointer(out->capsule, "dltensor"))->dl_tensor;
  } else if (PyCapsule_IsValid(out->capsule, "dltensor_versioned")) {
    out->t = ((DLManagedTensorVersioned *)PyCapsule_GetPointer(out->capsule, "dltensor_versioned"))->dl_tensor;
  } else {
    PyErr_Format(PyExc_TypeError, "fd.execute input %zu: __dlpack__ did not give a 'dltensor' capsule", i);
    Py_CLEAR(out->capsule);
    return -1;
  }
  if (as_bool) out->t.dtype = (DLDataType){6 /* kDLBool */, 8, 1};
  return 0;
}

/* An output (which we own) as the caller's kind of tensor. */
static PyObject *give_tensor(DLManagedTensor *m, framework fw, PyObject *from_dlpack) {
  bool is_bool = m->dl_tensor.dtype.code == 6;
  if (fw == FW_TORCH && is_bool) m->dl_tensor.dtype = (DLDataType){kDLUInt, 8, 1}; /* viewed back as bool below */
  int dev_type = m->dl_tensor.device.device_type, dev_id = m->dl_tensor.device.device_id;
  PyObject *cap = capsule_of(m);
  if (!cap) return NULL;
  if (fw == FW_TORCH) {
    PyObject *t = PyObject_CallFunctionObjArgs(T.torch_from_dlpack, cap, NULL);
    Py_DECREF(cap);
    if (t && is_bool) {
      PyObject *b = PyObject_CallMethod(t, "view", "O", T.torch_bool);
      Py_DECREF(t);
      t = b;
    }
    return t;
  }
  HolderObj *h = PyObject_New(HolderObj, HolderT);
  if (!h) return Py_DECREF(cap), NULL;
  h->capsule = cap;
  h->device_type = dev_type;
  h->device_id = dev_id;
  if (!from_dlpack) return (PyObject *)h;
  PyObject *r = PyObject_CallFunctionObjArgs(from_dlpack, (PyObject *)h, NULL);
  Py_DECREF(h);
  return r;
}

/* ---- the GPU path ---------------------------------------------------------- */

/* Output memory from torch's caching allocator when the caller uses torch
 * (allocator 1), else cuMemAllocAsync (allocator 0; also with
 * fuser._C._set_allocator("runtime")). torch's C entry points
 * (raw_alloc on the current device, raw_delete) when they exist and the
 * device is current, else torch.cuda.caching_allocator_alloc/_delete. */
typedef struct {
  PyObject *alloc, *free;             /* torch.cuda.caching_allocator_alloc / _delete */
  PyObject *raw_alloc, *raw_free, *get_device; /* torch._C._cuda_cudaCachingAllocator_raw_alloc, ... */
  int device;
} torch_alloc_ctx;

static int torch_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  torch_alloc_ctx *c = ctx;
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *r = NULL, *dev = c->raw_alloc && c->get_device ? PyObject_CallNoArgs(c->get_device) : NULL;
  if (dev && PyLong_Check(dev) && PyLong_AsLong(dev) == c->device)
    r = PyObject_CallFunction(c->raw_alloc, "nK", (Py_ssize_t)bytes, (unsigned long long)(uintptr_t)stream);
  else
    r = PyObject_CallFunction(c->alloc, "niK", (Py_ssize_t)bytes, c->device, (unsigned long long)(uintptr_t)stream);
  Py_XDECREF(dev);
  int rc = 1;
  if (r) {
    *ptr = (void *)(uintptr_t)PyLong_AsUnsignedLongLong(r);
    rc = PyErr_Occurred() ? 1 : 0;
    Py_DECREF(r);
  }
  if (rc) PyErr_Clear();
  PyGILState_Release(g);
  return rc;
}

static void torch_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  torch_alloc_ctx *c = ctx;
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *r = PyObject_CallFunction(c->raw_free ? c->raw_free : c->free, "K", (unsigned long long)(uintptr_t)ptr);
  if (!r) PyErr_Clear();
  Py_XDECREF(r);
  PyGILState_Release(g);
}

static bool runtime_allocator_only; /* _set_allocator("runtime") */

static fuser_runtime *runtimes[MAX_DEVICES][2];
static torch_alloc_ctx alloc_ctx[MAX_DEVICES];

static fuser_runtime *runtime_for(int device, int allocator, fuser_error *err) {
  if (runtimes[device][allocator]) return runtimes[device][allocator];
  fuser_allocator a = {0}, *ap = NULL;
  if (allocator == 1) {
    PyObject *cuda = PyObject_GetAttrString(T.torch, "cuda");
    alloc_ctx[device].alloc = cuda ? PyObject_GetAttrString(cuda, "caching_allocator_alloc") : NULL;
    alloc_ctx[device].free = cuda ? PyObject_GetAttrString(cuda, "caching_allocator_delete") : NULL;
    alloc_ctx[device].device = device;
    PyObject *C = PyObject_GetAttrString(T.torch, "_C");
    alloc_ctx[device].raw_alloc = C ? PyObject_GetAttrString(C, "_cuda_cudaCachingAllocator_raw_alloc") : NULL;
    alloc_ctx[device].raw_free = C ? PyObject_GetAttrString(C, "_cuda_cudaCachingAllocator_raw_delete") : NULL;
    alloc_ctx[device].get_device = C ? PyObject_GetAttrString(C, "_cuda_getDevice") : NULL;
    if (!alloc_ctx[device].raw_alloc || !alloc_ctx[device].raw_free || !alloc_ctx[device].get_device) {
      Py_CLEAR(alloc_ctx[device].raw_alloc); /* all three or none */
      Py_CLEAR(alloc_ctx[device].raw_free);
      Py_CLEAR(alloc_ctx[device].get_device);
    }
    PyErr_Clear();
    Py_XDECREF(C);
    Py_XDECREF(cuda);
    if (!alloc_ctx[device].alloc || !alloc_ctx[device].free) {
      PyErr_Clear();
      snprintf(err->message, sizeof err->message, "torch.cuda has no caching_allocator_alloc/_delete");
      err->code = FUSER_ERR_INVALID_ARGUMENT;
      return NULL;
    }
    a = (fuser_allocator){&alloc_ctx[device], torch_alloc, torch_free};
    ap = &a;
  }
  if (fuser_runtime_create(device, NULL, ap, &runtimes[device][allocator], err) != FUSER_OK) return NULL;
  return runtimes[device][allocator];
}

static cache_entry *cache_head;

static cache_entry *fusion_for(FDObj *fd, int device, int allocator, fuser_error *err) {
  cache_entry *e = fd->fusion[device][allocator];
  if (e) return e;
  uint64_t h = fuser_definition_hash(fd->def);
  for (e = cache_head; e; e = e->next)
    if (e->hash == h && e->device == device && e->allocator == allocator && strcmp(e->ir, fd->ir) == 0)
      return fd->fusion[device][allocator] = e;
  fuser_runtime *rt = NULL; /* the CPU: a fusion without a runtime */
  if (device < MAX_DEVICES && !(rt = runtime_for(device, allocator, err))) return NULL;
  e = calloc(1, sizeof *e);
  if (!e) return NULL;
  fuser_fusion_options o = {0};
  const char *backend = getenv("FUSER_CPU_BACKEND"); /* "jit": the compiled loops; default the reference */
  o.cpu_backend = backend && !strcmp(backend, "jit") ? FUSER_BACKEND_CPU_JIT : FUSER_BACKEND_CPU_REFERENCE;
  if (fuser_fusion_create_definition(rt, fd->def, &o, &e->fusion, err) != FUSER_OK) {
    free(e);
    return NULL;
  }
  e->hash = h;
  e->ir = strdup(fd->ir);
  e->device = device;
  e->allocator = allocator;
  e->next = cache_head;
  cache_head = e;
  return fd->fusion[device][allocator] = e;
}

/* An output for DLPack consumers that predate DLPack 1.0 (torch 1.x, NumPy
 * 1.x): a DLManagedTensor around libfuser's DLManagedTensorVersioned,
 * which frees the memory through whoever allocated it. An output that
 * aliases an input keeps that input alive. */
typedef struct {
  DLManagedTensor m;
  DLManagedTensorVersioned *v;
  PyObject *keep;
} legacy_output;

static void legacy_delete(DLManagedTensor *m) {
  legacy_output *g = m->manager_ctx;
  if (g->v && g->v->deleter) g->v->deleter(g->v);
  if (g->keep) {
    PyGILState_STATE s = PyGILState_Ensure();
    Py_DECREF(g->keep);
    PyGILState_Release(s);
  }
  free(g);
}

static DLManagedTensor *legacy_of(fuser_runtime *rt, fuser_output *out, PyObject *input, fuser_error *err) {
  legacy_output *g = calloc(1, sizeof *g);
  if (!g) {
    fuser_output_release(rt, out);
    return PyErr_NoMemory(), NULL;
  }
  if (fuser_output_to_managed(rt, out, &g->v, err) != FUSER_OK) {
    fuser_output_release(rt, out);
    free(g);
    return raise_fuser(err), NULL;
  }
  if (input) g->keep = Py_NewRef(input);
  g->m.dl_tensor = g->v->dl_tensor;
  g->m.manager_ctx = g;
  g->m.deleter = legacy_delete;
  return &g->m;
}

/* The consumer stream: the `stream` argument (an int CUstream or an object
 * with .cuda_stream), else torch's current stream on the device. */
static int stream_of(PyObject *stream, framework fw, int device, void **out) {
  *out = NULL;
  PyObject *s = NULL;
  if (stream && stream != Py_None) {
    s = PyLong_Check(stream) ? Py_NewRef(stream) : PyObject_GetAttrString(stream, "cuda_stream");
  } else if (fw == FW_TORCH) {
    /* torch._C._cuda_getCurrentRawStream(device): the CUstream as an int,
     * without making a torch.cuda.Stream (torch.cuda.current_stream) */
    static PyObject *raw;
    if (!raw) {
      PyObject *C = PyObject_GetAttrString(T.torch, "_C");
      raw = C ? PyObject_GetAttrString(C, "_cuda_getCurrentRawStream") : NULL;
      Py_XDECREF(C);
      PyErr_Clear();
    }
    if (raw) {
      s = PyObject_CallFunction(raw, "i", device);
    } else {
      PyObject *cuda = PyObject_GetAttrString(T.torch, "cuda");
      PyObject *cur = cuda ? PyObject_CallMethod(cuda, "current_stream", "i", device) : NULL;
      Py_XDECREF(cuda);
      s = cur ? PyObject_GetAttrString(cur, "cuda_stream") : NULL;
      Py_XDECREF(cur);
    }
  } else {
    return 0;
  }
  if (!s) return -1;
  *out = (void *)(uintptr_t)PyLong_AsUnsignedLongLong(s);
  Py_DECREF(s);
  return PyErr_Occurred() ? -1 : 0;
}

/* ---- FusionDefinition ----------------------------------------------------- */

static PyObject *fd_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  FDObj *fd = (FDObj *)alloc(type, 0);
  if (!fd) return NULL;
  fd->state = 0;
  return (PyObject *)fd;
}

static int fd_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  return 0; /* nvFuser's FusionDefinition(id=None, max_length=...) arguments are accepted and unused */
}

static void fd_dealloc(PyObject *self) {
  FDObj *fd = (FDObj *)self;
  PyTypeObject *t = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  Py_CLEAR(fd->dict);
  fuser_definition_destroy(fd->def); /* cached fusions keep their own clone */
  free(fd->ir);
  free(fd->inputs);
  freefunc f = (freefunc)PyType_GetSlot(t, Py_tp_free);
  f(self);
  Py_DECREF(t);
}

static int fd_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((FDObj *)self)->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int fd_clear(PyObject *self) {
  Py_CLEAR(((FDObj *)self)->dict);
  return 0;
}

static PyObject *fd_enter(PyObject *self, PyObject *unused) {
  FDObj *fd = (FDObj *)self;
  if (fd->state != 0) return PyErr_Format(FuserError, "this FusionDefinition was defined already; make a new one"), NULL;
  fuser_error err;
  PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "__name__");
  const char *n = name ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
  if (!n) PyErr_Clear();
  int rc = fuser_definition_create(n && strcmp(n, "FusionDefinition") ? n : "fusion", &fd->def, &err);
  Py_XDECREF(name);
  if (rc != FUSER_OK) return raise_fuser(&err);
  fd->state = 1;
  return Py_NewRef(self);
}

static int fd_finish(FDObj *fd) {
  fuser_error err;
  if (fuser_definition_finish(fd->def, &err) != FUSER_OK) {
    fd->state = 3;
    raise_fuser(&err);
    return -1;
  }
  fd->ir = fuser_definition_ir(fd->def, 0);
  fd->ninputs = fuser_definition_num_inputs(fd->def);
  fd->inputs = calloc(fd->ninputs + 1, sizeof *fd->inputs);
  if (!fd->ir || !fd->inputs) return PyErr_NoMemory(), -1;
  for (size_t i = 0; i < fd->ninputs; i++) fuser_definition_input(fd->def, i, &fd->inputs[i]);
  fd->state = 2;
  return 0;
}

static PyObject *fd_exit(PyObject *self, PyObject *args) {
  FDObj *fd = (FDObj *)self;
  PyObject *type = PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : Py_None;
  if (type != Py_None) { /* the body raised: the definition is unusable, the exception goes on */
    if (fd->state == 1) fd->state = 3;
    Py_RETURN_FALSE;
  }
  if (fd->state != 1) Py_RETURN_FALSE;
  if (fd_finish(fd)) return NULL;
  Py_RETURN_FALSE;
}

#define RECORDER(fn, method)                                                     \
  static PyObject *fn(PyObject *self, PyObject *args, PyObject *kwargs) {       \
    return record((FDObj *)self, method, args, kwargs);                        \
  }
RECORDER(fd_define_tensor, "define_tensor")
RECORDER(fd_define_scalar, "define_scalar")
RECORDER(fd_define_constant, "define_constant")
RECORDER(fd_define_vector, "define_vector")
RECORDER(fd_add_output, "add_output")

static PyObject *fd_get_ops(PyObject *self, void *c) {
  OpsObj *o = PyObject_New(OpsObj, OpsT);
  if (!o) return NULL;
  o->fd = (FDObj *)Py_NewRef(self);
  return (PyObject *)o;
}

/* A subclass with definition(self) (nvFuser's other style) is defined on
 * first use. */
static int define_if_needed(FDObj *fd) {
  if (fd->state == 2) return 0;
  if (fd->state == 3) return PyErr_Format(FuserError, "the FusionDefinition failed to define; make a new one"), -1;
  if (fd->state == 1) return PyErr_Format(FuserError, "fd.execute inside the 'with FusionDefinition()' block"), -1;
  PyObject *def = PyObject_GetAttrString((PyObject *)fd, "definition");
  if (!def) {
    PyErr_Clear();
    return PyErr_Format(FuserError, "fd.execute before the definition: record it in 'with FusionDefinition() as fd:' "
                                    "or give the subclass a definition(self) method"),
           -1;
  }
  PyObject *e = fd_enter((PyObject *)fd, NULL);
  PyObject *r = e ? PyObject_CallNoArgs(def) : NULL;
  Py_XDECREF(e);
  Py_DECREF(def);
  if (!r) {
    if (fd->state == 1) fd->state = 3;
    return -1;
  }
  Py_DECREF(r);
  return fd_finish(fd);
}

static framework framework_of(PyObject *x, PyObject **from_dlpack) {
  *from_dlpack = NULL;
  if (is_torch_tensor(x)) return FW_TORCH;
  PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(x), "__module__");
  const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8AndSize(mod, NULL) : NULL;
  framework fw = FW_OTHER;
  if (m) {
    char root[64];
    size_t n = strcspn(m, ".");
    snprintf(root, sizeof root, "%.*s", (int)(n < 63 ? n : 63), m);
    if (!strcmp(root, "numpy")) fw = FW_NUMPY;
    PyObject *mods = PyImport_GetModuleDict();
    PyObject *pkg = mods ? PyDict_GetItemString(mods, root) : NULL; /* borrowed */
    if (pkg) *from_dlpack = PyObject_GetAttrString(pkg, "from_dlpack");
  }
  if (!*from_dlpack) PyErr_Clear();
  Py_XDECREF(mod);
  return fw;
}

/* Writes an aliased output into its input (nvFuser updates it in place). */
static int write_alias(PyObject *input, PyObject *value) {
  PyObject *r = NULL;
  if (PyObject_HasAttrString(input, "copy_")) {
    r = PyObject_CallMethod(input, "copy_", "O", value);
  } else {
    PyObject *np = PyImport_ImportModule("numpy");
    r = np ? PyObject_CallMethod(np, "copyto", "OO", input, value) : NULL;
    Py_XDECREF(np);
  }
  Py_XDECREF(r);
  return r ? 0 : -1;
}

/* Where fd.execute's time goes (fuser.bench): with timing on, each phase
 * adds its nanoseconds; off, a mark is one predictable branch. */
enum { P_ARGS, P_DEVICE, P_INPUTS, P_CHECK, P_EXEC, P_OUTPUTS, P_COUNT };
static const char *const phase_names[P_COUNT] = {"arguments", "device_and_stream", "dlpack_inputs", "checks",
                                                 "libfuser_execute", "outputs"};
static bool timing;
static uint64_t phase_ns[P_COUNT], timed_calls;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define MARK(p)                                   \
  do {                                            \
    if (timing) {                                 \
      uint64_t t_ = now_ns();                     \
      phase_ns[p] += t_ - mark_;                  \
      mark_ = t_;                                 \
    }                                             \
  } while (0)

static PyObject *fd_execute(PyObject *self, PyObject *args, PyObject *kwargs) {
  uint64_t mark_ = timing ? now_ns() : 0;
  FDObj *fd = (FDObj *)self;
  static char *kwlist[] = {"inputs", "device", "stream", "cpu_backend", "override_user_schedule", "capture_debug_output",
                           "print_repro", "profile", "save_repro_inputs", "_enable_options", "_disable_options", NULL};
  PyObject *inputs, *device = Py_None, *stream = Py_None, *o1, *o2, *o3, *o4, *o5, *o6, *o7;
  const char *backend_name = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$OzOOOOOOO", kwlist, &inputs, &device, &stream, &backend_name, &o1,
                                   &o2, &o3, &o4, &o5, &o6, &o7))
    return NULL;
  int cpu_backend = FUSER_BACKEND_AUTO; /* FUSER_CPU_BACKEND's choice */
  if (backend_name && !strcmp(backend_name, "reference")) cpu_backend = FUSER_BACKEND_CPU_REFERENCE;
  else if (backend_name && !strcmp(backend_name, "jit")) cpu_backend = FUSER_BACKEND_CPU_JIT;
  else if (backend_name)
    return PyErr_Format(PyExc_ValueError, "fd.execute: cpu_backend=%s (expected 'reference' or 'jit')", backend_name), NULL;
  if (define_if_needed(fd)) return NULL;
  if (!PyList_Check(inputs) && !PyTuple_Check(inputs))
    return PyErr_Format(PyExc_TypeError, "fd.execute: inputs must be a list or tuple, not '%s'", type_name(inputs)), NULL;
  size_t n = (size_t)PySequence_Size(inputs), nin = fuser_definition_num_inputs(fd->def),
         nout = fuser_definition_num_outputs(fd->def);
  if (n != nin) return PyErr_Format(FuserError, "fd.execute: %zu inputs given, the fusion takes %zu", n, nin), NULL;
  fuser_arg *fargs = calloc(n + 1, sizeof *fargs);
  taken *tk = calloc(n + 1, sizeof *tk);
  DLManagedTensor **outs = calloc(nout + 1, sizeof *outs);
  fuser_output *gouts = NULL;
  PyObject *result = NULL, *from_dlpack = NULL, *items = PySequence_Tuple(inputs);
  framework fw = FW_NONE;
  int dev_type = 0, dev_id = 0;
  void *cuda_stream = NULL;
  PyObject *stream_arg = NULL;
  if (!fargs || !tk || !outs || !items) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    goto done;
  }
  MARK(P_ARGS);
  /* the device: the first tensor's, or the device= argument */
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyTuple_GetItem(items, (Py_ssize_t)i);
    if (PyBool_Check(x) || PyLong_Check(x) || PyFloat_Check(x) || !PyObject_HasAttrString(x, "__dlpack__")) continue;
    fw = framework_of(x, &from_dlpack);
    if (fw == FW_TORCH) { /* Tensor.get_device() is C; torch's __dlpack_device__ is Python */
      PyObject *g = PyObject_CallMethod(x, "get_device", NULL);
      long ordinal = g ? PyLong_AsLong(g) : -2;
      Py_XDECREF(g);
      if (ordinal < -1 || PyErr_Occurred()) {
        PyErr_Clear();
      } else {
        dev_type = ordinal < 0 ? kDLCPU : kDLCUDA, dev_id = ordinal < 0 ? 0 : (int)ordinal;
        break;
      }
    }
    PyObject *d = PyObject_CallMethod(x, "__dlpack_device__", NULL);
    if (!d || !PyArg_ParseTuple(d, "ii", &dev_type, &dev_id)) {
      Py_XDECREF(d);
      goto done;
    }
    Py_DECREF(d);
    break;
  }
  if (device != Py_None) { /* "cuda:1", "cpu", an int (CUDA ordinal) or an object with .type/.index (torch.device) */
    PyObject *s = PyObject_Str(device);
    const char *str = s ? PyUnicode_AsUTF8AndSize(s, NULL) : NULL;
    int want_type = -1, want_id = 0;
    if (PyLong_Check(device)) want_type = kDLCUDA, want_id = (int)PyLong_AsLong(device);
    else if (str && !strncmp(str, "cuda", 4)) want_type = kDLCUDA, want_id = str[4] == ':' ? atoi(str + 5) : 0;
    else if (str && !strcmp(str, "cpu")) want_type = kDLCPU;
    Py_XDECREF(s);
    if (want_type < 0) {
      PyErr_Format(PyExc_ValueError, "fd.execute: device=%R (expected 'cpu', 'cuda', 'cuda:N' or an ordinal)", device);
      goto done;
    }
    if (dev_type && (dev_type != want_type || dev_id != want_id)) {
      PyErr_Format(FuserError, "fd.execute: device=%R but the inputs are on device type %d:%d", device, dev_type, dev_id);
      goto done;
    }
    dev_type = want_type, dev_id = want_id;
  }
  if (!dev_type) dev_type = kDLCPU; /* scalars only */
  if (dev_type != kDLCPU && dev_type != kDLCUDA) {
    PyErr_Format(FuserError, "fd.execute: inputs on DLPack device type %d (fuser runs CPU and CUDA tensors)", dev_type);
    goto done;
  }
  if (dev_type == kDLCUDA) {
    if (dev_id < 0 || dev_id >= MAX_DEVICES) {
      PyErr_Format(FuserError, "fd.execute: CUDA device %d", dev_id);
      goto done;
    }
    if (stream_of(stream, fw, dev_id, &cuda_stream)) goto done;
    /* the consumer stream protocol: 1 is the legacy default stream */
    if (stream != Py_None || fw != FW_TORCH) stream_arg = PyLong_FromUnsignedLongLong(cuda_stream ? (uintptr_t)cuda_stream : 1);
  }
  MARK(P_DEVICE);
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyTuple_GetItem(items, (Py_ssize_t)i);
    if (PyBool_Check(x) || PyLong_Check(x)) {
      long long v = PyLong_AsLongLong(x);
      if (v == -1 && PyErr_Occurred()) goto done;
      fargs[i] = fuser_arg_int(v);
      continue;
    }
    if (PyFloat_Check(x)) {
      fargs[i] = fuser_arg_double(PyFloat_AsDouble(x));
      continue;
    }
    if (!PyObject_HasAttrString(x, "__dlpack__")) {
      PyErr_Format(PyExc_TypeError, "fd.execute input %zu: expected a tensor (an object with __dlpack__) or a number, got '%s'", i,
                   type_name(x));
      goto done;
    }
    if (!is_torch_tensor(x)) { /* its device before __dlpack__(stream=...), which a CPU producer may refuse */
      PyObject *d = PyObject_CallMethod(x, "__dlpack_device__", NULL);
      int t = 0, id = 0;
      bool ok = d && PyArg_ParseTuple(d, "ii", &t, &id);
      Py_XDECREF(d);
      if (!ok) goto done;
      if (t != dev_type || (dev_type == kDLCUDA && id != dev_id)) {
        PyErr_Format(FuserError, "fd.execute input %zu: on device %d:%d, but the fusion runs on %d:%d (all tensors on one device)",
                     i, t, id, dev_type, dev_id);
        goto done;
      }
    }
    if (take_tensor(x, i, dev_type == kDLCUDA ? stream_arg : NULL, &tk[i])) goto done;
    if ((int)tk[i].t.device.device_type != dev_type || (dev_type == kDLCUDA && tk[i].t.device.device_id != dev_id)) {
      PyErr_Format(FuserError, "fd.execute input %zu: on device %d:%d, but the fusion runs on %d:%d (all tensors on one device)", i,
                   (int)tk[i].t.device.device_type, (int)tk[i].t.device.device_id, dev_type, dev_id);
      goto done;
    }
    fargs[i] = fuser_arg_tensor(&tk[i].t);
  }
  MARK(P_INPUTS);
  /* nvFuser's checks: the kinds, ranks and dtypes the definition says
   * (libfuser itself would specialise to another dtype) */
  for (size_t i = 0; i < n; i++) {
    const fuser_def_value_info *want = &fd->inputs[i];
    bool is_tensor = fargs[i].kind == FUSER_ARG_TENSOR;
    if (want->kind == 1 && !is_tensor) {
      PyErr_Format(FuserError, "fd.execute input %zu: a scalar, but the definition takes a tensor there", i);
      goto done;
    }
    if (want->kind == 2 && is_tensor) {
      PyErr_Format(FuserError, "fd.execute input %zu: a tensor, but the definition takes a scalar there", i);
      goto done;
    }
    if (!is_tensor) continue;
    const DLTensor *t = fargs[i].tensor;
    if (t->ndim != want->rank) {
      PyErr_Format(FuserError, "fd.execute input %zu: rank %d, the definition says rank %d", i, t->ndim, want->rank);
      goto done;
    }
    DLDataType w = fuser_type_to_dlpack(want->dtype);
    if (t->dtype.code != w.code || t->dtype.bits != w.bits || t->dtype.lanes != w.lanes) {
      PyErr_Format(FuserError, "fd.execute input %zu: DLPack dtype (code %d, %d bits), the definition says %s", i,
                   (int)t->dtype.code, (int)t->dtype.bits, fuser_type_name(want->dtype));
      goto done;
    }
  }
  MARK(P_CHECK);
  fuser_error err;
  int slot = dev_type == kDLCPU ? MAX_DEVICES : dev_id, allocator = dev_type == kDLCUDA && fw == FW_TORCH && !runtime_allocator_only ? 1 : 0;
  cache_entry *e = fusion_for(fd, slot, allocator, &err);
  if (!e) {
    if (!PyErr_Occurred()) raise_fuser(&err);
    goto done;
  }
  fuser_runtime *rt = dev_type == kDLCPU ? NULL : runtimes[dev_id][allocator];
  gouts = calloc(nout + 1, sizeof *gouts);
  if (!gouts) {
    PyErr_NoMemory();
    goto done;
  }
  int rc = dev_type == kDLCPU ? fuser_fusion_execute_cpu(e->fusion, cpu_backend, fargs, n, gouts, nout, &err)
                              : fuser_fusion_execute_on(e->fusion, cuda_stream, fargs, n, gouts, nout, &err);
  if (rc != FUSER_OK) {
    raise_fuser(&err);
    goto done;
  }
  for (size_t k = 0; k < nout; k++) {
    int a = gouts[k].alias_of;
    outs[k] = legacy_of(rt, &gouts[k], a >= 0 && (size_t)a < n ? PyTuple_GetItem(items, a) : NULL, &err);
  }
  for (size_t k = 0; k < nout; k++)
    if (!outs[k]) goto done;
  MARK(P_EXEC);
  /* outputs as the caller's tensors; aliased ones written into their input */
  result = PyList_New(0);
  for (size_t k = 0; result && k < nout; k++) {
    PyObject *t = give_tensor(outs[k], fw, from_dlpack);
    outs[k] = NULL;
    int alias = fuser_definition_output_alias(fd->def, k);
    int rc = !t ? -1 : alias >= 0 ? write_alias(PyTuple_GetItem(items, alias), t) : PyList_Append(result, t);
    Py_XDECREF(t);
    if (rc) Py_CLEAR(result);
  }
done:
  for (size_t k = 0; outs && k < nout; k++)
    if (outs[k]) outs[k]->deleter(outs[k]);
  for (size_t i = 0; tk && i < n; i++) Py_XDECREF(tk[i].capsule);
  if (result) {
    MARK(P_OUTPUTS);
    if (timing) timed_calls++;
  }
  free(gouts);
  free(outs);
  free(tk);
  free(fargs);
  Py_XDECREF(items);
  Py_XDECREF(from_dlpack);
  Py_XDECREF(stream_arg);
  return result;
}

static PyObject *fd_ir(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"locations", NULL};
  int loc = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p", kwlist, &loc)) return NULL;
  FDObj *fd = (FDObj *)self;
  if (fd->state != 2) return PyErr_Format(FuserError, "the FusionDefinition is not defined yet"), NULL;
  char *s = fuser_definition_ir(fd->def, loc);
  if (!s) return PyErr_NoMemory();
  PyObject *r = PyUnicode_FromString(s);
  free(s);
  return r;
}

static PyObject *fd_hash(PyObject *self, void *c) {
  FDObj *fd = (FDObj *)self;
  if (fd->state != 2) return PyErr_Format(FuserError, "the FusionDefinition is not defined yet"), NULL;
  return PyLong_FromUnsignedLongLong(fuser_definition_hash(fd->def));
}

/* Cache statistics of the fusion compiled for (device, this caller's
 * allocator): entries, compiles, hits; None before the first CUDA call. */
static PyObject *fd_cache_stats(PyObject *self, PyObject *args) {
  FDObj *fd = (FDObj *)self;
  for (int d = 0; d <= MAX_DEVICES; d++)
    for (int a = 0; a < 2; a++)
      if (fd->fusion[d][a]) {
        fuser_fusion *f = fd->fusion[d][a]->fusion;
        fuser_fusion_stats st;
        fuser_fusion_get_stats(f, &st);
        return Py_BuildValue("{snsKsKsKsK}", "entries", (Py_ssize_t)fuser_fusion_num_entries(f), "compiles",
                             (unsigned long long)st.compiles, "hits", (unsigned long long)st.hits, "disk_hits",
                             (unsigned long long)st.disk_hits, "cpu_runs", (unsigned long long)st.cpu_runs);
      }
  Py_RETURN_NONE;
}

static PyObject *fd_repr(PyObject *self) {
  FDObj *fd = (FDObj *)self;
  if (fd->state != 2) return PyUnicode_FromString("<fuser.FusionDefinition (not defined)>");
  return PyUnicode_FromFormat("<fuser.FusionDefinition %zu inputs, %zu outputs, hash %016llx>",
                              fuser_definition_num_inputs(fd->def), fuser_definition_num_outputs(fd->def),
                              (unsigned long long)fuser_definition_hash(fd->def));
}

#define KW (METH_VARARGS | METH_KEYWORDS)
#define CAST(f) (PyCFunction)(void (*)(void))(f)
static PyMethodDef fd_methods[] = {
    {"__enter__", fd_enter, METH_NOARGS, NULL},
    {"__exit__", fd_exit, METH_VARARGS, NULL},
    {"define_tensor", CAST(fd_define_tensor), KW,
     "define_tensor(shape, contiguity, dtype=DataType.Float, is_cpu=False, stride_order=[]) or "
     "define_tensor(sizes, strides, dtype=DataType.Float, static_sizes=False, is_cpu=False)"},
    {"define_scalar", CAST(fd_define_scalar), KW, "define_scalar(value=None, dtype=None)"},
    {"define_constant", CAST(fd_define_constant), KW, "define_constant(value, dtype=None)"},
    {"define_vector", CAST(fd_define_vector), KW, "define_vector(values, dtype=DataType.Int)"},
    {"add_output", CAST(fd_add_output), KW, "add_output(output, alias_input=None, stride_order=None)"},
    {"execute", CAST(fd_execute), KW, "execute(inputs, *, device=None, stream=None) -> list of tensors"},
    {"ir", CAST(fd_ir), KW, "the fusion in the fuser dialect (text)"},
    {"cache_stats", fd_cache_stats, METH_NOARGS, "the compiled fusion's cache counters"},
    {NULL}};

static PyGetSetDef fd_getset[] = {{"ops", fd_get_ops, NULL, "the ops, fd.ops.<name>", NULL},
                                  {"hash", fd_hash, NULL, "hash of the fusion IR", NULL},
                                  {NULL}};

static PyMemberDef fd_members[] = {{"__dictoffset__", T_PYSSIZET, offsetof(FDObj, dict), READONLY, NULL}, {NULL}};

static PyType_Slot fd_slots[] = {{Py_tp_new, fd_new},          {Py_tp_init, fd_init},       {Py_tp_dealloc, fd_dealloc},
                                 {Py_tp_traverse, fd_traverse}, {Py_tp_clear, fd_clear},     {Py_tp_methods, fd_methods},
                                 {Py_tp_getset, fd_getset},     {Py_tp_members, fd_members}, {Py_tp_repr, fd_repr},
                                 {Py_tp_doc, "nvFuser's FusionDefinition, compiled by fuser"}, {0, NULL}};
static PyType_Spec fd_spec = {"fuser.FusionDefinition", sizeof(FDObj), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, fd_slots};

/* ---- module functions ------------------------------------------------------ */

/* import_script(text, name): the IR and hash the importer makes of an nvFuser
 * repro script, for checking that a run of it recorded the same fusion. */
static PyObject *mod_import_script(PyObject *m, PyObject *args) {
  const char *text, *name;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#s", &text, &len, &name)) return NULL;
  fuser_definition *d;
  fuser_error err;
  if (fuser_definition_import(text, (size_t)len, name, &d, &err) != FUSER_OK) return raise_fuser(&err);
  char *ir = fuser_definition_ir(d, 0);
  PyObject *r = ir ? Py_BuildValue("(sK)", ir, (unsigned long long)fuser_definition_hash(d)) : PyErr_NoMemory();
  free(ir);
  fuser_definition_destroy(d);
  return r;
}

/* _timing(on) -> the phases' nanoseconds per call since the last call
 * (a dict), and turns timing on or off. */
static PyObject *mod_timing(PyObject *m, PyObject *arg) {
  PyObject *d = PyDict_New();
  for (int p = 0; d && p < P_COUNT; p++) {
    PyObject *v = PyFloat_FromDouble(timed_calls ? (double)phase_ns[p] / (double)timed_calls : 0.0);
    if (!v || PyDict_SetItemString(d, phase_names[p], v)) Py_CLEAR(d);
    Py_XDECREF(v);
    phase_ns[p] = 0;
  }
  timed_calls = 0;
  timing = PyObject_IsTrue(arg) == 1;
  return d;
}

/* _c_api_loop(fd, inputs, iterations) -> ns per call of the same cached
 * fusion through the C API alone: the inputs taken through DLPack once,
 * then fuser_fusion_execute_on (or _cpu) + fuser_output_release_on per
 * iteration, on the stream fd.execute would use. The yardstick of the
 * binding's overhead. */
static PyObject *mod_c_api_loop(PyObject *m, PyObject *args) {
  PyObject *fdo, *inputs;
  long iters;
  if (!PyArg_ParseTuple(args, "O!Ol", FDT, &fdo, &inputs, &iters)) return NULL;
  FDObj *fd = (FDObj *)fdo;
  PyObject *warm = PyObject_CallMethod(fdo, "execute", "O", inputs); /* defines, compiles, picks the fusion */
  if (!warm) return NULL;
  Py_DECREF(warm);
  PyObject *items = PySequence_Tuple(inputs);
  if (!items) return NULL;
  size_t n = (size_t)PyTuple_Size(items), nout = fuser_definition_num_outputs(fd->def);
  fuser_arg *fargs = calloc(n + 1, sizeof *fargs);
  taken *tk = calloc(n + 1, sizeof *tk);
  fuser_output *outs = calloc(nout + 1, sizeof *outs);
  PyObject *result = NULL;
  int dev_type = kDLCPU, dev_id = 0;
  if (!fargs || !tk || !outs) {
    PyErr_NoMemory();
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyTuple_GetItem(items, (Py_ssize_t)i);
    if (PyFloat_Check(x)) {
      fargs[i] = fuser_arg_double(PyFloat_AsDouble(x));
    } else if (PyLong_Check(x)) {
      fargs[i] = fuser_arg_int(PyLong_AsLongLong(x));
    } else {
      if (take_tensor(x, i, NULL, &tk[i])) goto done;
      fargs[i] = fuser_arg_tensor(&tk[i].t);
      dev_type = tk[i].t.device.device_type, dev_id = tk[i].t.device.device_id;
    }
  }
  int slot = dev_type == kDLCPU ? MAX_DEVICES : dev_id;
  cache_entry *e = fd->fusion[slot][dev_type == kDLCUDA && is_torch_tensor(PyTuple_GetItem(items, 0)) && !runtime_allocator_only];
  if (!e) {
    PyErr_SetString(FuserError, "no fusion for these inputs");
    goto done;
  }
  fuser_runtime *rt = fuser_fusion_runtime(e->fusion);
  void *stream = NULL;
  if (dev_type == kDLCUDA && stream_of(Py_None, is_torch_tensor(PyTuple_GetItem(items, 0)) ? FW_TORCH : FW_OTHER, dev_id, &stream))
    goto done;
  fuser_error err;
  uint64_t t0 = now_ns();
  for (long it = 0; it < iters; it++) {
    int rc = dev_type == kDLCPU ? fuser_fusion_execute_cpu(e->fusion, FUSER_BACKEND_AUTO, fargs, n, outs, nout, &err)
                                : fuser_fusion_execute_on(e->fusion, stream, fargs, n, outs, nout, &err);
    if (rc != FUSER_OK) {
      raise_fuser(&err);
      goto done;
    }
    for (size_t k = 0; k < nout; k++) fuser_output_release_on(rt, &outs[k], stream);
  }
  result = PyFloat_FromDouble((double)(now_ns() - t0) / (double)(iters > 0 ? iters : 1));
done:
  for (size_t i = 0; tk && i < n; i++) Py_XDECREF(tk[i].capsule);
  free(fargs);
  free(tk);
  free(outs);
  Py_DECREF(items);
  return result;
}

/* _set_allocator("torch" | "runtime"): where CUDA outputs of torch callers
 * come from (the benchmark compares both). */
static PyObject *mod_set_allocator(PyObject *m, PyObject *arg) {
  const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
  if (!s || (strcmp(s, "torch") && strcmp(s, "runtime")))
    return PyErr_Format(PyExc_ValueError, "_set_allocator: 'torch' or 'runtime'"), NULL;
  runtime_allocator_only = strcmp(s, "runtime") == 0;
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_set_allocator", mod_set_allocator, METH_O, "_set_allocator('torch' | 'runtime')"},
    {"import_script", mod_import_script, METH_VARARGS, "import_script(text, name) -> (ir, hash)"},
    {"_timing", mod_timing, METH_O, "_timing(on) -> per-phase ns per fd.execute call since the last _timing"},
    {"_c_api_loop", mod_c_api_loop, METH_VARARGS, "_c_api_loop(fd, inputs, iterations) -> ns per C API call"},
    {NULL}};

static int add_type(PyObject *m, PyType_Spec *spec, PyTypeObject **out, PyObject *base) {
  *out = (PyTypeObject *)PyType_FromSpecWithBases(spec, base);
  if (!*out) return -1;
  const char *dot = strrchr(spec->name, '.');
  return PyModule_AddObjectRef(m, dot ? dot + 1 : spec->name, (PyObject *)*out);
}

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "fuser._C", "fuser's Python binding (docs/python.md)", -1,
                                        module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__C(void) {
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  FuserError = PyErr_NewException("fuser.FuserError", PyExc_RuntimeError, NULL);
  if (!FuserError || PyModule_AddObjectRef(m, "FuserError", FuserError)) goto fail;
  if (add_type(m, &dtype_spec, &DataTypeT, NULL) || add_type(m, &tensor_spec, &TensorT, NULL) ||
      add_type(m, &scalar_spec, &ScalarT, NULL) || add_type(m, &vector_spec, &VectorT, NULL) ||
      add_type(m, &ops_spec, &OpsT, NULL) || add_type(m, &op_spec, &OpT, NULL) ||
      add_type(m, &holder_spec, &HolderT, NULL) || add_type(m, &fd_spec, &FDT, NULL))
    goto fail;
  for (size_t i = 0; i < NDTYPES; i++) {
    DataTypeObj *d = PyObject_New(DataTypeObj, DataTypeT);
    if (!d) goto fail;
    d->name = dtype_names[i];
    d->code = i < sizeof dtype_codes / sizeof *dtype_codes ? dtype_codes[i] : 0;
    dtype_objs[i] = (PyObject *)d;
    if (PyObject_SetAttrString((PyObject *)DataTypeT, dtype_names[i], (PyObject *)d)) goto fail;
  }
  /* DataType(...) makes nothing new: the members are the class attributes */
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
