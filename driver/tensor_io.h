/* tensor_io.h: summaries and files for host tensors (DLTensors whose data
 * is in host memory), shared by the CPU reference runner and the GPU runner
 * so that both print the same checksums:
 *   sum    the elements as doubles, added in logical row-major order
 *   fnv1a  FNV-1a (64-bit) of the element bytes in logical row-major order
 * and NumPy .npy files (format 1.0; bf16 has no NumPy dtype and is widened
 * exactly to float32). No MLIR, no CUDA. */
#ifndef FUSER_DRIVER_TENSOR_IO_H
#define FUSER_DRIVER_TENSOR_IO_H

#include <stdint.h>

#include "driver/fuser_runtime.h"

/* The runtime dtype of a DLPack type, or 0. */
int fuser_type_from_dlpack(DLDataType t);
int64_t fuser_tensor_numel(const DLTensor *t);
/* Both checksums in one walk (a large output is read once). */
void fuser_tensor_checksums(const DLTensor *t, double *sum, uint64_t *fnv1a);
double fuser_tensor_sum(const DLTensor *t);
uint64_t fuser_tensor_fnv1a(const DLTensor *t);
/* Every element, in logical row-major order, as doubles (one pass). */
void fuser_tensor_to_f64(const DLTensor *t, double *out);
/* Element i (in logical row-major order) as a double (0 out of range);
 * indexed directly, O(rank). */
double fuser_tensor_element(const DLTensor *t, int64_t i);
/* Element i of an integer or bool tensor, exactly (not through a double). */
int64_t fuser_tensor_element_i64(const DLTensor *t, int64_t i);
int fuser_tensor_save_npy(const DLTensor *t, const char *path, fuser_error *err);

#endif
