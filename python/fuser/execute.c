/* execute.c: fd.execute(inputs, device=None, stream=None) (binding.h),
 * and where its time goes (fuser._C._timing, fuser.bench).
 *
 * The call, in phases: the arguments; the device (the first tensor's, or
 * device=) and the consumer stream (the stream argument, else torch's
 * current stream); the inputs (tensor_in.c); nvFuser's checks (kinds,
 * ranks, dtypes the definition says); libfuser's execute on the CPU or on
 * the stream, its CUDA outputs from the caller's allocator where there is
 * one (py_allocator_for); the outputs as the caller's tensors
 * (tensor_out.c), aliased ones written into their input. Up to STACK_ARGS
 * inputs and outputs the call allocates nothing of its own on the heap.
 * The timed phases (binding.h, P_*) follow the same order. */
#include "binding.h"

#include <time.h>

static framework framework_of(PyObject *x, PyObject **from_dlpack) {
  *from_dlpack = NULL;
  if (py_is_torch_tensor(x)) return FW_TORCH;
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

/* Where fd.execute's time goes (fuser.bench): with py_timing on, each phase
 * adds its nanoseconds; off, a mark is one predictable branch. */
const char *const py_phase_names[P_COUNT] = {"arguments",     "dlpack_inputs", "stream_query",   "checks",
                                             "libfuser_execute", "output_alloc", "outputs",        "output_release",
                                             "output_free"};
bool py_timing;
uint64_t py_phase_ns[P_COUNT], py_timed_calls;
uintptr_t py_last_output_ptrs[PY_LAST_OUTPUTS];
size_t py_last_outputs;

uint64_t py_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define MARK(p)                                   \
  do {                                            \
    if (py_timing) {                              \
      uint64_t t_ = py_now_ns();                  \
      py_phase_ns[p] += t_ - mark_;               \
      mark_ = t_;                                 \
    }                                             \
  } while (0)

#define STACK_ARGS 16

/* The heap or stack memory of one call. */
typedef struct {
  fuser_arg fargs[STACK_ARGS];
  taken tk[STACK_ARGS];
  fuser_output gouts[STACK_ARGS];
  DLManagedTensor *outs[STACK_ARGS];
} call_memory;

/* An input that is a tensor for the device search (numbers are scalars). */
static bool maybe_tensor(PyObject *x) {
  static PyObject *s_dlpack;
  if (PyBool_Check(x) || PyLong_Check(x) || PyFloat_Check(x)) return false;
  if (py_is_torch_tensor(x)) return true;
  if (!s_dlpack) s_dlpack = PyUnicode_InternFromString("__dlpack__");
  return s_dlpack && PyObject_HasAttr(x, s_dlpack);
}

static PyObject *execute_call(FDObj *fd, PyObject *inputs, PyObject *device, PyObject *stream, const char *backend_name,
                              uint64_t mark_);

/* fd.execute's entry (METH_FASTCALL | METH_KEYWORDS: no argument tuple is
 * made for a call). fd.execute(inputs), the hot form, goes straight to the
 * call; any other form is parsed with its keywords. */
PyObject *py_fd_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  uint64_t mark_ = py_timing ? py_now_ns() : 0;
  if (nargs == 1 && !kwnames) return execute_call((FDObj *)self, args[0], Py_None, Py_None, NULL, mark_);
  Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
  PyObject *tuple = PyTuple_New(nargs), *kwargs = nkw ? PyDict_New() : NULL, *r = NULL;
  bool ok = tuple && (!nkw || kwargs);
  for (Py_ssize_t i = 0; ok && i < nargs; i++) ok = PyTuple_SetItem(tuple, i, Py_NewRef(args[i])) == 0;
  for (Py_ssize_t i = 0; ok && i < nkw; i++) ok = PyDict_SetItem(kwargs, PyTuple_GetItem(kwnames, i), args[nargs + i]) == 0;
  static char *kwlist[] = {"inputs", "device", "stream", "cpu_backend", "override_user_schedule",
                           "capture_debug_output", "print_repro", "profile", "save_repro_inputs", "_enable_options",
                           "_disable_options", NULL};
  PyObject *inputs, *device = Py_None, *stream = Py_None, *o1, *o2, *o3, *o4, *o5, *o6, *o7;
  const char *backend_name = NULL;
  if (ok && PyArg_ParseTupleAndKeywords(tuple, kwargs, "O|O$OzOOOOOOO", kwlist, &inputs, &device, &stream, &backend_name,
                                        &o1, &o2, &o3, &o4, &o5, &o6, &o7))
    r = execute_call((FDObj *)self, inputs, device, stream, backend_name, mark_);
  Py_XDECREF(tuple);
  Py_XDECREF(kwargs);
  return r;
}

static PyObject *execute_call(FDObj *fd, PyObject *inputs, PyObject *device, PyObject *stream, const char *backend_name,
                              uint64_t mark_) {
  int cpu_backend = FUSER_BACKEND_AUTO; /* FUSER_CPU_BACKEND's choice */
  if (backend_name && !strcmp(backend_name, "reference")) cpu_backend = FUSER_BACKEND_CPU_REFERENCE;
  else if (backend_name && !strcmp(backend_name, "jit")) cpu_backend = FUSER_BACKEND_CPU_JIT;
  else if (backend_name)
    return PyErr_Format(PyExc_ValueError, "fd.execute: cpu_backend=%s (expected 'reference' or 'jit')", backend_name), NULL;
  if (py_define_if_needed(fd)) return NULL;
  if (!PyList_Check(inputs) && !PyTuple_Check(inputs))
    return PyErr_Format(PyExc_TypeError, "fd.execute: inputs must be a list or tuple, not '%s'", py_type_name(inputs)), NULL;
  size_t n = (size_t)PySequence_Size(inputs), nin = fd->ninputs, nout = fuser_definition_num_outputs(fd->def);
  if (n != nin) return PyErr_Format(FuserError, "fd.execute: %zu inputs given, the fusion takes %zu", n, nin), NULL;
  call_memory stack;
  bool on_heap = n > STACK_ARGS || nout > STACK_ARGS;
  fuser_arg *fargs = stack.fargs;
  taken *tk = stack.tk;
  fuser_output *gouts = stack.gouts;
  DLManagedTensor **outs = stack.outs;
  if (on_heap) {
    fargs = calloc(n + 1, sizeof *fargs);
    tk = calloc(n + 1, sizeof *tk);
    gouts = calloc(nout + 1, sizeof *gouts);
    outs = calloc(nout + 1, sizeof *outs);
  }
  for (size_t i = 0; tk && i < n; i++) tk[i].capsule = NULL;
  for (size_t k = 0; outs && k < nout; k++) outs[k] = NULL;
  bool taken_early[STACK_ARGS] = {false}; /* inputs the device search already took (n <= STACK_ARGS only) */
  PyObject *result = NULL, *from_dlpack = NULL, *items = PySequence_Tuple(inputs);
  framework fw = FW_NONE;
  int dev_type = 0, dev_id = 0;
  void *cuda_stream = NULL;
  const py_exchange_api *api = NULL; /* the first tensor's type's C exchange table (exchange_api.c) */
  PyObject *stream_arg = NULL;
  if ((on_heap && (!fargs || !tk || !gouts || !outs)) || !items) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    goto done;
  }
  MARK(P_ARGS);
  /* the device: the first tensor's, or the device= argument. A torch tensor
   * on torch's stream is taken here at once (its device comes with it). */
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyTuple_GetItem(items, (Py_ssize_t)i);
    if (!maybe_tensor(x)) continue;
    fw = framework_of(x, &from_dlpack);
    /* on the producer's own stream, its C exchange table: no Python call */
    if (stream == Py_None && n <= STACK_ARGS && (api = py_exchange_api_of(x))) {
      if (py_exchange_take(api, x, &tk[i]) == 0) {
        taken_early[i] = true;
        dev_type = tk[i].t.device.device_type, dev_id = tk[i].t.device.device_id;
        if (dev_type == kDLCPU) dev_id = 0;
        break;
      }
      api = NULL; /* refused: this call goes the DLPack way */
    }
    if (fw == FW_TORCH && stream == Py_None && n <= STACK_ARGS) {
      if (py_take_tensor(x, i, NULL, &tk[i])) goto done;
      taken_early[i] = true;
      dev_type = tk[i].t.device.device_type, dev_id = tk[i].t.device.device_id;
      if (dev_type == kDLCPU) dev_id = 0;
      break;
    }
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
  MARK(P_INPUTS); /* the device search takes the first tensor */
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
    int from_table = api ? py_exchange_stream(api, dev_id, &cuda_stream) : 1;
    if (from_table < 0 || (from_table > 0 && py_stream_of(stream, fw, dev_id, &cuda_stream))) goto done;
    /* the consumer stream protocol: 1 is the legacy default stream */
    if (stream != Py_None || fw != FW_TORCH) stream_arg = PyLong_FromUnsignedLongLong(cuda_stream ? (uintptr_t)cuda_stream : 1);
  }
  MARK(P_STREAM);
  for (size_t i = 0; i < n; i++) {
    if (n <= STACK_ARGS && taken_early[i]) {
      fargs[i] = fuser_arg_tensor(&tk[i].t);
      continue;
    }
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
    /* the first tensor's kind (same table, same current stream), or any
     * kind on the CPU, where there is no stream */
    const py_exchange_api *own = api && stream == Py_None ? py_exchange_api_of(x) : NULL;
    if (own && (own == api || dev_type == kDLCPU) && py_exchange_take(own, x, &tk[i]) == 0) {
      fargs[i] = fuser_arg_tensor(&tk[i].t);
      continue;
    }
    bool torch = py_is_torch_tensor(x);
    if (!torch && !maybe_tensor(x)) {
      PyErr_Format(PyExc_TypeError, "fd.execute input %zu: expected a tensor (an object with __dlpack__) or a number, got '%s'", i,
                   py_type_name(x));
      goto done;
    }
    if (!torch) { /* its device before __dlpack__(stream=...), which a CPU producer may refuse */
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
    if (py_take_tensor(x, i, dev_type == kDLCUDA ? stream_arg : NULL, &tk[i])) goto done;
    fargs[i] = fuser_arg_tensor(&tk[i].t);
  }
  for (size_t i = 0; i < n; i++) {
    if (fargs[i].kind != FUSER_ARG_TENSOR) continue;
    const DLTensor *t = &tk[i].t;
    if ((int)t->device.device_type != dev_type || (dev_type == kDLCUDA && t->device.device_id != dev_id)) {
      PyErr_Format(FuserError, "fd.execute input %zu: on device %d:%d, but the fusion runs on %d:%d (all tensors on one device)", i,
                   (int)t->device.device_type, (int)t->device.device_id, dev_type, dev_id);
      goto done;
    }
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
  int slot = dev_type == kDLCPU ? MAX_DEVICES : dev_id;
  py_allocator_kind kind = dev_type == kDLCUDA ? py_allocator_for(fw, api) : PY_ALLOC_RUNTIME;
  cache_entry *e = py_fusion_for(fd, slot, kind, api, &err);
  if (!e) {
    if (!PyErr_Occurred()) py_raise_fuser(&err);
    goto done;
  }
  fuser_runtime *rt = fuser_fusion_runtime(e->fusion);
  uint64_t callbacks_ns = py_timing ? py_phase_ns[P_ALLOC] + py_phase_ns[P_FREE] : 0;
  int rc = dev_type == kDLCPU ? fuser_fusion_execute_cpu(e->fusion, cpu_backend, fargs, n, gouts, nout, &err)
                              : fuser_fusion_execute_on(e->fusion, cuda_stream, fargs, n, gouts, nout, &err);
  if (rc != FUSER_OK) {
    if (rc == FUSER_ERR_ALLOCATOR && kind == PY_ALLOC_EXCHANGE && py_exchange_alloc_error()[0])
      PyErr_Format(FuserError, "%s (the inputs' allocator: %s)", err.message, py_exchange_alloc_error());
    else
      py_raise_fuser(&err);
    goto done;
  }
  for (size_t k = 0; k < nout; k++) {
    int a = gouts[k].alias_of;
    outs[k] = py_managed_output(rt, &gouts[k], a >= 0 && (size_t)a < n ? PyTuple_GetItem(items, a) : NULL, &err);
  }
  for (size_t k = 0; k < nout; k++)
    if (!outs[k]) goto done;
  MARK(P_EXEC);
  if (py_timing) py_phase_ns[P_EXEC] -= py_phase_ns[P_ALLOC] + py_phase_ns[P_FREE] - callbacks_ns; /* timed apart */
  /* outputs as the caller's tensors; aliased ones written into their input */
  py_last_outputs = 0;
  for (size_t k = 0; k < nout && k < PY_LAST_OUTPUTS; k++, py_last_outputs++)
    py_last_output_ptrs[k] = (uintptr_t)outs[k]->dl_tensor.data + (uintptr_t)outs[k]->dl_tensor.byte_offset;
  result = PyList_New(0);
  for (size_t k = 0; result && k < nout; k++) {
    PyObject *t = py_give_tensor(outs[k], fw, from_dlpack, api);
    outs[k] = NULL;
    int alias = fuser_definition_output_alias(fd->def, k);
    int rc2 = !t ? -1 : alias >= 0 ? write_alias(PyTuple_GetItem(items, alias), t) : PyList_Append(result, t);
    Py_XDECREF(t);
    if (rc2) Py_CLEAR(result);
  }
done:
  for (size_t k = 0; outs && k < nout; k++)
    if (outs[k]) outs[k]->deleter(outs[k]);
  for (size_t i = 0; tk && i < n; i++) Py_XDECREF(tk[i].capsule);
  if (result) {
    MARK(P_OUTPUTS);
    if (py_timing) py_timed_calls++;
  }
  if (on_heap) {
    free(fargs);
    free(tk);
    free(gouts);
    free(outs);
  }
  Py_XDECREF(items);
  Py_XDECREF(from_dlpack);
  Py_XDECREF(stream_arg);
  return result;
}
