/* fake_cuda.h: the state test/driver/fake_cuda.c (a stand-in libcuda.so.1)
 * records, shared by the fake and the tests and benchmarks that read it
 * (dlsym(lib, "fake_cuda_state") on the same library the runtime opened). */
#ifndef FUSER_TEST_DRIVER_FAKE_CUDA_H
#define FUSER_TEST_DRIVER_FAKE_CUDA_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_MAX_LAUNCHES 64
#define FAKE_MAX_PARAMS 64
#define FAKE_MAX_STREAMS 16

typedef struct fake_launch {
  char name[64];
  unsigned grid[3], block[3], shared;
  void *stream;
  int nparams;
  uint64_t params[FAKE_MAX_PARAMS]; /* the first 8 bytes behind each kernelParams entry */
} fake_launch;

typedef struct fake_state {
  void *current_ctx;
  int module_loads, module_unloads;
  int allocs, frees, memsets;
  size_t last_memset_bytes;
  size_t fail_alloc_above; /* cuMemAllocAsync of more bytes fails; 0 = never */
  int nlaunches;           /* launches past FAKE_MAX_LAUNCHES are not recorded (a test resets this) */
  fake_launch launches[FAKE_MAX_LAUNCHES];
  /* Per fake stream (CUstream values 1..FAKE_MAX_STREAMS; others count
   * under 0), updated atomically so that tests of calls from several
   * threads can count what each stream got. */
  int stream_launches[FAKE_MAX_STREAMS + 1];
  int stream_allocs[FAKE_MAX_STREAMS + 1];
  int stream_frees[FAKE_MAX_STREAMS + 1];
  int ctx_syncs;        /* cuCtxSynchronize calls */
  int stream_id_calls;  /* cuStreamGetId calls */
  int no_stream_id;     /* cuStreamGetId fails (a driver before CUDA 12) */
  unsigned stream_generation; /* added to every stream id: a "new" stream with an old handle */
  void *capturing_stream;     /* cuStreamIsCapturing reports this stream as capturing */
  int no_capture_query;       /* cuStreamIsCapturing fails */
  /* The legacy stream's pageable copies: cuMemcpyHtoD may return before its
   * DMA lands, and a non-blocking stream is not ordered after it; only
   * cuCtxSynchronize (or a sync of the legacy stream) is. htod_unordered
   * counts such copies since the last one; racing_launches counts launches
   * on a stream other than the legacy one while any was pending (a kernel
   * that may read an input before it arrives). FAKE_CUDA_REPORT=1 prints
   * both at exit. */
  int htod_unordered;
  int racing_launches;
} fake_state;

#endif
