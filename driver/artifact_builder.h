/* artifact_builder.h: how the compiler describes a compiled fusion.
 *
 * The lowering calls these functions once per fusion, in any order that adds
 * a thing before it is referenced by index, then fuser_builder_finish, which
 * validates the whole plan (the same checks the loader makes on a file) and
 * returns the artifact. Builder calls never fail loudly: the first error is
 * kept and reported by finish (so the compiler can chain calls), and each add
 * returns the new item's index or -1 after an error.
 *
 * Expressions are written as text in the expression language of
 * docs/runtime.md (C-like infix over int64):
 *     size(i, d)  stride(i, d)  addr(i)  scalar(i)   integer literals
 *     + - * / %   == != < <= > >=   && || !   unary -
 *     ceildiv(a, b)  min(a, b)  max(a, b)        parentheses
 * size/stride read input i's logical dim d (stride in elements), addr the
 * byte address of its first element (data + byte_offset), scalar the value
 * of integer/bool scalar input i. "input" and "dim" may be written before the
 * numbers: `stride(input 2, dim 1) % 8 == 0`.
 *
 * Example: out = a + b, two f32 inputs of rank 1, a float4 variant and a
 * scalar fallback (see docs/runtime.md for the kernels' parameter lists):
 *
 *   fuser_builder *b = fuser_builder_create();
 *   int m = fuser_builder_add_module(b, FUSER_MODULE_PTX, ptx, strlen(ptx));
 *   int64_t sz[1] = {-1}, contig[1] = {1};
 *   fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 1, sz, contig, NULL);
 *   fuser_builder_add_tensor_input(b, "T1", FUSER_TYPE_F32, 1, sz, contig, NULL);
 *   const char *osz[1] = {"size(0, 0)"};
 *   fuser_builder_add_output(b, FUSER_TYPE_F32, 1, osz, NULL);
 *   int k = fuser_builder_add_kernel(b, "add");
 *   fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 0, "0");
 *   fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
 *   fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
 *   fuser_builder_param_value(b, k, FUSER_PARAM_I64, "size(0, 0)");
 *   const char *vec[3] = {"addr(0) % 16 == 0", "addr(1) % 16 == 0", "size(0, 0) % 4 == 0"};
 *   fuser_builder_add_variant(b, k, m, "add_vec4", "ceildiv(size(0, 0) / 4, 256)", 256, 3, vec);
 *   fuser_builder_add_variant(b, k, m, "add_scalar", "ceildiv(size(0, 0), 256)", 256, 0, NULL);
 *   fuser_artifact *art;  fuser_error err;
 *   if (fuser_builder_finish(b, &art, &err) != FUSER_OK) report(err.message);
 *
 * The output's own pointer is never an alias check problem: outputs are
 * allocated 256-byte aligned, so conditions need only mention inputs. */
#ifndef FUSER_ARTIFACT_BUILDER_H
#define FUSER_ARTIFACT_BUILDER_H

#include "driver/fuser_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fuser_builder fuser_builder;
struct fuser_expr; /* driver/expr.h */

/* Module image formats. PTX is text (no NUL needed: the runtime adds one);
 * CUBIN is an ELF image for one architecture. */
enum { FUSER_MODULE_PTX = 1, FUSER_MODULE_CUBIN = 2 };

/* The buffers a pointer parameter can point into. Element offsets of
 * TEMP buffers are in bytes (temps are untyped). */
enum { FUSER_BUFFER_INPUT = 1, FUSER_BUFFER_OUTPUT = 2, FUSER_BUFFER_TEMP = 3 };

/* Kinds of value parameters. I32/I64: an expression's value (I32 checked to
 * fit). F32/F64: the value of a floating (or integer) scalar input. */
enum { FUSER_PARAM_I32 = 2, FUSER_PARAM_I64 = 3, FUSER_PARAM_F32 = 4, FUSER_PARAM_F64 = 5 };

fuser_builder *fuser_builder_create(void);
/* Frees a builder that was not finished. */
void fuser_builder_destroy(fuser_builder *b);

/* A PTX or cubin image (copied). Returns the module index. */
int fuser_builder_add_module(fuser_builder *b, int format, const void *image, size_t size);

/* A tensor input, in nvFuser's terms: sizes[d] is the static extent of
 * logical dim d or -1 (symbolic); contiguity[p] is given in ALLOCATION order
 * (1 True, 0 False, -1 None = broadcast: size 1, or an expanded broadcast of
 * stride 0); stride_order[d] is the stride rank of logical dim d (0 = the
 * fastest), NULL = row-major. name (may be NULL) appears in error messages.
 * Returns the input index (inputs and scalars share one index space, in
 * argument order). */
int fuser_builder_add_tensor_input(fuser_builder *b, const char *name, int dtype, int rank,
                                   const int64_t *sizes, const int64_t *contiguity,
                                   const int64_t *stride_order);
/* A scalar input (FUSER_TYPE_I64, I32, BOOL, F64, F32). */
int fuser_builder_add_scalar_input(fuser_builder *b, const char *name, int dtype);

/* An output the runtime allocates: extent expressions per logical dim, and
 * the allocation order as nvFuser's stride_order (NULL = row-major); the
 * tensor is dense in that order. Returns the output index. */
int fuser_builder_add_output(fuser_builder *b, int dtype, int rank, const char *const *sizes,
                             const int64_t *stride_order);
/* The same with the sizes as programs (driver/expr.h; copied), as the
 * compiler's translator writes them (lowering/plan_translate.h). */
int fuser_builder_add_output_programs(fuser_builder *b, int dtype, int rank, const struct fuser_expr *const *sizes,
                                      const int64_t *stride_order);
/* An output that is a view of input `input` (same dtype): no kernel writes
 * it; the runtime makes it by pointer arithmetic. offset is in elements. */
int fuser_builder_add_alias_output(fuser_builder *b, int input, int rank, const char *offset,
                                   const char *const *sizes, const char *const *strides);
int fuser_builder_add_alias_output_programs(fuser_builder *b, int input, int rank, const struct fuser_expr *offset,
                                            const struct fuser_expr *const *sizes,
                                            const struct fuser_expr *const *strides);

/* An intermediate buffer of `bytes` bytes, allocated before the first kernel
 * and freed (stream-ordered) after the last; zero_init clears it first. */
int fuser_builder_add_temp(fuser_builder *b, const char *bytes, int zero_init);
int fuser_builder_add_temp_program(fuser_builder *b, const struct fuser_expr *bytes, int zero_init);
/* Makes temp t an index flag: zero-initialised, read back after the
 * kernels; a non-zero value v fails the call with FUSER_ERR_INDEX naming
 * line v of `sites` (one "file:line:col: fuser.<op>" per index op). */
int fuser_builder_set_index_flag(fuser_builder *b, int t, const char *sites);
/* The message of index flag value v (> 0) against its sites text. */
void fuser_index_flag_message(const char *sites, int32_t v, char *out, size_t len);

/* A kernel launch; kernels run in the order they are added. name is for
 * messages and dumps. Returns the kernel index. */
/* A check of the whole call (artifact.h, fuser_check): `cond` must be
 * non-zero, else the call fails with FUSER_ERR_INPUT_MISMATCH naming it and
 * `message` (may be NULL; cut at 255 bytes). Checked before any variant is
 * picked, also in an artifact with no kernels. */
int fuser_builder_add_check(fuser_builder *b, const char *cond, const char *message);
/* The same with the condition as a program (driver/expr.h; copied): what
 * the compiler's translator from the plan's host SSA writes
 * (lowering/plan_translate.h), no text in between. */
int fuser_builder_add_check_program(fuser_builder *b, const struct fuser_expr *cond, const char *message);
int fuser_builder_add_kernel(fuser_builder *b, const char *name);
/* Appends a pointer parameter: the address of element `offset` (an
 * expression; bytes for TEMP) of input/output/temp `index`. */
int fuser_builder_param_pointer(fuser_builder *b, int kernel, int buffer, int index,
                                const char *offset);
/* Appends an I32/I64 parameter with an expression's value. */
int fuser_builder_param_value(fuser_builder *b, int kernel, int kind, const char *expr);
/* The same two with programs (driver/expr.h; copied), as the compiler
 * writes them (lowering/plan_translate.h). */
int fuser_builder_param_pointer_program(fuser_builder *b, int kernel, int buffer, int index,
                                        const struct fuser_expr *offset);
int fuser_builder_param_value_program(fuser_builder *b, int kernel, int kind, const struct fuser_expr *value);
/* Appends an F32/F64 parameter with scalar input `input`'s value. */
int fuser_builder_param_scalar(fuser_builder *b, int kernel, int kind, int input);
/* Appends a variant: entry `entry` of module `module`, launched with grid
 * (grid_x, 1, 1) and block (block_x, 1, 1), used when every condition is
 * non-zero. Variants are tried in the order added; give the most specialised
 * first and an unconditional fallback last. All variants of a kernel take
 * the kernel's parameter list. Returns the variant index. */
int fuser_builder_add_variant(fuser_builder *b, int kernel, int module, const char *entry,
                              const char *grid_x, unsigned block_x, int nconditions,
                              const char *const *conditions);
/* The same with a 3-D grid and block and dynamic shared memory bytes. */
int fuser_builder_add_variant_3d(fuser_builder *b, int kernel, int module, const char *entry,
                                 const char *const grid[3], const unsigned block[3],
                                 unsigned shared_bytes, int nconditions,
                                 const char *const *conditions);
/* The same with programs (copied). */
int fuser_builder_add_variant_programs(fuser_builder *b, int kernel, int module, const char *entry,
                                      const struct fuser_expr *const grid[3], const unsigned block[3],
                                      unsigned shared_bytes, int nconditions,
                                      const struct fuser_expr *const *conditions);

/* A matrix product run through cuBLASLt (docs/runtime.md, "Matmul
 * segments"): D[b.., m, n] = sum_k A[b.., m, k] * B[b.., k, n] (+ bias[n]),
 * f32 accumulation, every operand of `dtype` (FUSER_TYPE_BF16, F16, F32)
 * addressed by element strides. It runs in launch order with the other
 * kernels. Its parameters follow, added with param_pointer / param_value
 * (I64) in the FUSER_MATMUL_P_* order: pointers to A, B and D, then the ten
 * extents and strides, then per batch dim (outermost first) its extent and
 * A's, B's and D's strides, then (has_bias) the bias pointer. The checks
 * (extents that must agree, e.g. `size(0, 1) == size(1, 0)`) are its one
 * variant's conditions: a false one fails the call (FUSER_ERR_INPUT_MISMATCH
 * naming the inputs, or FUSER_ERR_NO_VARIANT). Returns the kernel index. */
enum {
  FUSER_MATMUL_P_A, FUSER_MATMUL_P_B, FUSER_MATMUL_P_D,
  FUSER_MATMUL_P_M, FUSER_MATMUL_P_N, FUSER_MATMUL_P_K,
  FUSER_MATMUL_P_A_M, FUSER_MATMUL_P_A_K, FUSER_MATMUL_P_B_K, FUSER_MATMUL_P_B_N,
  FUSER_MATMUL_P_D_M, FUSER_MATMUL_P_D_N, FUSER_MATMUL_P_BIAS_N,
  FUSER_MATMUL_P_BATCH /* 4 per batch dim: extent, A, B, D strides; then the bias pointer */
};
int fuser_builder_add_matmul(fuser_builder *b, const char *name, int dtype, int batch, int has_bias,
                             int nchecks, const char *const *checks);
int fuser_builder_add_matmul_programs(fuser_builder *b, const char *name, int dtype, int batch, int has_bias,
                                      int nchecks, const struct fuser_expr *const *checks);

/* Attaches a named blob (replacing one of the same key): the source script,
 * the fusion's name, how to make its inputs... The runtime carries it and
 * returns it (fuser_artifact_metadata) but never interprets it. */
int fuser_builder_set_metadata(fuser_builder *b, const char *key, const void *value, size_t size);

/* Validates and returns the artifact (one reference); frees the builder in
 * every case. */
int fuser_builder_finish(fuser_builder *b, fuser_artifact **out, fuser_error *err);

#ifdef __cplusplus
}
#endif
#endif
