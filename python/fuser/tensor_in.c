/* tensor_in.c: fd.execute's input tensors (binding.h).
 *
 * A torch CUDA or CPU tensor (on torch's own stream, when CUDA) is read
 * directly: is_cuda (is_cpu), get_device() (CUDA only), dtype, data_ptr(),
 * size(), stride(): six C-level calls,
 * no DLPack capsule made and destroyed (torch._C._to_dlpack copies shape
 * and strides into a new heap block and wraps the tensor: about twice the
 * time). data_ptr() already includes the storage offset, as torch's own
 * DLPack export does (byte_offset 0). The data stays valid for the call:
 * the inputs tuple holds the tensors, and torch frees memory stream-ordered
 * on the same stream the kernels are queued on. Everything else (CPU
 * tensors of other devices, other dtypes, a stream argument, NumPy, CuPy, JAX) goes through
 * __dlpack__: x.__dlpack__(stream=...) or, for torch tensors on the
 * consumer's own stream, torch._C._to_dlpack (same capsule, without the
 * Python-level wrapper's cost). torch 1.x cannot export bool: it goes as
 * uint8 and is relabelled. */
#include "binding.h"

/* torch's dtype objects the direct path knows, with their DLPack types;
 * filled once torch is there. */
static struct {
  const char *name;
  DLDataType dl;
  PyObject *obj;
} torch_dtypes[] = {
    {"float32", {kDLFloat, 32, 1}, NULL}, {"bfloat16", {kDLBfloat, 16, 1}, NULL}, {"float16", {kDLFloat, 16, 1}, NULL},
    {"float64", {kDLFloat, 64, 1}, NULL}, {"int64", {kDLInt, 64, 1}, NULL},       {"int32", {kDLInt, 32, 1}, NULL},
    {"bool", {6 /* kDLBool */, 8, 1}, NULL}, {"int16", {kDLInt, 16, 1}, NULL},    {"int8", {kDLInt, 8, 1}, NULL},
    {"uint8", {kDLUInt, 8, 1}, NULL},
};
#define NTORCH_DTYPES (sizeof torch_dtypes / sizeof *torch_dtypes)

static PyObject *s_is_cuda, *s_is_cpu, *s_get_device, *s_dtype, *s_data_ptr, *s_size, *s_stride, *s_dlpack;
static int direct_ready; /* 1 ready, -1 unusable */

static int direct_init(void) {
  if (direct_ready) return direct_ready;
  direct_ready = -1;
  s_is_cuda = PyUnicode_InternFromString("is_cuda");
  s_is_cpu = PyUnicode_InternFromString("is_cpu");
  s_get_device = PyUnicode_InternFromString("get_device");
  s_dtype = PyUnicode_InternFromString("dtype");
  s_data_ptr = PyUnicode_InternFromString("data_ptr");
  s_size = PyUnicode_InternFromString("size");
  s_stride = PyUnicode_InternFromString("stride");
  if (!s_is_cuda || !s_is_cpu || !s_get_device || !s_dtype || !s_data_ptr || !s_size || !s_stride) return PyErr_Clear(), -1;
  for (size_t k = 0; k < NTORCH_DTYPES; k++) {
    torch_dtypes[k].obj = PyObject_GetAttrString(py_torch.torch, torch_dtypes[k].name);
    if (!torch_dtypes[k].obj) PyErr_Clear(); /* an older torch: that dtype takes DLPack */
  }
  return direct_ready = 1;
}

/* n int64 values of a tuple (torch.Size is a tuple) into out; 0 on success. */
static int int64s(PyObject *tuple, int64_t *out, Py_ssize_t n) {
  if (!tuple || !PyTuple_Check(tuple) || PyTuple_Size(tuple) != n) return -1;
  for (Py_ssize_t d = 0; d < n; d++) {
    out[d] = PyLong_AsLongLong(PyTuple_GetItem(tuple, d));
    if (out[d] == -1 && PyErr_Occurred()) return -1;
  }
  return 0;
}

/* 1: x (a torch tensor) read into out; 0: not a tensor the direct path
 * takes (no exception left: DLPack will take it, or say why not). */
static int take_torch_direct(PyObject *x, taken *out) {
  if (direct_init() < 0) return 0;
  PyObject *v = PyObject_GetAttr(x, s_is_cuda);
  int cuda = v == Py_True, cpu = 0;
  Py_XDECREF(v);
  if (!cuda) { /* CPU tensors too (so the CPU tests run this path); meta, XPU...: DLPack */
    v = PyObject_GetAttr(x, s_is_cpu);
    cpu = v == Py_True;
    Py_XDECREF(v);
  }
  if (!cuda && !cpu) return PyErr_Clear(), 0;
  PyObject *dt = PyObject_GetAttr(x, s_dtype);
  const DLDataType *dl = NULL;
  for (size_t k = 0; dt && k < NTORCH_DTYPES && !dl; k++)
    if (torch_dtypes[k].obj == dt) dl = &torch_dtypes[k].dl;
  Py_XDECREF(dt);
  if (!dl) return PyErr_Clear(), 0;
  PyObject *dev = cuda ? PyObject_CallMethodObjArgs(x, s_get_device, NULL) : PyLong_FromLong(0);
  PyObject *ptr = dev ? PyObject_CallMethodObjArgs(x, s_data_ptr, NULL) : NULL;
  PyObject *size = ptr ? PyObject_CallMethodObjArgs(x, s_size, NULL) : NULL;
  PyObject *stride = size ? PyObject_CallMethodObjArgs(x, s_stride, NULL) : NULL;
  Py_ssize_t rank = size && PyTuple_Check(size) ? PyTuple_Size(size) : -1;
  int ok = stride && rank >= 0 && rank <= FUSER_TENSOR_MAX_RANK;
  long ordinal = ok ? PyLong_AsLong(dev) : -1;
  unsigned long long data = ok ? PyLong_AsUnsignedLongLong(ptr) : 0;
  ok = ok && ordinal >= 0 && !PyErr_Occurred() && !int64s(size, out->shape, rank) && !int64s(stride, out->strides, rank);
  Py_XDECREF(dev);
  Py_XDECREF(ptr);
  Py_XDECREF(size);
  Py_XDECREF(stride);
  if (!ok) return PyErr_Clear(), 0;
  memset(&out->t, 0, sizeof out->t);
  out->capsule = NULL;
  out->t.data = (void *)(uintptr_t)data;
  out->t.device = (DLDevice){cuda ? kDLCUDA : kDLCPU, (int32_t)ordinal};
  out->t.ndim = (int32_t)rank;
  out->t.dtype = *dl;
  out->t.shape = out->shape;
  out->t.strides = out->strides;
  return 1;
}

int py_take_tensor(PyObject *x, size_t i, PyObject *stream, taken *out) {
  out->capsule = NULL;
  bool torch = py_is_torch_tensor(x), as_bool = false;
  if (torch && !stream && take_torch_direct(x, out)) return 0;
  PyObject *src = Py_NewRef(x);
  if (torch) {
    PyObject *dt = PyObject_GetAttrString(x, "dtype");
    as_bool = dt == py_torch.torch_bool;
    Py_XDECREF(dt);
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
