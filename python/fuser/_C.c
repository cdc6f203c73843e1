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
      if (py_take_tensor(x, i, NULL, &tk[i])) goto done;
      fargs[i] = fuser_arg_tensor(&tk[i].t);
      dev_type = tk[i].t.device.device_type, dev_id = tk[i].t.device.device_id;
    }
  }
  int slot = dev_type == kDLCPU ? MAX_DEVICES : dev_id;
  cache_entry *e = fd->fusion[slot][dev_type == kDLCUDA && py_is_torch_tensor(PyTuple_GetItem(items, 0)) && !py_runtime_allocator_only];
  if (!e) {
    PyErr_SetString(FuserError, "no fusion for these inputs");
    goto done;
  }
  fuser_runtime *rt = fuser_fusion_runtime(e->fusion);
  void *stream = NULL;
  if (dev_type == kDLCUDA && py_stream_of(Py_None, py_is_torch_tensor(PyTuple_GetItem(items, 0)) ? FW_TORCH : FW_OTHER, dev_id, &stream))
    goto done;
  fuser_error err;
  uint64_t t0 = py_now_ns();
  for (long it = 0; it < iters; it++) {
    int rc = dev_type == kDLCPU ? fuser_fusion_execute_cpu(e->fusion, FUSER_BACKEND_AUTO, fargs, n, outs, nout, &err)
                                : fuser_fusion_execute_on(e->fusion, stream, fargs, n, outs, nout, &err);
    if (rc != FUSER_OK) {
      py_raise_fuser(&err);
      goto done;
    }
    for (size_t k = 0; k < nout; k++) fuser_output_release_on(rt, &outs[k], stream);
  }
  result = PyFloat_FromDouble((double)(py_now_ns() - t0) / (double)(iters > 0 ? iters : 1));
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
  py_runtime_allocator_only = strcmp(s, "runtime") == 0;
  Py_RETURN_NONE;
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

