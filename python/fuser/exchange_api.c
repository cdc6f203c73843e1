/* exchange_api.c: DLPack's C exchange API (binding.h), the fast path of
 * fd.execute for producers that have one (torch >= 2.10 sets
 * torch.Tensor.__dlpack_c_exchange_api__).
 *
 * DLPack 1.3 lets a tensor type publish a table of C functions, as a
 * capsule named "dlpack_exchange_api" on the type: fill a DLTensor from a
 * tensor object (borrowed, no capsule, no Python call), the framework's
 * current work stream of a device (torch.cuda.current_stream, without a
 * Python call), and a managed tensor to one of the framework's tensor
 * objects. Through __dlpack__ the same call costs a capsule per input and
 * a Python call per input, per stream query and per output, which made
 * most of the binding's per-call overhead (docs/PERFORMANCE.md).
 *
 * The table is looked up once per type (positive and negative results are
 * cached; a type is kept alive by the cache). Drafts of the protocol named
 * the attribute __c_dlpack_exchange_api__ and stored the pointer as an int;
 * both forms are read. Only major version 1 is used.
 * FUSER_PY_EXCHANGE_API=0 turns the fast path off (the benchmark compares
 * both; a producer whose table misbehaves can be bypassed). */
#include "binding.h"

static struct {
  PyTypeObject *type; /* strong reference */
  const py_exchange_api *api;
} cache[PY_EXCHANGE_TABLES];
static int cached, enabled = -1;

static const py_exchange_api *read_table(PyObject *attr) {
  void *p = NULL;
  if (PyCapsule_IsValid(attr, "dlpack_exchange_api")) p = PyCapsule_GetPointer(attr, "dlpack_exchange_api");
  else if (PyLong_Check(attr)) p = PyLong_AsVoidPtr(attr);
  PyErr_Clear();
  const py_exchange_api *api = p;
  if (!api || api->version.major != 1) return NULL;
  /* the entry points fd.execute uses; current_work_stream only for CUDA */
  if (!api->dltensor_from_py_object_no_sync || !api->managed_tensor_to_py_object_no_sync) return NULL;
  return api;
}

static const py_exchange_api *lookup(PyTypeObject *type) {
  static const char *const names[] = {"__dlpack_c_exchange_api__", "__c_dlpack_exchange_api__"};
  for (int k = 0; k < 2; k++) {
    PyObject *attr = PyObject_GetAttrString((PyObject *)type, names[k]);
    if (!attr) {
      PyErr_Clear();
      continue;
    }
    const py_exchange_api *api = read_table(attr);
    Py_DECREF(attr);
    if (api) return api;
  }
  return NULL;
}

const py_exchange_api *py_exchange_api_of(PyObject *x) {
  if (enabled < 0) {
    const char *env = getenv("FUSER_PY_EXCHANGE_API");
    enabled = !(env && !strcmp(env, "0"));
  }
  if (!enabled) return NULL;
  PyTypeObject *type = Py_TYPE(x);
  for (int i = 0; i < cached; i++)
    if (cache[i].type == type) return cache[i].api;
  const py_exchange_api *api = lookup(type);
  if (cached < PY_EXCHANGE_TABLES) { /* beyond that, looked up every call: still right, only slower */
    Py_INCREF((PyObject *)type);
    cache[cached].type = type;
    cache[cached++].api = api;
  }
  return api;
}

int py_exchange_take(const py_exchange_api *api, PyObject *x, taken *out) {
  out->capsule = NULL;
  if (api->dltensor_from_py_object_no_sync(x, &out->t) == 0) return 0;
  PyErr_Clear(); /* refused (a layout or dtype it will not describe): the caller takes x through __dlpack__ */
  return 1;
}

int py_exchange_stream(const py_exchange_api *api, int device_id, void **stream) {
  *stream = NULL;
  if (!api->current_work_stream) return 1; /* the producer has no notion of one: ask elsewhere */
  if (api->current_work_stream(kDLCUDA, device_id, stream) != 0) {
    if (!PyErr_Occurred()) PyErr_Format(FuserError, "fd.execute: the producer gave no current stream of CUDA device %d", device_id);
    return -1;
  }
  return 0;
}
