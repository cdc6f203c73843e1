/* fuser/fuser.h: libfuser, the compiler and the runtime together, for
 * frameworks that embed fuser: create a fusion from nvFuser script text (or
 * fuser MLIR text) once, then call it on DLTensors. The first call with a
 * new input signature compiles the fusion for that signature (import once,
 * specialise, compile to an artifact in memory, fuser_load) and caches the
 * loaded function; later calls with the same signature reuse it without
 * compiling (nvFuser's FusionExecutorCache). With a cache directory
 * (options.cache_dir or FUSER_CACHE_DIR) compiled entries are also kept on
 * disk as artifacts, and a later process loads them instead of compiling.
 * Everything else (runtime, arguments, outputs, errors, artifacts, DLPack)
 * is the runtime's API, fuser/fuser_runtime.h, which this header includes.
 * docs/libfuser.md is the user's guide (with a complete example).
 *
 *   fuser_runtime *rt = NULL;  fuser_fusion *f;  fuser_error err;
 *   fuser_runtime_create(0, NULL, NULL, &rt, &err);   // fails without a GPU: keep rt NULL
 *   fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, text, len, "rope.py", NULL, &f, &err);
 *   fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y)};
 *   fuser_output out[1];
 *   fuser_fusion_execute_on(f, stream, args, 2, out, 1, &err);  // compiles on the first call only
 *   ... use out[0].tensor, then fuser_output_release_on(rt, &out[0], stream) ...
 *   fuser_fusion_destroy(f);                                    // before the runtime
 *   fuser_runtime_destroy(rt);
 *
 * Without a GPU (rt == NULL) everything but GPU execution works: compiling
 * to artifacts (fuser_fusion_compile_artifact), the persistent cache, and
 * running on the CPU (fuser_fusion_execute_cpu, or fuser_fusion_execute,
 * which falls back to the CPU) on kDLCPU tensors.
 *
 * The cache key of a call (its signature), per argument in order: tensor
 * or scalar; for a tensor its DLPack dtype, rank, layout in
 * nvFuser's terms from fuser_tensor_layout (contiguity in allocation order,
 * stride order, and so which dims are broadcasts: size 1 or stride 0) and
 * the alignment class (16, 8, 4, 2 or 1 bytes) of data + byte_offset; with
 * specialize_sizes also every extent, else which extents are 0. Scalar
 * values and (by default) tensor extents are not in the key: compiled code
 * takes them as parameters. Lookups compare the whole key, never a hash
 * alone. On disk an entry is keyed by the fusion's hash
 * (fuser_fusion_hash), the signature, the chip and the compiler version
 * (fuser_compiler_version), all of it checked again when the file is read.
 *
 * Threads: the execute functions may be called from several threads at
 * once, each on its own stream. A hit takes no lock and allocates nothing;
 * a miss compiles under the fusion's lock (other threads' misses wait,
 * their hits do not). */
#ifndef FUSER_LIBFUSER_FUSER_H
#define FUSER_LIBFUSER_FUSER_H

#include "fuser_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fuser_fusion fuser_fusion;

/* What the source text of a fusion is. */
typedef enum fuser_source_kind {
  FUSER_SOURCE_NVFUSER = 1, /* an nvFuser FusionDefinition repro script (Python text; read, never run) */
  FUSER_SOURCE_MLIR = 2,    /* a module in the fuser dialect holding one fusion func.func */
} fuser_source_kind;

/* Where a call runs. */
typedef enum fuser_backend {
  FUSER_BACKEND_AUTO = 0,          /* the GPU when the fusion has a runtime, else options.cpu_backend */
  FUSER_BACKEND_GPU = 1,           /* the runtime's device (kDLCUDA tensors) */
  FUSER_BACKEND_CPU_REFERENCE = 2, /* the CPU reference evaluator (kDLCPU tensors): the oracle, slow */
  FUSER_BACKEND_CPU_JIT = 3,       /* the compiled kernels' loops JIT-compiled for the host (kDLCPU tensors) */
} fuser_backend;

/* fuser_fusion_options.specialize_sizes: extents as constants for small calls only. */
#define FUSER_SPECIALIZE_SMALL 2
/* A call is small below this many bytes of tensor arguments (numel x element size, summed). */
#define FUSER_SMALL_CALL_BYTES (4 << 20)
/* At most this many entries per fusion get their small call's extents; later small shapes
 * share their layout class's entry (like torch.compile's recompile limit, then dynamic code). */
#define FUSER_SMALL_SHAPES_MAX 16

/* Compile options; a NULL pointer or zeroed fields mean the defaults. */
typedef struct fuser_fusion_options {
  const char *chip;     /* PTX target, default "sm_90" */
  int unroll;           /* vectors per thread, default 1 */
  int block_size;       /* threads per block, default 128 */
  int specialize_sizes; /* 1: tensor extents join the key and compile as constants (one entry per
                           shape, like fuser-specialize-shapes); 0 (default): one entry per layout class;
                           FUSER_SPECIALIZE_SMALL: as 1 for a call whose tensor arguments hold fewer
                           than FUSER_SMALL_CALL_BYTES (for the first FUSER_SMALL_SHAPES_MAX such
                           shapes), as 0 for larger ones and later shapes (the Python binding's
                           default: a small call's time is its kernel's instruction chain, which static
                           extents shorten; a large one's is memory) */
  const char *cache_dir; /* persistent cache directory (created if missing); NULL: the environment
                            variable FUSER_CACHE_DIR, none when that is unset or empty; "": none */
  int cpu_backend;       /* FUSER_BACKEND_CPU_REFERENCE (0 means it) or FUSER_BACKEND_CPU_JIT: what
                            FUSER_BACKEND_AUTO runs on when the fusion has no runtime */
} fuser_fusion_options;

/* The compiler's version as it enters the persistent cache's key:
 * FUSER_VERSION_STRING and the library's build id ("0.2.0+3f2a...").
 * Entries written by another build are never loaded. */
const char *fuser_compiler_version(void);

/* Imports `len` bytes of `text` (it need not be NUL-terminated; it is not
 * kept), verifies it, and binds the fusion to `rt`, which must outlive it;
 * rt may be NULL (no GPU: compile and CPU execution only). `name` labels
 * the source in error locations ("rope.py:12:5: error: ..."); NULL means
 * "<fusion>". Nothing is compiled yet. A script or module that does not
 * import or verify gives FUSER_ERR_COMPILE with every diagnostic, located,
 * one per line, in err. */
int fuser_fusion_create(fuser_runtime *rt, int source_kind, const char *text, size_t len, const char *name,
                        const fuser_fusion_options *options, fuser_fusion **out, fuser_error *err);

/* Destroys the fusion, its loaded functions and its artifacts. */
void fuser_fusion_destroy(fuser_fusion *f);

/* Runs the fusion on the runtime's stream, exactly like fuser_execute (same
 * arguments, outputs, validation and errors; no synchronisation). On the
 * first call with a signature it first compiles and loads an entry for it:
 * from the fusion as defined, with each tensor argument's contiguity and
 * stride order replaced by the call's actual layout (so any strided input
 * is accepted, and the code is specialised to it), its dtype by the call's
 * dtype when they differ (result types re-inferred), and with
 * specialize_sizes its extents. Errors: FUSER_ERR_INVALID_ARGUMENT (counts,
 * NULL), FUSER_ERR_INPUT_MISMATCH (an argument that cannot match the
 * definition: rank, kind, a static extent, an unsupported dtype, a negative
 * stride), FUSER_ERR_COMPILE (the compiler's message), and those of
 * fuser_load and fuser_execute. When the inputs do not fit together (a
 * broadcast or size mismatch between them) the error is
 * FUSER_ERR_INPUT_MISMATCH naming the inputs and dims. A failed compile is
 * not cached: the next call with that signature tries again. A fusion
 * without a runtime runs on the CPU instead (options.cpu_backend), as
 * fuser_fusion_execute_cpu. */
int fuser_fusion_execute(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                         size_t noutputs, fuser_error *err);

/* fuser_fusion_execute on `stream` (a CUstream) for this call only: the
 * runtime's stream is neither read nor changed, so threads may call it at
 * once on one fusion, each with its own stream (fuser_execute_on). Needs a
 * runtime (FUSER_ERR_NO_DRIVER without). */
int fuser_fusion_execute_on(fuser_fusion *f, void *stream, const fuser_arg *args, size_t nargs,
                            fuser_output *outputs, size_t noutputs, fuser_error *err);

/* Runs the fusion on the host: `backend` is FUSER_BACKEND_CPU_REFERENCE,
 * FUSER_BACKEND_CPU_JIT, or FUSER_BACKEND_AUTO for options.cpu_backend.
 * Tensor arguments are host memory (kDLCPU), any strides. Outputs are new
 * host tensors (FUSER_ALLOCATED_HOST; free with fuser_output_release(NULL,
 * out) or hand them on with fuser_output_to_managed) with the GPU's shapes
 * and dtypes; the CPU JIT also gives the GPU's strides and aliases of
 * inputs (the same plan), the reference row-major copies. No libcuda is
 * needed. Synchronous; serialised with the compiler process-wide. */
int fuser_fusion_execute_cpu(fuser_fusion *f, int backend, const fuser_arg *args, size_t nargs,
                             fuser_output *outputs, size_t noutputs, fuser_error *err);

/* Compiles (or finds) the entry for these arguments without running it
 * (with a runtime it is loaded too). *entry (may be NULL) receives its
 * index. Tensor data is not read (data may be NULL: alignment class 16),
 * nor is the device type: signatures can be compiled with no GPU and no
 * memory. */
int fuser_fusion_compile(fuser_fusion *f, const fuser_arg *args, size_t nargs, size_t *entry, fuser_error *err);

/* fuser_fusion_compile, then *out = a new reference to the entry's artifact
 * (fuser_artifact_release it; fuser_artifact_write_file / _write_bytes
 * serialise it for fuser-run --artifact or the runtime alone). Needs no
 * driver. */
int fuser_fusion_compile_artifact(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_artifact **out,
                                  fuser_error *err);

/* The runtime the fusion was created with (NULL: none). */
fuser_runtime *fuser_fusion_runtime(const fuser_fusion *f);
/* A 64-bit hash of what the fusion compiles from: source kind, text and
 * compile options (not the name). The persistent cache's first key. */
uint64_t fuser_fusion_hash(const fuser_fusion *f);

/* The fusion's inputs and outputs as defined. */
size_t fuser_fusion_num_inputs(const fuser_fusion *f);
size_t fuser_fusion_num_outputs(const fuser_fusion *f);
/* What input i takes: FUSER_ARG_TENSOR, FUSER_ARG_INT (integer and bool
 * scalars) or FUSER_ARG_DOUBLE (floating scalars); 0 for an i out of range. */
int fuser_fusion_input_kind(const fuser_fusion *f, size_t i);

/* The script's example inputs (its `inputs = [...]` block) as recipe text
 * for driver/host_inputs.h (fuser_recipes_parse, fuser_recipe_fill), or
 * NULL when the source has none. Owned by the fusion. Tools use it to run a
 * script on its own inputs (fuser-run). */
const char *fuser_fusion_example_inputs(const fuser_fusion *f);

/* Cache queries. Entries are numbered in the order they were compiled. */
size_t fuser_fusion_num_entries(const fuser_fusion *f);
/* 1 when the last fuser_fusion_execute/compile compiled a new entry, 0 when
 * it found one, -1 before any call or when the last call failed before it
 * had an entry. With several threads, "last" is whichever stored last. */
int fuser_fusion_last_compiled(const fuser_fusion *f);
/* Calls that found their entry / compiled one, since creation. */
uint64_t fuser_fusion_hits(const fuser_fusion *f);
uint64_t fuser_fusion_compiles(const fuser_fusion *f);

/* Counters since creation (a snapshot; each counter is exact). */
typedef struct fuser_fusion_stats {
  uint64_t hits;           /* calls that found their entry in memory */
  uint64_t compiles;       /* entries compiled (the MLIR pipeline ran) */
  uint64_t disk_hits;      /* entries loaded from the persistent cache instead of compiled */
  uint64_t disk_writes;    /* entries written to the persistent cache */
  uint64_t disk_rejects;   /* cache files not trusted (unreadable, corrupt, another key): warned
                              about on stderr, then compiled and rewritten */
  uint64_t cpu_runs;       /* calls that ran on the CPU */
} fuser_fusion_stats;
void fuser_fusion_get_stats(const fuser_fusion *f, fuser_fusion_stats *out);
/* Entry i's artifact (owned by the fusion; fuser_artifact_write_file writes
 * it out), loaded function (NULL without a runtime), and compile time in
 * milliseconds (import not included: it happens once, in
 * fuser_fusion_create; a load from the persistent cache counts its read).
 * NULL / -1 for an i out of range or an entry that has none (an entry made
 * by a CPU reference run has no artifact). */
const fuser_artifact *fuser_fusion_entry_artifact(const fuser_fusion *f, size_t i);
fuser_function *fuser_fusion_entry_function(const fuser_fusion *f, size_t i);
double fuser_fusion_entry_compile_ms(const fuser_fusion *f, size_t i);

#ifdef __cplusplus
}
#endif
#endif
