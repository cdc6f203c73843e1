/* tensor_in.c: fd.execute's input tensors (binding.h), all through DLPack:
 * x.__dlpack__(stream=...) or, for torch tensors on the consumer's own
 * stream, torch._C._to_dlpack (the same capsule, without the Python-level
 * wrapper's cost). The capsule is kept until the call is over; the
 * DLTensor is copied (shape and strides stay the capsule's).
 *
 * Reading torch tensors' fields directly instead (is_cuda, get_device(),
 * dtype, data_ptr(), size(), stride()) was tried: twice as fast as the
 * capsule with torch 1.13 on the CPU, but slower on the H200 machine with
 * torch 2.11 (0.63-0.84 us a tensor against 0.53 us for the capsule,
 * docs/PERFORMANCE.md), so the one path is DLPack.
 *
 * torch 1.x cannot export bool: there it goes as uint8 and is relabelled
 * (found once: a bool capsule is tried at the first torch call). */
#include "binding.h"

static PyObject *s_dtype, *s_dlpack;
static int bool_exports = -1; /* torch exports bool through DLPack: 1, 0, or not known yet */

/* Whether torch's _to_dlpack takes a bool tensor, asked once. */
static bool torch_exports_bool(void) {
  if (bool_exports >= 0) return bool_exports;
  bool_exports = 0;
  PyObject *zeros = PyObject_GetAttrString(py_torch.torch, "zeros");
  PyObject *kw = zeros ? Py_BuildValue("{sO}", "dtype", py_torch.torch_bool) : NULL;
  PyObject *args = kw ? Py_BuildValue("(i)", 1) : NULL;
  PyObject *t = args ? PyObject_Call(zeros, args, kw) : NULL;
  PyObject *cap = t ? PyObject_CallFunctionObjArgs(py_torch.torch_to_dlpack, t, NULL) : NULL;
  bool_exports = cap != NULL;
  Py_XDECREF(cap);
  Py_XDECREF(t);
  Py_XDECREF(args);
  Py_XDECREF(kw);
  Py_XDECREF(zeros);
  PyErr_Clear();
  return bool_exports;
}

int py_take_tensor(PyObject *x, size_t i, PyObject *stream, taken *out) {
  out->capsule = NULL;
  bool torch = py_is_torch_tensor(x), as_bool = false;
  PyObject *src = Py_NewRef(x);
  if (torch && !torch_exports_bool()) {
    if (!s_dtype) s_dtype = PyUnicode_InternFromString("dtype");
    PyObject *dt = s_dtype ? PyObject_GetAttr(x, s_dtype) : NULL;
    as_bool = dt == py_torch.torch_bool;
    Py_XDECREF(dt);
    PyErr_Clear();
    if (as_bool) {
      Py_DECREF(src);
      src = PyObject_CallMethod(x, "view", "O", py_torch.torch_uint8);
      if (!src) return -1;
    }
  }
  if (torch && !stream) {
    out->capsule = PyObject_CallFunctionObjArgs(py_torch.torch_to_dlpack, src, NULL);
  } else {
    if (!s_dlpack) s_dlpack = PyUnicode_InternFromString("__dlpack__");
    PyObject *m = s_dlpack ? PyObject_GetAttr(src, s_dlpack) : NULL;
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
