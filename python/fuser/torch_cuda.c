/* torch_cuda.c: what the binding takes from torch, found once the caller
 * has imported torch (we never import it ourselves), and the CUDA side of
 * a call (binding.h): torch's current stream, output memory from torch's
 * caching allocator through Python calls (the exchange table's allocator,
 * exchange_alloc.c, is preferred: py_allocator_for), the runtimes (one per
 * device, allocator kind and table) and the process-wide cache of libfuser
 * fusions (nvFuser's FusionCache). */
#include "binding.h"

#include <stdio.h>

torch_api py_torch;

bool py_have_torch(void) {
  if (py_torch.torch) return true;
  PyObject *mods = PyImport_GetModuleDict();
  PyObject *torch = mods ? PyDict_GetItemString(mods, "torch") : NULL;
  if (!torch) return false;
  PyObject *C = PyObject_GetAttrString(torch, "_C");
  py_torch.torch_tensor = PyObject_GetAttrString(torch, "Tensor");
  py_torch.torch_to_dlpack = C ? PyObject_GetAttrString(C, "_to_dlpack") : NULL;
  py_torch.torch_from_dlpack = C ? PyObject_GetAttrString(C, "_from_dlpack") : NULL;
  py_torch.torch_bool = PyObject_GetAttrString(torch, "bool");
  py_torch.torch_uint8 = PyObject_GetAttrString(torch, "uint8");
  if (!py_torch.torch_tensor || !py_torch.torch_to_dlpack || !py_torch.torch_from_dlpack || !py_torch.torch_bool ||
      !py_torch.torch_uint8) {
    PyErr_Clear();
    Py_XDECREF(C);
    Py_CLEAR(py_torch.torch_tensor);
    Py_CLEAR(py_torch.torch_to_dlpack);
    Py_CLEAR(py_torch.torch_from_dlpack);
    Py_CLEAR(py_torch.torch_bool);
    Py_CLEAR(py_torch.torch_uint8);
    return false;
  }
  /* the CUstream as an int, without making a torch.cuda.Stream (torch
   * builds without CUDA lack it) */
  py_torch.raw_stream = C ? PyObject_GetAttrString(C, "_cuda_getCurrentRawStream") : NULL;
  PyErr_Clear();
  Py_XDECREF(C);
  py_torch.torch = Py_NewRef(torch);
  return true;
}

bool py_is_torch_tensor(PyObject *o) {
  if (!py_have_torch()) return false;
  if ((PyObject *)Py_TYPE(o) == py_torch.torch_tensor) return true; /* the common case, no MRO walk */
  return PyObject_IsInstance(o, py_torch.torch_tensor) == 1;
}

/* ---- the current stream ------------------------------------------------------ */

int py_stream_of(PyObject *stream, framework fw, int device, void **out) {
  *out = NULL;
  PyObject *s = NULL;
  if (stream && stream != Py_None) {
    s = PyLong_Check(stream) ? Py_NewRef(stream) : PyObject_GetAttrString(stream, "cuda_stream");
  } else if (fw == FW_TORCH) {
    if (py_torch.raw_stream) {
      /* one C call; the device's int is one of Python's cached small ints */
      PyObject *dev = PyLong_FromLong(device);
      s = dev ? PyObject_CallFunctionObjArgs(py_torch.raw_stream, dev, NULL) : NULL;
      Py_XDECREF(dev);
    } else {
      PyObject *cuda = PyObject_GetAttrString(py_torch.torch, "cuda");
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

/* ---- output memory, runtimes, fusions ------------------------------------------ */

/* Output memory for torch callers: the exchange table's allocator when
 * torch.Tensor publishes one (exchange_alloc.c, C calls), else torch's
 * caching allocator through Python: torch's C entry points (raw_alloc on
 * the current device, raw_delete) when they exist and the device is
 * current, else torch.cuda.caching_allocator_alloc/_delete. That is also
 * the way of a stream= argument (the table allocates on torch's current
 * stream only). */
typedef struct {
  PyObject *alloc, *free;             /* torch.cuda.caching_allocator_alloc / _delete */
  PyObject *raw_alloc, *raw_free, *get_device; /* torch._C._cuda_cudaCachingAllocator_raw_alloc, ... */
  int device;
} torch_alloc_ctx;

static int torch_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  torch_alloc_ctx *c = ctx;
  uint64_t t0 = py_timing ? py_now_ns() : 0;
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
  if (py_timing) py_phase_ns[P_ALLOC] += py_now_ns() - t0;
  return rc;
}

static void torch_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  torch_alloc_ctx *c = ctx;
  uint64_t t0 = py_timing ? py_now_ns() : 0;
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *r = PyObject_CallFunction(c->raw_free ? c->raw_free : c->free, "K", (unsigned long long)(uintptr_t)ptr);
  if (!r) PyErr_Clear();
  Py_XDECREF(r);
  PyGILState_Release(g);
  if (py_timing) py_phase_ns[P_FREE] += py_now_ns() - t0;
}

py_allocator_choice py_allocator_chosen;

py_allocator_kind py_allocator_for(framework fw, const py_exchange_api *api) {
  if (py_allocator_chosen == PY_CHOOSE_RUNTIME) return PY_ALLOC_RUNTIME;
  if (py_allocator_chosen == PY_CHOOSE_CALLER && api && api->managed_tensor_allocator) return PY_ALLOC_EXCHANGE;
  return fw == FW_TORCH ? PY_ALLOC_TORCH_PYTHON : PY_ALLOC_RUNTIME;
}

static torch_alloc_ctx alloc_ctx[MAX_DEVICES];

/* torch's allocator through Python on `device`, found once. */
static int torch_python_allocator(int device, fuser_allocator *out, fuser_error *err) {
  torch_alloc_ctx *c = &alloc_ctx[device];
  if (!c->alloc) {
    PyObject *cuda = PyObject_GetAttrString(py_torch.torch, "cuda");
    c->alloc = cuda ? PyObject_GetAttrString(cuda, "caching_allocator_alloc") : NULL;
    c->free = cuda ? PyObject_GetAttrString(cuda, "caching_allocator_delete") : NULL;
    c->device = device;
    PyObject *C = PyObject_GetAttrString(py_torch.torch, "_C");
    c->raw_alloc = C ? PyObject_GetAttrString(C, "_cuda_cudaCachingAllocator_raw_alloc") : NULL;
    c->raw_free = C ? PyObject_GetAttrString(C, "_cuda_cudaCachingAllocator_raw_delete") : NULL;
    c->get_device = C ? PyObject_GetAttrString(C, "_cuda_getDevice") : NULL;
    if (!c->raw_alloc || !c->raw_free || !c->get_device) {
      Py_CLEAR(c->raw_alloc); /* all three or none */
      Py_CLEAR(c->raw_free);
      Py_CLEAR(c->get_device);
    }
    PyErr_Clear();
    Py_XDECREF(C);
    Py_XDECREF(cuda);
    if (!c->alloc || !c->free) {
      PyErr_Clear();
      Py_CLEAR(c->alloc);
      Py_CLEAR(c->free);
      snprintf(err->message, sizeof err->message, "torch.cuda has no caching_allocator_alloc/_delete");
      err->code = FUSER_ERR_INVALID_ARGUMENT;
      return -1;
    }
  }
  *out = (fuser_allocator){c, torch_alloc, torch_free};
  return 0;
}

/* The runtimes: one per device, allocator kind and (for the exchange
 * kind) table, made on first use and kept for the process. */
static struct {
  int device;
  py_allocator_kind kind;
  const py_exchange_api *api;
  fuser_runtime *rt;
} runtimes[MAX_DEVICES * (2 + PY_EXCHANGE_TABLES)];
static int nruntimes;

static fuser_runtime *runtime_for(int device, py_allocator_kind kind, const py_exchange_api *api, fuser_error *err) {
  for (int i = 0; i < nruntimes; i++)
    if (runtimes[i].device == device && runtimes[i].kind == kind && runtimes[i].api == api) return runtimes[i].rt;
  if (nruntimes == (int)(sizeof runtimes / sizeof *runtimes)) {
    snprintf(err->message, sizeof err->message, "too many CUDA runtimes (devices x allocators)");
    err->code = FUSER_ERR_INVALID_ARGUMENT;
    return NULL;
  }
  fuser_allocator a = {0};
  if (kind == PY_ALLOC_TORCH_PYTHON && torch_python_allocator(device, &a, err)) return NULL;
  if (kind == PY_ALLOC_EXCHANGE && !(a = py_exchange_allocator(api, device)).alloc) {
    snprintf(err->message, sizeof err->message, "too many DLPack exchange allocators");
    err->code = FUSER_ERR_INVALID_ARGUMENT;
    return NULL;
  }
  fuser_runtime *rt;
  if (fuser_runtime_create(device, NULL, kind == PY_ALLOC_RUNTIME ? NULL : &a, &rt, err) != FUSER_OK) return NULL;
  runtimes[nruntimes].device = device, runtimes[nruntimes].kind = kind, runtimes[nruntimes].api = api;
  runtimes[nruntimes++].rt = rt;
  return rt;
}

static cache_entry *cache_head;

cache_entry *py_fusion_for(FDObj *fd, int device, py_allocator_kind kind, const py_exchange_api *api, fuser_error *err) {
  if (kind != PY_ALLOC_EXCHANGE) api = NULL;
  cache_entry *e = fd->fusion[device][kind];
  if (e && e->api == api) return e;
  uint64_t h = fuser_definition_hash(fd->def);
  for (e = cache_head; e; e = e->next)
    if (e->hash == h && e->device == device && e->allocator == (int)kind && e->api == api && strcmp(e->ir, fd->ir) == 0)
      return fd->fusion[device][kind] = e;
  fuser_runtime *rt = NULL; /* the CPU: a fusion without a runtime */
  if (device < MAX_DEVICES && !(rt = runtime_for(device, kind, api, err))) return NULL;
  e = calloc(1, sizeof *e);
  if (!e) return NULL;
  /* small calls compile their extents as constants (torch.compile's
   * dynamic=False does too): their time is the kernel's instruction chain */
  fuser_fusion_options o = {.specialize_sizes = FUSER_SPECIALIZE_SMALL};
  const char *sizes = getenv("FUSER_SPECIALIZE_SIZES"); /* small (default), never, always */
  if (sizes && *sizes) {
    if (!strcmp(sizes, "never")) o.specialize_sizes = 0;
    else if (!strcmp(sizes, "always")) o.specialize_sizes = 1;
    else if (strcmp(sizes, "small") != 0) {
      free(e);
      snprintf(err->message, sizeof err->message, "FUSER_SPECIALIZE_SIZES=%.64s: expected small, never or always", sizes);
      err->code = FUSER_ERR_INVALID_ARGUMENT;
      return NULL;
    }
  }
  const char *backend = getenv("FUSER_CPU_BACKEND"); /* "jit": the compiled loops; default the reference */
  o.cpu_backend = backend && !strcmp(backend, "jit") ? FUSER_BACKEND_CPU_JIT : FUSER_BACKEND_CPU_REFERENCE;
  if (fuser_fusion_create_definition(rt, fd->def, &o, &e->fusion, err) != FUSER_OK) {
    free(e);
    return NULL;
  }
  e->hash = h;
  e->ir = strdup(fd->ir);
  e->device = device;
  e->allocator = kind;
  e->api = api;
  e->next = cache_head;
  cache_head = e;
  return fd->fusion[device][kind] = e;
}
