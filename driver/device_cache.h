/* device_cache.h: the runtime's caching device allocator (internal).
 *
 * Why: a cached fuser_execute is a few hundred ns of host work around one
 * cuLaunchKernel; cuMemAllocAsync + cuMemFreeAsync of each output and temp
 * cost about as much again (measured on the H200: 1.31-1.43x a bare launch
 * with them, 1.06-1.16x with a caching allocator). So the runtime keeps
 * freed blocks, as PyTorch's caching allocator does, and a cached call
 * makes no driver call for memory.
 *
 * The rule that makes reuse safe without events: a block freed on stream S
 * (the free is ordered after S's work so far, as cuMemFreeAsync's promise
 * is) goes to S's free list and is handed out again only to allocations on
 * S, whose work runs after that work by stream order. Blocks never move
 * between streams. Streams are told apart by cuStreamGetId (unique for the
 * life of the context, so a destroyed stream's handle reused by a new
 * stream never receives the old stream's blocks); without it (drivers
 * before CUDA 12) by handle.
 *
 * Sizes are rounded up to 512 bytes (to 2 MiB above 1 MiB) and a request
 * takes a free block of exactly its rounded size. A miss allocates with
 * cuMemAllocAsync on the stream (the device's default pool, which keeps
 * memory); when that fails for lack of memory the cache gives every free
 * block back (after a context synchronisation) and tries once more.
 * fuser_device_cache_trim gives back every free block; in-use blocks stay.
 *
 * CUDA graphs: while `stream` is being captured, an allocation is the
 * driver's own (cuMemAllocAsync, captured: the address exists only inside
 * the graph, so it must never enter the cache) and is freed with a captured
 * cuMemFreeAsync; a cached block released during a capture belongs to the
 * graph from then on (its replays write it) and is never handed out again
 * (nor given back: the graph may outlive the runtime). A driver that cannot
 * answer the capture query gets the same treatment.
 *
 * Threads: one mutex per cache; the hot path (hit or release) takes it
 * once, allocates no host memory (block records move between two hash
 * tables) and makes at most one driver call (cuStreamGetId). */
#ifndef FUSER_DRIVER_DEVICE_CACHE_H
#define FUSER_DRIVER_DEVICE_CACHE_H

#include "driver/cuda_loader.h"
#include "driver/fuser_runtime.h"

#include <pthread.h>
#include <stdint.h>

#define FUSER_DEVICE_CACHE_BUCKETS 256

typedef struct fuser_cached_block fuser_cached_block;

typedef struct fuser_device_cache {
  const fuser_cuda_api *cu;
  CUcontext ctx;
  pthread_mutex_t lock;
  fuser_cached_block *in_use[FUSER_DEVICE_CACHE_BUCKETS]; /* by pointer */
  fuser_cached_block *idle[FUSER_DEVICE_CACHE_BUCKETS];   /* by (stream, size) */
  fuser_cached_block *spare;                              /* records with no block */
  fuser_device_cache_stats stats;
} fuser_device_cache;

void fuser_device_cache_init(fuser_device_cache *c, const fuser_cuda_api *cu, CUcontext ctx);
/* Gives every free block back; in-use blocks are forgotten (their owners
 * outlived the runtime: leaked, as before). */
void fuser_device_cache_destroy(fuser_device_cache *c);

/* A block of at least `bytes` bytes (256-byte aligned) usable by work queued
 * on `stream` from now on. Returns 0 or the driver's error (*ptr = 0). */
CUresult fuser_device_cache_alloc(fuser_device_cache *c, CUstream stream, size_t bytes, CUdeviceptr *ptr);
/* Takes back a block of this cache, free once `stream`'s work so far is
 * done. A pointer this cache did not hand out goes to cuMemFreeAsync. */
void fuser_device_cache_free(fuser_device_cache *c, CUdeviceptr ptr, CUstream stream);
/* Synchronises the context and gives every free block back to the driver.
 * Returns 0 or the first driver error. */
CUresult fuser_device_cache_trim(fuser_device_cache *c);

#endif
