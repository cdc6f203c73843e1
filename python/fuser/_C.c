/* _C.c: fuser's Python binding, fuser._C: the module (its state, its
 * functions, its init). binding.h says which file does what; docs/python.md
 * is the user's guide.
 *
 * fuser.FusionDefinition records what a script calls (define_tensor,
 * fd.ops.*, add_output) straight into fuser IR; fd.execute(inputs) takes
 * any DLPack tensors (torch, NumPy, ...): CPU tensors run on the library's
 * CPU path, CUDA tensors in place through a libfuser fusion that compiles
 * on first use per input signature and is shared by every
 * FusionDefinition with the same IR (nvFuser's FusionCache). Outputs come
 * back as the inputs' framework's tensors, bf16 included. */
#include "binding.h"

#include <stdio.h>

/* ---- module state ------------------------------------------------------- */

PyObject *FuserError;     /* fuser.FuserError(RuntimeError) */
PyTypeObject *DataTypeT;  /* fuser.DataType */
PyTypeObject *FDT;        /* fuser.FusionDefinition */
PyTypeObject *TensorT, *ScalarT, *VectorT;
PyTypeObject *OpsT, *OpT; /* fd.ops and one fd.ops.<name> */
PyTypeObject *HolderT;    /* a DLPack capsule with __dlpack__, for from_dlpack consumers */

/* The names nvFuser's DataType has; the frontend says which fuser supports. */
const char *const dtype_names[NDTYPES] = {"Double", "Float", "Half", "BFloat16", "Int", "Int32", "Bool", "Null",
                                          "UInt64", "Index", "Float8_e4m3fn", "Float8_e5m2", "Float8_e8m0fnu",
                                          "Float4_e2m1fn", "Float4_e2m1fn_x2", "ComplexFloat", "ComplexDouble"};
/* FUSER_TYPE_* of the supported ones, by position above (0: none). */
const int dtype_codes[7] = {FUSER_TYPE_F64, FUSER_TYPE_F32, FUSER_TYPE_F16, FUSER_TYPE_BF16, FUSER_TYPE_I64,
                                  FUSER_TYPE_I32, FUSER_TYPE_BOOL};
PyObject *dtype_objs[NDTYPES];

const char *py_type_name(PyObject *o) {
  static char buf[128];
  PyObject *n = PyType_GetName(Py_TYPE(o));
  const char *s = n ? PyUnicode_AsUTF8AndSize(n, NULL) : NULL;
  snprintf(buf, sizeof buf, "%s", s ? s : "?");
  if (!s) PyErr_Clear();
  Py_XDECREF(n);
  return buf;
}

PyObject *py_raise_fuser(const fuser_error *err) {
  PyErr_SetString(FuserError, err->message[0] ? err->message : fuser_status_name(err->code));
  return NULL;
}


/* ---- module functions ------------------------------------------------------ */

/* import_script(text, name): the IR and hash the importer makes of an nvFuser
 * repro script, for checking that a run of it recorded the same fusion. */
static PyObject *mod_import_script(PyObject *m, PyObject *args) {
  const char *text, *name;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#s", &text, &len, &name)) return NULL;
  fuser_definition *d;
  fuser_error err;
  if (fuser_definition_import(text, (size_t)len, name, &d, &err) != FUSER_OK) return py_raise_fuser(&err);
  char *ir = fuser_definition_ir(d, 0);
  PyObject *r = ir ? Py_BuildValue("(sK)", ir, (unsigned long long)fuser_definition_hash(d)) : PyErr_NoMemory();
  free(ir);
  fuser_definition_destroy(d);
  return r;
}

/* _timing(on) -> the phases' nanoseconds per call since the last call
 * (a dict), and turns py_timing on or off. */
static PyObject *mod_timing(PyObject *m, PyObject *arg) {
  PyObject *d = PyDict_New();
  for (int p = 0; d && p < P_COUNT; p++) {
    PyObject *v = PyFloat_FromDouble(py_timed_calls ? (double)py_phase_ns[p] / (double)py_timed_calls : 0.0);
    if (!v || PyDict_SetItemString(d, py_phase_names[p], v)) Py_CLEAR(d);
    Py_XDECREF(v);
    py_phase_ns[p] = 0;
  }
  py_timed_calls = 0;
  py_timing = PyObject_IsTrue(arg) == 1;
  return d;
}

/* The benchmark's yardsticks (fuser.bench): a cached call of fd through
 * the C API alone, on the fusion, stream and allocator fd.execute(inputs)
 * uses (py_allocator_for), with the inputs taken through DLPack once. */
typedef struct {
  PyObject *items;
  size_t n, nout;
  fuser_arg *fargs;
  taken *tk;
  fuser_output *outs;
  int dev_type;
  cache_entry *e;
  void *stream;
} bench_call;

static void bench_end(bench_call *b) {
  for (size_t i = 0; b->tk && i < b->n; i++) Py_XDECREF(b->tk[i].capsule);
  free(b->fargs);
  free(b->tk);
  free(b->outs);
  Py_XDECREF(b->items);
}

static int bench_begin(PyObject *args, bench_call *b, long *iters) {
  PyObject *fdo, *inputs;
  *b = (bench_call){0};
  if (!PyArg_ParseTuple(args, "O!Ol", FDT, &fdo, &inputs, iters)) return -1;
  FDObj *fd = (FDObj *)fdo;
  PyObject *warm = PyObject_CallMethod(fdo, "execute", "O", inputs); /* defines, compiles, picks the fusion */
  if (!warm) return -1;
  Py_DECREF(warm);
  if (!(b->items = PySequence_Tuple(inputs))) return -1;
  b->n = (size_t)PyTuple_Size(b->items), b->nout = fuser_definition_num_outputs(fd->def);
  b->fargs = calloc(b->n + 1, sizeof *b->fargs);
  b->tk = calloc(b->n + 1, sizeof *b->tk);
  b->outs = calloc(b->nout + 1, sizeof *b->outs);
  b->dev_type = kDLCPU;
  if (!b->fargs || !b->tk || !b->outs) return PyErr_NoMemory(), -1;
  int dev_id = 0;
  PyObject *first = NULL;
  for (size_t i = 0; i < b->n; i++) {
    PyObject *x = PyTuple_GetItem(b->items, (Py_ssize_t)i);
    if (PyFloat_Check(x)) {
      b->fargs[i] = fuser_arg_double(PyFloat_AsDouble(x));
    } else if (PyLong_Check(x)) {
      b->fargs[i] = fuser_arg_int(PyLong_AsLongLong(x));
    } else {
      if (py_take_tensor(x, i, NULL, &b->tk[i])) return -1;
      b->fargs[i] = fuser_arg_tensor(&b->tk[i].t);
      b->dev_type = b->tk[i].t.device.device_type, dev_id = b->tk[i].t.device.device_id;
      if (!first) first = x;
    }
  }
  /* the first tensor decides, as in fd.execute: its framework and exchange table */
  framework fw = first && py_is_torch_tensor(first) ? FW_TORCH : FW_OTHER;
  const py_exchange_api *api = first ? py_exchange_api_of(first) : NULL;
  taken probe;
  if (api && py_exchange_take(api, first, &probe)) api = NULL;
  py_allocator_kind kind = b->dev_type == kDLCUDA ? py_allocator_for(fw, api) : PY_ALLOC_RUNTIME;
  int slot = b->dev_type == kDLCPU ? MAX_DEVICES : dev_id;
  b->e = fd->fusion[slot][kind];
  if (!b->e || (kind == PY_ALLOC_EXCHANGE && b->e->api != api))
    return PyErr_SetString(FuserError, "no fusion for these inputs"), -1;
  if (b->dev_type == kDLCUDA) {
    int from_table = api ? py_exchange_stream(api, dev_id, &b->stream) : 1;
    if (from_table < 0 || (from_table > 0 && py_stream_of(Py_None, fw, dev_id, &b->stream))) return -1;
  }
  return 0;
}

/* _c_api_loop(fd, inputs, iterations) -> ns per call of the same cached
 * fusion through the C API alone: fuser_fusion_execute_on (or _cpu) +
 * fuser_output_release_on per iteration. The yardstick of the binding's
 * overhead. */
static PyObject *mod_c_api_loop(PyObject *m, PyObject *args) {
  bench_call b;
  long iters;
  PyObject *result = NULL;
  if (bench_begin(args, &b, &iters) == 0) {
    fuser_runtime *rt = fuser_fusion_runtime(b.e->fusion);
    fuser_error err;
    uint64_t t0 = py_now_ns();
    long it = 0;
    for (; it < iters; it++) {
      int rc = b.dev_type == kDLCPU ? fuser_fusion_execute_cpu(b.e->fusion, FUSER_BACKEND_AUTO, b.fargs, b.n, b.outs, b.nout, &err)
                                    : fuser_fusion_execute_on(b.e->fusion, b.stream, b.fargs, b.n, b.outs, b.nout, &err);
      if (rc != FUSER_OK) {
        py_raise_fuser(&err);
        break;
      }
      for (size_t k = 0; k < b.nout; k++) fuser_output_release_on(rt, &b.outs[k], b.stream);
    }
    if (it == iters) result = PyFloat_FromDouble((double)(py_now_ns() - t0) / (double)(iters > 0 ? iters : 1));
  }
  bench_end(&b);
  return result;
}

/* _lookup_loop(fd, inputs, iterations) -> ns per cached
 * fuser_fusion_compile of the same inputs: the signature and the cache
 * lookup alone, the part of libfuser_execute before the launch. */
static PyObject *mod_lookup_loop(PyObject *m, PyObject *args) {
  bench_call b;
  long iters;
  PyObject *result = NULL;
  if (bench_begin(args, &b, &iters) == 0) {
    fuser_error err;
    uint64_t t0 = py_now_ns();
    long it = 0;
    for (; it < iters; it++)
      if (fuser_fusion_compile(b.e->fusion, b.fargs, b.n, NULL, &err) != FUSER_OK) {
        py_raise_fuser(&err);
        break;
      }
    if (it == iters) result = PyFloat_FromDouble((double)(py_now_ns() - t0) / (double)(iters > 0 ? iters : 1));
  }
  bench_end(&b);
  return result;
}

/* _set_allocator("torch" | "torch_python" | "runtime"): where CUDA outputs
 * come from (py_allocator_choice; the benchmark compares them). */
static PyObject *mod_set_allocator(PyObject *m, PyObject *arg) {
  static const char *const names[] = {"torch", "torch_python", "runtime"};
  const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
  for (int i = 0; s && i < 3; i++)
    if (!strcmp(s, names[i])) {
      py_allocator_chosen = (py_allocator_choice)i;
      Py_RETURN_NONE;
    }
  return PyErr_Format(PyExc_ValueError, "_set_allocator: 'torch', 'torch_python' or 'runtime'"), NULL;
}

/* _exchange_allocations() -> output blocks from producers' exchange-table
 * allocators not yet given back (the tests: dropping outputs frees them). */
static PyObject *mod_exchange_allocations(PyObject *m, PyObject *unused) {
  return PyLong_FromSize_t(py_exchange_alloc_live());
}

/* _exchange_api(x) -> whether fd.execute takes x (and gives outputs)
 * through its type's DLPack C exchange table (exchange_api.c). */
static PyObject *mod_exchange_api(PyObject *m, PyObject *x) { return PyBool_FromLong(py_exchange_api_of(x) != NULL); }

/* _last_output_pointers() -> the data pointers of the last fd.execute's
 * outputs (ints), as fuser allocated them. */
static PyObject *mod_last_output_pointers(PyObject *m, PyObject *unused) {
  PyObject *t = PyTuple_New((Py_ssize_t)py_last_outputs);
  for (size_t k = 0; t && k < py_last_outputs; k++) {
    PyObject *v = PyLong_FromUnsignedLongLong((unsigned long long)py_last_output_ptrs[k]);
    if (!v || PyTuple_SetItem(t, (Py_ssize_t)k, v)) Py_CLEAR(t);
  }
  return t;
}

static PyMethodDef module_methods[] = {
    {"_last_output_pointers", mod_last_output_pointers, METH_NOARGS, "_last_output_pointers() -> the last fd.execute's output data pointers"},
    {"_exchange_api", mod_exchange_api, METH_O, "_exchange_api(x) -> fd.execute uses x's DLPack C exchange table"},
    {"_set_allocator", mod_set_allocator, METH_O, "_set_allocator('torch' | 'torch_python' | 'runtime')"},
    {"_exchange_allocations", mod_exchange_allocations, METH_NOARGS, "_exchange_allocations() -> live exchange-table allocations"},
    {"import_script", mod_import_script, METH_VARARGS, "import_script(text, name) -> (ir, hash)"},
    {"_timing", mod_timing, METH_O, "_timing(on) -> per-phase ns per fd.execute call since the last _timing"},
    {"_c_api_loop", mod_c_api_loop, METH_VARARGS, "_c_api_loop(fd, inputs, iterations) -> ns per C API call"},
    {"_lookup_loop", mod_lookup_loop, METH_VARARGS, "_lookup_loop(fd, inputs, iterations) -> ns per cached signature + lookup"},
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
  if (add_type(m, &py_dtype_spec, &DataTypeT, NULL) || add_type(m, &py_tensor_spec, &TensorT, NULL) ||
      add_type(m, &py_scalar_spec, &ScalarT, NULL) || add_type(m, &py_vector_spec, &VectorT, NULL) ||
      add_type(m, &py_ops_spec, &OpsT, NULL) || add_type(m, &py_op_spec, &OpT, NULL) ||
      add_type(m, &py_holder_spec, &HolderT, NULL) || add_type(m, &py_fd_spec, &FDT, NULL))
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

