/* fake_cublaslt.h: what test/driver/fake_cublaslt.c (a stand-in
 * libcublasLt, opened through FUSER_CUBLASLT) records, read by the test
 * through dlsym(lib, "fake_cublaslt_state"). */
#ifndef FUSER_TEST_DRIVER_FAKE_CUBLASLT_H
#define FUSER_TEST_DRIVER_FAKE_CUBLASLT_H

#include <stddef.h>
#include <stdint.h>

typedef struct fake_lt_state {
  int creates, heuristics, matmuls, desc_creates;
  /* the last cublasLtMatmul */
  void *stream;
  void *workspace;
  size_t workspace_bytes;
  int transa, transb, epilogue, count;
  uint64_t rows[3], cols[3];
  int64_t ld[3];
  uint32_t align[4]; /* the last heuristic's preference: A, B, C, D */
  size_t heuristic_workspace; /* what the heuristic asks for (default 4096) */
  int no_algorithm;           /* the heuristic returns no result */
  int fail_matmul;            /* cublasLtMatmul returns CUBLAS_STATUS_EXECUTION_FAILED */
} fake_lt_state;

#endif
