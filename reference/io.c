/* Summaries and files for results: checksums (a double sum and an FNV-1a
 * hash of the element bytes in logical row-major order) and NumPy .npy
 * files (format 1.0). The work is driver/tensor_io.c's, shared with the
 * GPU runner so both print comparable checksums. */
#include <string.h>

#include "driver/tensor_io.h"
#include "reference/tensor.h"

double fuser_ref_checksum_sum(const DLTensor *t) { return fuser_tensor_sum(t); }

uint64_t fuser_ref_checksum_fnv1a(const DLTensor *t) { return fuser_tensor_fnv1a(t); }

fuser_ref_status fuser_ref_save_npy(const DLTensor *t, const char *path, fuser_ref_error *err) {
  fuser_ref_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  fuser_error e;
  int status = fuser_tensor_save_npy(t, path, &e);
  if (status == FUSER_OK) return FUSER_REF_OK;
  err->status = status == FUSER_ERR_IO ? FUSER_REF_ERR_IO : FUSER_REF_ERR_UNSUPPORTED;
  memcpy(err->message, e.message, sizeof err->message < sizeof e.message ? sizeof err->message : sizeof e.message);
  err->message[sizeof err->message - 1] = 0;
  return err->status;
}
