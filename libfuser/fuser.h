/* fuser.h: libfuser, the compiler and the runtime together, for frameworks
 * that embed fuser: create a fusion from nvFuser script text (or fuser MLIR
 * text) once, then call it on DLTensors. The first call with a new input
 * signature compiles the fusion for that signature (import once, specialise,
 * compile to an artifact in memory, fuser_load) and caches the loaded
 * function; later calls with the same signature reuse it without compiling
 * (nvFuser's FusionExecutorCache). Everything else (runtime, arguments,
 * outputs, errors) is the runtime's API, driver/fuser_runtime.h, which this
 * header includes. docs/libfuser.md describes the API and the cache key.
 *
 *   fuser_runtime *rt;  fuser_fusion *f;  fuser_error err;
 *   fuser_runtime_create(0, stream, NULL, &rt, &err);
 *   fuser_fusion_create(rt, FUSER_SOURCE_NVFUSER, text, len, "rope.py", NULL, &f, &err);
 *   fuser_arg args[2] = {fuser_arg_tensor(&x), fuser_arg_tensor(&y)};
 *   fuser_output out[1];
 *   fuser_fusion_execute(f, args, 2, out, 1, &err);   // compiles on the first call only
 *   ... use out[0].tensor, then fuser_output_release(rt, &out[0]) ...
 *   fuser_fusion_destroy(f);                          // before the runtime
 *   fuser_runtime_destroy(rt);
 *
 * The cache key of a call (its signature), per argument in order: tensor
 * or scalar; for a tensor its DLPack dtype, rank, layout in
 * nvFuser's terms from fuser_tensor_layout (contiguity in allocation order,
 * stride order, and so which dims are broadcasts: size 1 or stride 0) and
 * the alignment class (16, 8, 4, 2 or 1 bytes) of data + byte_offset; with
 * specialize_sizes also every extent. Scalar values and (by default) tensor
 * extents are not in the key: compiled code takes them as parameters.
 * Lookups compare the whole key, never a hash alone.
 *
 * Threads: fuser_fusion_execute may be called from several threads at once.
 * A hit takes no lock and allocates nothing; a miss compiles under the
 * fusion's lock (other threads' misses wait, their hits do not). */
#ifndef FUSER_LIBFUSER_FUSER_H
#define FUSER_LIBFUSER_FUSER_H

#include "driver/fuser_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fuser_fusion fuser_fusion;

/* What the source text of a fusion is. */
typedef enum fuser_source_kind {
  FUSER_SOURCE_NVFUSER = 1, /* an nvFuser FusionDefinition repro script (Python text; read, never run) */
  FUSER_SOURCE_MLIR = 2,    /* a module in the fuser dialect holding one fusion func.func */
} fuser_source_kind;

/* Compile options; a NULL pointer or zeroed fields mean the defaults. */
typedef struct fuser_fusion_options {
  const char *chip;     /* PTX target, default "sm_90" */
  int unroll;           /* vectors per thread, default 1 */
  int block_size;       /* threads per block, default 128 */
  int specialize_sizes; /* 1: tensor extents join the key and compile as constants (one entry per
                           shape, like fuser-specialize-shapes); 0 (default): one entry per layout class */
} fuser_fusion_options;

/* Imports `len` bytes of `text` (it need not be NUL-terminated; it is not
 * kept) into the fusion's own MLIR context, verifies it, and binds the
 * fusion to `rt` (which must outlive it). `name` labels the source in error
 * locations ("rope.py:12:5: error: ..."); NULL means "<fusion>". Nothing is
 * compiled yet. A script or module that does not import or verify gives
 * FUSER_ERR_COMPILE with the first located diagnostic in err. */
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
 * fuser_load and fuser_execute. A failed compile is not cached: the next
 * call with that signature tries again. */
int fuser_fusion_execute(fuser_fusion *f, const fuser_arg *args, size_t nargs, fuser_output *outputs,
                         size_t noutputs, fuser_error *err);

/* Compiles (or finds) the entry for these arguments without running it.
 * *entry (may be NULL) receives its index. Tensor data is not read. */
int fuser_fusion_compile(fuser_fusion *f, const fuser_arg *args, size_t nargs, size_t *entry, fuser_error *err);

/* The fusion's inputs and outputs as defined. */
size_t fuser_fusion_num_inputs(const fuser_fusion *f);
size_t fuser_fusion_num_outputs(const fuser_fusion *f);

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
/* Entry i's artifact (owned by the fusion; fuser_artifact_write_file writes
 * it out), loaded function, and compile time in milliseconds (import not
 * included: it happens once, in fuser_fusion_create). NULL / -1 for an i out
 * of range. */
const fuser_artifact *fuser_fusion_entry_artifact(const fuser_fusion *f, size_t i);
fuser_function *fuser_fusion_entry_function(const fuser_fusion *f, size_t i);
double fuser_fusion_entry_compile_ms(const fuser_fusion *f, size_t i);

#ifdef __cplusplus
}
#endif
#endif
