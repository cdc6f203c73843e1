/* tensor_out.c: fd.execute's outputs (binding.h) as the caller's
 * framework's tensors: a DLManagedTensor (DLPack 0.x, which every consumer
 * reads: torch 1.x and NumPy 1.x predate DLPack 1.0) around the libfuser
 * output itself, whose deleter returns the memory through whoever
 * allocated it (torch's caching allocator, the runtime's, or free() for CPU
 * outputs), ordered on the stream of the call that made it; then torch's
 * _from_dlpack for torch callers, or a fuser.DLPackTensor that any
 * from_dlpack consumes. One heap block per output. */
#include "binding.h"

/* ---- DLPack capsules -------------------------------------------------------- */

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
PyType_Spec py_holder_spec = {"fuser.DLPackTensor", sizeof(HolderObj), 0, Py_TPFLAGS_DEFAULT, holder_slots};

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


/* ---- managed outputs ------------------------------------------------------------ */

/* The output (moved in: its shape and strides with it) and what keeps its
 * memory valid: the runtime that allocated it and, for an alias, the input. */
typedef struct {
  DLManagedTensor m;
  DLManagedTensorVersioned mv; /* the same tensor for the exchange API's consumers */
  fuser_runtime *rt;
  fuser_output out;
  PyObject *keep;
} managed_output;

static void managed_delete(DLManagedTensor *m) {
  uint64_t t0 = py_timing ? py_now_ns() : 0, free0 = py_phase_ns[P_FREE]; /* the free callback is timed apart */
  managed_output *g = m->manager_ctx;
  fuser_output_release_on(g->rt, &g->out, g->out.stream);
  if (g->keep) {
    PyGILState_STATE s = PyGILState_Ensure();
    Py_DECREF(g->keep);
    PyGILState_Release(s);
  }
  free(g);
  if (py_timing && t0) py_phase_ns[P_RELEASE] += py_now_ns() - t0 - (py_phase_ns[P_FREE] - free0);
}

static void managed_delete_versioned(DLManagedTensorVersioned *mv) { managed_delete(&((managed_output *)mv->manager_ctx)->m); }

DLManagedTensor *py_managed_output(fuser_runtime *rt, fuser_output *out, PyObject *input, fuser_error *err) {
  (void)err;
  managed_output *g = malloc(sizeof *g);
  if (!g) {
    fuser_output_release_on(rt, out, out->stream);
    return PyErr_NoMemory(), NULL;
  }
  g->rt = rt;
  g->out = *out;
  g->out.tensor.shape = g->out.shape;
  g->out.tensor.strides = out->tensor.strides ? g->out.strides : NULL;
  g->keep = input ? Py_NewRef(input) : NULL;
  out->allocation = NULL; /* g owns the memory now */
  out->allocated_by = FUSER_ALLOCATED_NONE;
  g->m.dl_tensor = g->out.tensor;
  g->m.manager_ctx = g;
  g->m.deleter = managed_delete;
  return &g->m;
}

/* Through the producer's table: its tensor object over our memory, with
 * no capsule and no Python call; the producer owns m from here (also when
 * it fails: the protocol steals the tensor). */
static PyObject *give_through_exchange(DLManagedTensor *m, const py_exchange_api *api) {
  managed_output *g = m->manager_ctx;
  g->mv = (DLManagedTensorVersioned){{1, 0}, g, managed_delete_versioned, 0, g->m.dl_tensor};
  void *obj = NULL;
  if (api->managed_tensor_to_py_object_no_sync(&g->mv, &obj) != 0 || !obj) {
    if (!PyErr_Occurred()) PyErr_SetString(FuserError, "fd.execute: the producer's DLPack exchange API refused an output");
    return NULL;
  }
  return obj;
}

/* An output (which we own) as the caller's kind of tensor. */
PyObject *py_give_tensor(DLManagedTensor *m, framework fw, PyObject *from_dlpack, const py_exchange_api *api) {
  if (api) return give_through_exchange(m, api);
  bool is_bool = m->dl_tensor.dtype.code == 6;
  if (fw == FW_TORCH && is_bool) m->dl_tensor.dtype = (DLDataType){kDLUInt, 8, 1}; /* viewed back as bool below */
  int dev_type = m->dl_tensor.device.device_type, dev_id = m->dl_tensor.device.device_id;
  PyObject *cap = capsule_of(m);
  if (!cap) return NULL;
  if (fw == FW_TORCH) {
    PyObject *t = PyObject_CallFunctionObjArgs(py_torch.torch_from_dlpack, cap, NULL);
    Py_DECREF(cap);
    if (t && is_bool) {
      PyObject *b = PyObject_CallMethod(t, "view", "O", py_torch.torch_bool);
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

