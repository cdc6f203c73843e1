/* cublaslt.h: matmul kernels (artifact.h, FUSER_KERNEL_MATMUL) through
 * cuBLASLt, opened at run time like the driver (cuda_loader.h).
 *
 * No CUDA header is needed to build: cublaslt.c declares the few cuBLASLt
 * types and enum values it uses (their numeric values are cited there from
 * cublasLt.h, cublas_api.h and library_types.h of CUDA 13.1). The library is
 * opened once per process, the first time an artifact with a matmul kernel
 * is loaded: $FUSER_CUBLASLT if set, else libcublasLt.so.13, .so.12, .so. A
 * fusion without a matmul never opens it.
 *
 * Row-major operands map to cuBLASLt's column-major layouts: a [M, N]
 * result with unit n stride is the column-major [N, M] matrix D^T, and
 * D^T = B^T A^T, so cuBLASLt's A is our B and its B our A, each read
 * transposed or not by which of its dims has the unit stride. Batch dims
 * that nest (stride = inner stride * inner extent in every operand) merge;
 * the innermost remaining one is cuBLASLt's strided batch (stride 0: an
 * operand shared by every batch), the others a loop of cublasLtMatmul calls.
 * linear's [N] bias is CUBLASLT_EPILOGUE_BIAS (the bias vector runs along
 * the rows of cuBLASLt's D, our n). */
#ifndef FUSER_DRIVER_CUBLASLT_H
#define FUSER_DRIVER_CUBLASLT_H

#include <stddef.h>
#include <stdint.h>

#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"

/* One matmul of a call, every extent and element stride evaluated. */
typedef struct fuser_matmul_call {
  int dtype; /* FUSER_TYPE_BF16, F16, F32 */
  int batch;
  int has_bias;
  int64_t m, n, k, a_m, a_k, b_k, b_n, d_m, d_n, bias_n;
  int64_t batch_size[FUSER_TENSOR_MAX_RANK], a_batch[FUSER_TENSOR_MAX_RANK], b_batch[FUSER_TENSOR_MAX_RANK],
      d_batch[FUSER_TENSOR_MAX_RANK];
  /* byte addresses of element 0 (device pointers) */
  uint64_t a, b, d, bias;
} fuser_matmul_call;

/* Opens cuBLASLt (once per process, thread-safe). Returns FUSER_OK, or
 * FUSER_ERR_NO_DRIVER with "no cuBLASLt (...)" in err (the same every call). */
int fuser_cublaslt_open(fuser_error *err);

/* The cuBLASLt form of one call (descriptors, layouts, algorithm), cached
 * per context and (shape, strides, dtype, alignment): made once, reused by
 * every later call of that shape. */
typedef struct fuser_matmul_plan fuser_matmul_plan;

/* Finds or makes the plan of call c in context ctx (current on this
 * thread); *workspace gets the bytes of device workspace it needs.
 * FUSER_ERR_UNSUPPORTED for operands cuBLASLt cannot read (no unit stride
 * on either matrix dim, a bias that is not a packed [N] vector along the
 * rows of the result), FUSER_ERR_CUDA for a cuBLASLt failure. name is the
 * kernel's, for messages. */
int fuser_cublaslt_prepare(CUcontext ctx, const fuser_matmul_call *c, const char *name, fuser_matmul_plan **plan,
                           size_t *workspace, fuser_error *err);

/* Enqueues the product on stream (every batch, in order), with workspace
 * of the size prepare gave (a NULL plan: an empty product, nothing to do). */
int fuser_cublaslt_run(fuser_matmul_plan *plan, const fuser_matmul_call *c, void *workspace, CUstream stream,
                       const char *name, fuser_error *err);
/* After run (or instead of it): frees a plan the cache did not keep. */
void fuser_cublaslt_release(fuser_matmul_plan *plan);

#endif
