/* case_file.h: reading fuser-cpu-check's case files (written by
 * test/lowering/Inputs/torch_oracle.py and `fuser-run --cpu --save-case`):
 *   inputs <n>
 *   tensor <dtype> <rank> <sizes...> <strides...> <offset> <storage elements>\n<storage bytes>\n
 *   scalar <dtype> <value>
 *   outputs <m>
 *   tensor <dtype> <rank> <sizes...>\n<elements * 8 bytes of float64, row-major>\n
 * The reader trusts nothing: counts, extents, strides and offsets are
 * checked before they size an allocation or a read, and each input's view
 * lies inside the storage the file gives. */
#ifndef FUSER_TOOLS_CASE_FILE_H
#define FUSER_TOOLS_CASE_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "lowering/cpu_jit.h"

#define FUSER_CASE_MAX_TENSORS 4096

typedef struct {
  int n;
  fuser_host_tensor *t; /* rank -1: a scalar */
  void **storage;       /* each tensor's storage (64-byte aligned, 16 spare bytes) */
} fuser_case_list;

/* Reads the inputs and expected outputs; false with a message in err
 * (the lists may hold partial results: free them either way). */
bool fuser_case_read(FILE *f, fuser_case_list *in, fuser_case_list *out, char *err, size_t errlen);
void fuser_case_free(fuser_case_list *l);

#endif
