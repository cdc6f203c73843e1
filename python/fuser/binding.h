/* binding.h: what the files of fuser's Python binding (fuser._C) share.
 *
 * fuser._C is a CPython extension on the limited API (one build for Python
 * >= 3.11) over libfuser's public API (fuser/definition.h, fuser/fuser.h):
 *   _C.c          the module: its state, types, functions and init
 *   values.c      DataType, Tensor/Scalar/Vector, fd.ops and recording a
 *                 call (Python arguments -> fuser_def_arg)
 *   definition.c  the FusionDefinition type (with, define_*, ir, hash)
 *   execute.c     fd.execute: inputs, device and stream, checks, the call,
 *                 outputs; its phase timing (fuser.bench)
 *   tensor_in.c   input tensors through DLPack
 *   tensor_out.c  outputs as the caller's framework's tensors (DLPack)
 *   torch_cuda.c  torch's entry points: the current stream, the caching
 *                 allocator; the runtimes and the process-wide fusion cache
 *   exchange_api.c DLPack's C exchange API: inputs, the current stream and
 *                 outputs without a Python call (torch >= 2.10)
 *   exchange_alloc.c output memory from the producer's allocator through
 *                 that table (no Python call)
 * Names shared between files start with py_ (the module links libfuser's
 * static archives in some builds; hidden visibility keeps them private). */
#ifndef FUSER_PYTHON_BINDING_H
#define FUSER_PYTHON_BINDING_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dlpack/dlpack.h>

#include "fuser/definition.h"

/* ---- module state (_C.c) ---------------------------------------------- */

extern PyObject *FuserError;     /* fuser.FuserError(RuntimeError) */
extern PyTypeObject *DataTypeT;  /* fuser.DataType */
extern PyTypeObject *FDT;        /* fuser.FusionDefinition */
extern PyTypeObject *TensorT, *ScalarT, *VectorT;
extern PyTypeObject *OpsT, *OpT; /* fd.ops and one fd.ops.<name> */
extern PyTypeObject *HolderT;    /* a DLPack capsule with __dlpack__, for from_dlpack consumers */

#define NDTYPES 17
extern const char *const dtype_names[NDTYPES];
extern const int dtype_codes[7];
extern PyObject *dtype_objs[NDTYPES];

typedef struct {
  PyObject_HEAD
  const char *name;
  int code;
} DataTypeObj;

/* A type's name for messages (limited API: no tp_name). */
const char *py_type_name(PyObject *o);
PyObject *py_raise_fuser(const fuser_error *err);

/* ---- values and definitions ----------------------------------------------- */

typedef struct FDObj FDObj;

typedef struct {
  PyObject_HEAD
  FDObj *fd;
  int64_t id;
} ValueObj;

/* Process-wide cache of libfuser fusions: one per definition IR, device and
 * allocator (nvFuser's FusionCache; entries live as long as the process). */
typedef struct py_exchange_api py_exchange_api;
typedef struct cache_entry {
  struct cache_entry *next;
  uint64_t hash;
  char *ir;
  int device, allocator;    /* allocator: a py_allocator_kind */
  const py_exchange_api *api; /* PY_ALLOC_EXCHANGE: whose table */
  fuser_fusion *fusion;
} cache_entry;

/* Where a call's CUDA outputs come from (one runtime, hence one fusion, per
 * device and kind): the runtime's caching allocator; torch's caching
 * allocator through torch._C's raw_alloc/raw_delete (Python calls); the
 * producer's allocator through its DLPack exchange table (C calls). */
typedef enum { PY_ALLOC_RUNTIME, PY_ALLOC_TORCH_PYTHON, PY_ALLOC_EXCHANGE, PY_ALLOC_KINDS } py_allocator_kind;

#define MAX_DEVICES 16
struct FDObj {
  PyObject_HEAD
  PyObject *dict; /* subclasses' attributes */
  fuser_definition *def;
  int state;      /* 0 new, 1 recording, 2 finished, 3 failed */
  char *ir;       /* after finish, for cache lookups */
  cache_entry *fusion[MAX_DEVICES + 1][PY_ALLOC_KINDS]; /* [device][allocator kind]; [MAX_DEVICES][0]: the CPU */
  size_t ninputs;
  fuser_def_value_info *inputs; /* what each input takes, for nvFuser's checks */
};

typedef struct {
  PyObject_HEAD
  FDObj *fd;
} OpsObj;

extern PyType_Spec py_dtype_spec, py_tensor_spec, py_scalar_spec, py_vector_spec, py_ops_spec, py_op_spec;
extern PyType_Spec py_holder_spec, py_fd_spec;

/* Records fd.<method>(*args, **kwargs) into the definition (values.c). */
PyObject *py_record(FDObj *fd, const char *method, PyObject *args, PyObject *kwargs);
/* Defines a subclass with definition(self) on first use (definition.c). */
int py_define_if_needed(FDObj *fd);
PyObject *py_fd_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames); /* execute.c */

/* ---- torch (torch_cuda.c) ------------------------------------------------ */

/* What the caller's tensors are, to give outputs back in kind. */
typedef enum { FW_NONE, FW_TORCH, FW_NUMPY, FW_OTHER } framework;

typedef struct {
  PyObject *torch;          /* the torch module once imported by the caller */
  PyObject *torch_tensor;   /* torch.Tensor */
  PyObject *torch_to_dlpack, *torch_from_dlpack, *torch_bool, *torch_uint8;
  PyObject *raw_stream;     /* torch._C._cuda_getCurrentRawStream, or NULL */
} torch_api;
extern torch_api py_torch;

/* torch's C-level entry points, found once torch is imported (we never
 * import it ourselves). */
bool py_have_torch(void);
bool py_is_torch_tensor(PyObject *o);
/* The consumer stream: the `stream` argument (an int CUstream or an object
 * with .cuda_stream), else torch's current stream on the device. */
int py_stream_of(PyObject *stream, framework fw, int device, void **out);
/* _set_allocator: "torch" (the default: the caller's allocator),
 * "torch_python" (torch's through Python calls, for the benchmark) or
 * "runtime" (the runtime's, also for torch callers). */
typedef enum { PY_CHOOSE_CALLER, PY_CHOOSE_TORCH_PYTHON, PY_CHOOSE_RUNTIME } py_allocator_choice;
extern py_allocator_choice py_allocator_chosen;
/* The allocator kind of a call on CUDA from framework fw whose inputs went
 * through exchange table api (or NULL): the one rule for fd.execute and
 * the benchmark's C API loop. */
py_allocator_kind py_allocator_for(framework fw, const py_exchange_api *api);
/* The fusion of fd for (device slot, allocator kind, api), made on first
 * use. */
cache_entry *py_fusion_for(FDObj *fd, int device, py_allocator_kind kind, const py_exchange_api *api, fuser_error *err);

/* DLPack 1.3's DLPackExchangeAPI, the same layout (Debian's dlpack.h is
 * 0.6): the stable header (version, the previous table), then the
 * producer's entry points. */
struct py_exchange_api {
  DLPackVersion version;
  const void *prev_api;
  int (*managed_tensor_allocator)(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                                  void (*set_error)(void *error_ctx, const char *kind, const char *message));
  int (*managed_tensor_from_py_object_no_sync)(void *py_object, DLManagedTensorVersioned **out);
  int (*managed_tensor_to_py_object_no_sync)(DLManagedTensorVersioned *tensor, void **out_py_object);
  int (*dltensor_from_py_object_no_sync)(void *py_object, DLTensor *out);
  int (*current_work_stream)(DLDeviceType device_type, int32_t device_id, void **out_current_stream);
};

/* ---- tensors in and out (tensor_in.c, tensor_out.c) ---------------------- */

/* One input tensor: the DLPack capsule (kept until the call is over) and
 * our copy of its DLTensor (bool relabelled where torch exported uint8). */
typedef struct {
  PyObject *capsule;
  DLTensor t;
} taken;

/* Takes input x (number i, for messages); stream: the consumer stream for
 * __dlpack__(stream=...), NULL for none. Returns 0 or -1 (exception set). */
int py_take_tensor(PyObject *x, size_t i, PyObject *stream, taken *out);
/* An output (which we own) as a DLManagedTensor for the caller's framework;
 * `input` is kept alive by it (aliases). On failure releases out, sets an
 * exception and returns NULL. */
DLManagedTensor *py_managed_output(fuser_runtime *rt, fuser_output *out, PyObject *input, fuser_error *err);
/* A managed output as the caller's kind of tensor (consumes m): through
 * the exchange table `api` of the inputs' type when there is one. */
PyObject *py_give_tensor(DLManagedTensor *m, framework fw, PyObject *from_dlpack, const py_exchange_api *api);

/* ---- DLPack's C exchange API (exchange_api.c; the table is above) ---------- */

/* The exchange table of x's type, or NULL (none, not version 1, or
 * FUSER_PY_EXCHANGE_API=0). */
const py_exchange_api *py_exchange_api_of(PyObject *x);
/* Input x through the table: a borrowed DLTensor (x stays alive in the
 * call's argument tuple), no capsule. 0, or 1 when the producer refused
 * (no exception: the caller takes x the DLPack way, which reports). */
int py_exchange_take(const py_exchange_api *api, PyObject *x, taken *out);
/* The producer's current stream on CUDA device_id: 0, -1 (exception set),
 * or 1 when the table has no current_work_stream. */
int py_exchange_stream(const py_exchange_api *api, int device_id, void **stream);
/* How many exchange tables (producer types) are looked up and kept. */
#define PY_EXCHANGE_TABLES 8

/* ---- the producer's allocator through its table (exchange_alloc.c) ---------- */

/* Allocator callbacks over api->managed_tensor_allocator on CUDA device
 * `device` (api must have one); all-zero when out of slots. */
fuser_allocator py_exchange_allocator(const py_exchange_api *api, int device);
/* The last allocation failure's message (this thread), "" if none. */
const char *py_exchange_alloc_error(void);
/* Allocations handed out and not yet freed (the tests). */
size_t py_exchange_alloc_live(void);

/* ---- timing (execute.c) ----------------------------------------------------- */

/* In call order: the arguments, the inputs' DLTensors, the stream query,
 * nvFuser's checks, libfuser's execute (signature, cache lookup, launch;
 * without the allocator callbacks), the caller's allocator callbacks for
 * the outputs, the outputs as framework tensors; then, when an output
 * dies, our deleter and the caller allocator's free. */
enum { P_ARGS, P_INPUTS, P_STREAM, P_CHECK, P_EXEC, P_ALLOC, P_OUTPUTS, P_RELEASE, P_FREE, P_COUNT };
extern const char *const py_phase_names[P_COUNT];
extern bool py_timing;
extern uint64_t py_phase_ns[P_COUNT], py_timed_calls;
uint64_t py_now_ns(void);
/* Where the last fd.execute's outputs lie (data + byte_offset, the first
 * PY_LAST_OUTPUTS): _C._last_output_pointers, so that a test can tell a
 * returned tensor is fuser's memory and not a copy. */
#define PY_LAST_OUTPUTS 16
extern uintptr_t py_last_output_ptrs[PY_LAST_OUTPUTS];
extern size_t py_last_outputs;

#endif
