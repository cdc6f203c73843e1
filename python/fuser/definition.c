/* definition.c: fuser.FusionDefinition (binding.h): `with
 * FusionDefinition() as fd:` records define_tensor/define_scalar/...,
 * fd.ops.* and add_output straight into fuser IR (nothing is printed as
 * Python and read back); a subclass with definition(self) is defined on
 * first use; fd.execute is execute.c's. */
#include "binding.h"

#include <structmember.h>

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
  if (rc != FUSER_OK) return py_raise_fuser(&err);
  fd->state = 1;
  return Py_NewRef(self);
}

static int fd_finish(FDObj *fd) {
  fuser_error err;
  if (fuser_definition_finish(fd->def, &err) != FUSER_OK) {
    fd->state = 3;
    py_raise_fuser(&err);
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
    return py_record((FDObj *)self, method, args, kwargs);                        \
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
int py_define_if_needed(FDObj *fd) {
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
    for (int a = 0; a < PY_ALLOC_KINDS; a++)
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
    {"execute", CAST(py_fd_execute), METH_FASTCALL | METH_KEYWORDS, "execute(inputs, *, device=None, stream=None) -> list of tensors"},
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
PyType_Spec py_fd_spec = {"fuser.FusionDefinition", sizeof(FDObj), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, fd_slots};

