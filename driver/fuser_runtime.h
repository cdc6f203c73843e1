/* fuser_runtime.h: run compiled fusions (artifacts) on an NVIDIA GPU through
 * the CUDA driver API. The whole public API of the runtime is in this header.
 *
 * The runtime needs only libc and libcuda.so.1, which it opens at run time
 * (dlopen): it builds and its CPU-side functions (artifact reading, writing,
 * describing, input checking) work on a machine without a GPU; the functions
 * that need the GPU then fail with FUSER_ERR_NO_DRIVER.
 *
 * Typical use (error handling elided; see docs/runtime.md):
 *
 *   fuser_runtime *rt;  fuser_artifact *art;  fuser_function *fn;  fuser_error err;
 *   fuser_runtime_create(0, stream, NULL, &rt, &err);        // device 0, caller's stream
 *   fuser_artifact_read_file("fusion.fart", &art, &err);
 *   fuser_load(rt, art, &fn, &err);                           // JIT/link modules once
 *   fuser_artifact_release(art);                              // fn keeps its own reference
 *   fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_int(7)};
 *   fuser_output out[1];
 *   fuser_execute(fn, args, 2, out, 1, &err);                 // stream-ordered, no sync
 *   ... use out[0].tensor ...
 *   fuser_output_release(rt, &out[0]);                        // stream-ordered free
 *
 * A framework that switches streams passes the stream per call instead:
 * fuser_execute_on(fn, stream, ...).
 *
 * Ownership: every object returned through an out-pointer belongs to the
 * caller and is released with its _release or _destroy function. A
 * fuser_function holds a reference to its artifact and runtime-level module
 * cache entries; destroy functions before their runtime.
 *
 * Threads: fuser_execute on one fuser_function may run concurrently from
 * several threads (it keeps per-call state on the stack; the function's
 * call-plan memo is taken with a try-lock, and a thread that finds it busy
 * plans its call from scratch), on the runtime's stream or each on its own
 * (fuser_execute_on), as long as the runtime's stream is not changed
 * meanwhile. Loading and destroying are serialised internally where
 * they touch the shared module cache. */
#ifndef FUSER_RUNTIME_H
#define FUSER_RUNTIME_H

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------- */

/* The API version of this header. FUSER_API_VERSION grows with every
 * change of the API (MAJOR changes only with incompatible ones); a program
 * compares it with fuser_api_version(), the version the library it runs
 * against was built with. */
#define FUSER_VERSION_MAJOR 0
#define FUSER_VERSION_MINOR 2
#define FUSER_VERSION_PATCH 0
#define FUSER_VERSION_STRING "0.2.0"
#define FUSER_API_VERSION (FUSER_VERSION_MAJOR * 10000 + FUSER_VERSION_MINOR * 100 + FUSER_VERSION_PATCH)

/* FUSER_API_VERSION of the header the library was built with. */
int fuser_api_version(void);
/* FUSER_VERSION_STRING of the library ("0.2.0"). */
const char *fuser_version_string(void);

/* ---- DLPack 1.0 managed tensors ----------------------------------------- */

/* DLPack >= 1.0 defines DLManagedTensorVersioned; older headers (Debian 12
 * ships 0.6) do not, so this header defines DLPack 1.0's types itself, with
 * the same names and layout (DLTensor is unchanged since 0.6). */
#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)
#endif

/* ---- errors --------------------------------------------------------- */

/* Every function returning int returns one of these. */
typedef enum fuser_status {
  FUSER_OK = 0,
  FUSER_ERR_INVALID_ARGUMENT = 1, /* NULL where an object is needed, wrong counts */
  FUSER_ERR_NO_DRIVER = 2,        /* libcuda.so.1 missing or lacking an entry point */
  FUSER_ERR_CUDA = 3,             /* a driver call failed; message names it */
  FUSER_ERR_OUT_OF_MEMORY = 4,    /* host or device allocation failed */
  FUSER_ERR_IO = 5,               /* a file could not be read or written */
  FUSER_ERR_ARTIFACT_FORMAT = 6,  /* not an artifact, truncated, checksum mismatch, malformed */
  FUSER_ERR_ARTIFACT_VERSION = 7, /* an artifact of a format version this runtime cannot read */
  FUSER_ERR_ARTIFACT_INVALID = 8, /* well-formed bytes, inconsistent plan (bad index, bad expression) */
  FUSER_ERR_INPUT_MISMATCH = 9,   /* an input does not match the artifact's signature */
  FUSER_ERR_NO_VARIANT = 10,      /* no kernel variant's conditions hold for these inputs */
  FUSER_ERR_EXPRESSION = 11,      /* an expression failed (division by zero, negative size, overflow) */
  FUSER_ERR_ALLOCATOR = 12,       /* the caller's allocator callback failed */
  FUSER_ERR_COMPILE = 13,         /* libfuser (fuser/fuser.h): the fusion failed to import or compile */
  FUSER_ERR_UNSUPPORTED = 14,     /* something this build or this fusion cannot do (e.g. a CPU backend it lacks) */
  FUSER_ERR_INDEX = 15,           /* an index op (index_select, gather, take_along_axis) met an index out of range */
} fuser_status;

/* Filled by every function that takes one (it may be NULL). On success code
 * is FUSER_OK and message is empty. A message may hold several lines: a
 * failed import or compile gives every diagnostic, one per line, each
 * "file:line:col: error: ..." (a note as "file:line:col: note: ..."); one
 * that does not fit ends the text with "... (N more diagnostics)". */
#define FUSER_ERROR_MESSAGE_SIZE 4096
typedef struct fuser_error {
  int code;
  char message[FUSER_ERROR_MESSAGE_SIZE];
} fuser_error;

/* A short constant name for a status ("FUSER_ERR_NO_DRIVER"). */
const char *fuser_status_name(int status);

/* ---- data types ----------------------------------------------------- */

typedef enum fuser_data_type {
  FUSER_TYPE_BOOL = 1,
  FUSER_TYPE_U8,
  FUSER_TYPE_I8,
  FUSER_TYPE_I16,
  FUSER_TYPE_I32,
  FUSER_TYPE_I64,
  FUSER_TYPE_F16,
  FUSER_TYPE_BF16,
  FUSER_TYPE_F32,
  FUSER_TYPE_F64,
  FUSER_TYPE_C64,
  FUSER_TYPE_C128,
  FUSER_TYPE_COUNT_
} fuser_data_type;

/* "bf16", "f32", ... ; NULL for an unknown value. */
const char *fuser_type_name(int dtype);
/* Bytes per element; 0 for an unknown value. */
size_t fuser_type_size(int dtype);
/* The DLPack type of a dtype (bool is {6 = kDLBool, 8, 1} as in DLPack >= 0.8). */
DLDataType fuser_type_to_dlpack(int dtype);

/* Largest rank of a tensor input or output. */
#define FUSER_TENSOR_MAX_RANK 16

/* ---- call arguments -------------------------------------------------- */

typedef enum fuser_arg_kind { FUSER_ARG_TENSOR = 1, FUSER_ARG_INT = 2, FUSER_ARG_DOUBLE = 3 } fuser_arg_kind;

/* One input, in the artifact's input order. Integer and bool scalar inputs
 * take FUSER_ARG_INT, floating ones FUSER_ARG_DOUBLE. The DLTensor is only
 * read during the call; it must describe device memory of the runtime's
 * device (kDLCUDA; kDLCPU host memory for libfuser's CPU execution).
 * strides == NULL means compact row-major. */
typedef struct fuser_arg {
  int kind;
  union {
    const DLTensor *tensor;
    int64_t i;
    double d;
  };
} fuser_arg;

static inline fuser_arg fuser_arg_tensor(const DLTensor *t) { fuser_arg a; a.kind = FUSER_ARG_TENSOR; a.tensor = t; return a; }
static inline fuser_arg fuser_arg_int(int64_t v) { fuser_arg a; a.kind = FUSER_ARG_INT; a.i = v; return a; }
static inline fuser_arg fuser_arg_double(double v) { fuser_arg a; a.kind = FUSER_ARG_DOUBLE; a.d = v; return a; }

/* An input from a DLPack managed tensor: *out refers to m->dl_tensor, which
 * must stay valid during the call. Ownership stays with the caller (fuser
 * never calls m->deleter). FUSER_ERR_INVALID_ARGUMENT for NULL or a DLPack
 * major version other than DLPACK_MAJOR_VERSION (1). */
int fuser_arg_from_managed(const DLManagedTensorVersioned *m, fuser_arg *out, fuser_error *err);

/* Who allocated an output's memory (fuser_output.allocated_by). */
typedef enum fuser_allocated_by {
  FUSER_ALLOCATED_NONE = 0,    /* aliases and empty outputs: nothing to free */
  FUSER_ALLOCATED_CALLER = 1,  /* the caller's allocator callbacks */
  FUSER_ALLOCATED_RUNTIME = 2, /* the runtime: its caching allocator, or cuMemAllocAsync */
  FUSER_ALLOCATED_HOST = 3,    /* host memory of a CPU execution (libfuser), freed with free() */
} fuser_allocated_by;

/* One output, filled by fuser_execute. tensor.shape and tensor.strides point
 * into this struct's own arrays, so do not copy the struct by value and use
 * the copy's tensor (re-point shape/strides if you must copy). */
typedef struct fuser_output {
  DLTensor tensor;
  int64_t shape[FUSER_TENSOR_MAX_RANK];
  int64_t strides[FUSER_TENSOR_MAX_RANK]; /* in elements, as DLPack */
  void *allocation;                /* what fuser_output_release frees; NULL for aliases and empty outputs */
  size_t bytes;                    /* size of allocation */
  int alias_of;                    /* input index whose memory this output shares, or -1 */
  int allocated_by;                /* a fuser_allocated_by */
  void *stream;                    /* the CUstream of the call that made it (NULL for host outputs) */
} fuser_output;

/* ---- allocation ------------------------------------------------------ */

/* A stream-ordered device allocator supplied by the caller (e.g. a
 * framework's caching allocator). alloc returns 0 and a device pointer of at
 * least `bytes` bytes, aligned to 256 bytes, usable by work queued on
 * `stream` after the call; free returns memory after the work queued on
 * `stream` so far. stream is a CUstream. */
typedef struct fuser_allocator {
  void *ctx;
  int (*alloc)(void *ctx, size_t bytes, void *stream, void **ptr);
  void (*free)(void *ctx, void *ptr, size_t bytes, void *stream);
} fuser_allocator;

/* ---- runtime ----------------------------------------------------------- */

typedef struct fuser_runtime fuser_runtime;

/* A runtime on CUDA device `device` (ordinal) in its primary context, queuing
 * work on `stream` (a CUstream; NULL = the legacy default stream). With
 * allocator == NULL outputs and intermediates come from the runtime's
 * caching allocator: blocks freed on a stream are kept and handed out again
 * to later allocations on that stream (stream order makes that safe without
 * events, as in PyTorch's caching allocator), so a cached call makes no
 * driver call for memory; new blocks come from cuMemAllocAsync on the
 * device's default memory pool, set to keep freed memory (release threshold
 * UINT64_MAX). The environment variable FUSER_DEVICE_CACHE=0 (read here)
 * turns the caching off: every allocation is a cuMemAllocAsync and every
 * free a cuMemFreeAsync on its stream. Otherwise memory comes from the
 * callbacks (copied). The primary context becomes current on the calling
 * thread; fuser_execute makes it current again where another thread calls
 * it. */
int fuser_runtime_create(int device, void *stream, const fuser_allocator *allocator,
                         fuser_runtime **out, fuser_error *err);
/* Changes the stream later fuser_execute calls queue on. Not to be called
 * while other threads execute on this runtime: a framework that switches
 * streams passes the stream per call instead (fuser_execute_on). */
void fuser_runtime_set_stream(fuser_runtime *rt, void *stream);
void *fuser_runtime_stream(const fuser_runtime *rt);
/* The CUcontext (primary context) the runtime makes current. */
void *fuser_runtime_context(const fuser_runtime *rt);
/* Releases the primary context reference; functions must be destroyed
 * first, and outputs released. Gives the caching allocator's free blocks
 * back (after synchronising the context). */
void fuser_runtime_destroy(fuser_runtime *rt);

/* The caching allocator's counts (all zero when it is off or the runtime
 * has an allocator callback). */
typedef struct fuser_device_cache_stats {
  uint64_t hits;          /* allocations served from a free block of their stream */
  uint64_t misses;        /* allocations that asked the driver (cuMemAllocAsync) */
  uint64_t frees;         /* blocks given back to the driver */
  uint64_t in_use_blocks, in_use_bytes; /* held by outputs (and by calls in flight) */
  uint64_t idle_blocks, idle_bytes;     /* free, kept for reuse */
} fuser_device_cache_stats;
void fuser_runtime_cache_stats(fuser_runtime *rt, fuser_device_cache_stats *out);
/* Synchronises the runtime's context and gives every free cached block
 * back to the driver (blocks held by live outputs stay). Call it to return
 * memory to other users of the device, or before destroying a stream on a
 * driver older than CUDA 12 (there the cache tells streams apart by handle,
 * and a new stream could get a destroyed one's handle). Returns FUSER_OK or
 * FUSER_ERR_CUDA. */
int fuser_runtime_empty_cache(fuser_runtime *rt, fuser_error *err);

/* ---- artifacts --------------------------------------------------------- */

typedef struct fuser_artifact fuser_artifact;

/* Reads an artifact; checks magic, version, lengths, checksum, then every
 * index and expression of the plan. Corrupt input gives an error, never a
 * crash. The bytes are not kept. */
int fuser_artifact_read_bytes(const void *data, size_t size, fuser_artifact **out, fuser_error *err);
int fuser_artifact_read_file(const char *path, fuser_artifact **out, fuser_error *err);
/* Serialises to a malloc'd buffer (free it with free()). */
int fuser_artifact_write_bytes(const fuser_artifact *a, void **data, size_t *size, fuser_error *err);
int fuser_artifact_write_file(const fuser_artifact *a, const char *path, fuser_error *err);
/* Artifacts are reference counted: retain adds one, release drops one and
 * frees the artifact at zero. Creators hold one reference. */
void fuser_artifact_retain(fuser_artifact *a);
void fuser_artifact_release(fuser_artifact *a);
/* Prints the signature and plan readably. */
void fuser_artifact_describe(const fuser_artifact *a, FILE *out);

size_t fuser_artifact_num_inputs(const fuser_artifact *a);
size_t fuser_artifact_num_outputs(const fuser_artifact *a);
size_t fuser_artifact_num_kernels(const fuser_artifact *a);
/* The metadata the compiler attached under `key` (fuser_builder_set_metadata),
 * or NULL; *size gets its length. The bytes are followed by a NUL (so text
 * can be used as a C string) and live as long as the artifact. */
const void *fuser_artifact_metadata(const fuser_artifact *a, const char *key, size_t *size);

/* Checks inputs against the signature (kind, dtype, rank, static sizes,
 * strides against contiguity and stride order, device type) and picks each
 * kernel's variant (first whose conditions hold). variants, if not NULL,
 * receives one variant index per kernel. This is exactly the check
 * fuser_execute makes before it allocates or launches anything; it needs no
 * GPU (device pointers are not dereferenced), so a framework can use it to
 * test whether a cached artifact accepts new inputs. */
int fuser_artifact_check_inputs(const fuser_artifact *a, const fuser_arg *args, size_t nargs,
                                int *variants, fuser_error *err);

/* ---- layouts of call inputs (for compiling and caching by signature) ---- */

/* A DLTensor's layout in nvFuser's terms, ready for
 * fuser_builder_add_tensor_input: a compiler that specialises on the layout
 * of the first call's inputs (like nvFuser's FusionExecutorCache) calls this
 * per tensor input. */
typedef struct fuser_layout {
  int rank;
  int64_t contiguity[FUSER_TENSOR_MAX_RANK];   /* allocation order: 1 True, 0 False, -1 None (broadcast) */
  int64_t stride_order[FUSER_TENSOR_MAX_RANK]; /* nvFuser's: stride rank of logical dim d, 0 fastest */
  int64_t alignment;                    /* largest of 16, 8, 4, 2, 1 dividing data + byte_offset */
} fuser_layout;

/* Rules: a dim of size 1 or stride 0 is a broadcast (None). The other dims
 * are ordered by stride, largest outermost, ties in logical order; a
 * broadcast dim sits just outside the next non-broadcast dim to its right
 * (innermost if none), so row-major stays row-major. Walking that order
 * from the innermost dim with expected = 1, a dim whose stride equals
 * `expected` is True, any other is False, and expected becomes stride *
 * size. A signature built from this layout accepts the tensor
 * (fuser_artifact_check_inputs), and it marks True every dim that can be.
 * Negative strides are refused (FUSER_ERR_INPUT_MISMATCH). */
int fuser_tensor_layout(const DLTensor *t, fuser_layout *out, fuser_error *err);

/* A 64-bit key of what a compiled artifact specialises on: per argument its
 * kind; for tensors dtype, rank, layout (contiguity, stride order, hence
 * broadcast dims) and alignment; for scalars the kind only (values and
 * tensor extents are not part of it). Equal keys mean the same layout class;
 * a cache keyed by it should still confirm a hit with
 * fuser_artifact_check_inputs (static sizes, hash collisions). No
 * allocation; about 100 ns for a few inputs. */
uint64_t fuser_signature_hash(const fuser_arg *args, size_t nargs);

/* ---- loaded functions and execution ------------------------------------ */

typedef struct fuser_function fuser_function;

/* Loads the artifact's modules into the runtime's context (cuModuleLoadDataEx;
 * a module already loaded in that context from identical bytes is shared)
 * and resolves every kernel variant. Takes a reference to the artifact. */
int fuser_load(fuser_runtime *rt, fuser_artifact *a, fuser_function **out, fuser_error *err);
void fuser_function_destroy(fuser_function *fn);
const fuser_artifact *fuser_function_artifact(const fuser_function *fn);
/* Registers per thread of kernel k's variant v (cuFuncGetAttribute). */
int fuser_function_registers(const fuser_function *fn, size_t kernel, size_t variant);

/* Runs the fusion: validates the inputs (see fuser_artifact_check_inputs),
 * allocates outputs and intermediates (allocator or cuMemAllocAsync), queues
 * the kernels on the runtime's stream, queues the intermediates' free, and
 * returns without synchronising. Every check, every expression and every
 * allocation happens before the first launch: an error there launches
 * nothing and leaves nothing allocated. Only a driver failure of
 * cuLaunchKernel itself can come after earlier kernels of the same call were
 * queued; the outputs are released then too. outputs[k] is filled for
 * k < noutputs (noutputs must equal fuser_artifact_num_outputs).
 *
 * A function remembers the plan of its last successful call (variants,
 * grids, parameter values, output shapes, temp sizes) keyed by the call's
 * signature: dtypes, ranks, devices, sizes, strides, the address residues
 * its alignment conditions test, integer scalar values. A call with the same
 * signature reuses the plan and only adds its pointers and floating scalars;
 * any other call is checked and planned in full (docs/runtime.md, "The hot
 * path", says why the reuse is exact). FUSER_EXECUTE_MEMO=0 in the
 * environment when fuser_load runs turns this off for that function. */
int fuser_execute(fuser_function *fn, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                  size_t noutputs, fuser_error *err);

/* fuser_execute on `stream` (a CUstream; NULL is the legacy default stream)
 * instead of the runtime's: allocations, launches and frees of this call
 * are ordered on it, and outputs[k].stream records it. Calls on different
 * streams from different threads on one function are safe (the runtime's
 * stream is not read). fuser_execute(fn, ...) is
 * fuser_execute_on(fn, fuser_runtime_stream(rt), ...). */
int fuser_execute_on(fuser_function *fn, void *stream, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                     size_t noutputs, fuser_error *err);

/* Returns an output's memory, stream-ordered on the runtime's current stream,
 * through whoever allocated it (pass the runtime that executed the call: its
 * allocator callbacks are used); a no-op for aliases and empty outputs.
 * Host outputs (FUSER_ALLOCATED_HOST) are freed at once; rt may be NULL for
 * them. */
void fuser_output_release(fuser_runtime *rt, fuser_output *out);
/* The same, ordered on `stream` instead of the runtime's stream. */
void fuser_output_release_on(fuser_runtime *rt, fuser_output *out, void *stream);

/* Moves an output into a new DLManagedTensorVersioned (version 1.0, flags
 * 0): *managed owns the output's memory from now on and *out no longer
 * does (its allocation is cleared; do not release it). The deleter returns
 * the memory through whoever allocated it: the allocator callbacks of `rt`
 * or the runtime's caching allocator, ordered on out->stream (the stream of the call that
 * made it), or free() for host outputs; then it frees the managed tensor.
 * So `rt` must outlive the managed tensor (rt may be NULL for host outputs).
 * For an alias output the managed tensor owns only itself: the input whose
 * memory it shares must outlive it. Shape and strides live inside the
 * managed tensor's own allocation. */
int fuser_output_to_managed(fuser_runtime *rt, fuser_output *out, DLManagedTensorVersioned **managed,
                            fuser_error *err);

#ifdef __cplusplus
}
#endif
#endif
