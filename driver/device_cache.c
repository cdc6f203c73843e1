/* device_cache.c: the runtime's caching device allocator (device_cache.h
 * says what it promises and why it is safe). Each block has one record
 * that lives in exactly one place: the in-use table (by pointer) while its
 * owner holds it, the idle table (by stream and rounded size) once freed.
 * Records are malloc'd only when the driver allocates a new block. */
#include "driver/device_cache.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct fuser_cached_block {
  fuser_cached_block *next;
  CUdeviceptr ptr;
  size_t size;         /* rounded */
  uint64_t stream_key; /* the stream it was last allocated on or freed on */
  CUstream stream;     /* that stream's handle (to key a free on it without asking the driver) */
};

#define SMALL_LIMIT ((size_t)1 << 20)
#define SMALL_ROUND ((size_t)512)
#define LARGE_ROUND ((size_t)2 << 20)
#define OUT_OF_MEMORY 2 /* CUDA_ERROR_OUT_OF_MEMORY */
#define BY_HANDLE (UINT64_C(1) << 63) /* keys from handles (no cuStreamGetId) never equal driver ids */

static size_t round_size(size_t bytes) {
  size_t r = bytes <= SMALL_LIMIT ? SMALL_ROUND : LARGE_ROUND;
  if (bytes == 0) return r;
  return bytes > SIZE_MAX - r ? 0 : (bytes + r - 1) / r * r;
}

static unsigned hash64(uint64_t x) {
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 29;
  return (unsigned)(x % FUSER_DEVICE_CACHE_BUCKETS);
}

static unsigned ptr_bucket(CUdeviceptr p) { return hash64((uint64_t)p >> 9); }
static unsigned idle_bucket(uint64_t key, size_t size) { return hash64(key * UINT64_C(0x9e3779b97f4a7c15) ^ size); }

/* The stream's identity for the life of the context. */
static uint64_t stream_key(const fuser_device_cache *c, CUstream stream) {
  unsigned long long id;
  if (c->cu->cuStreamGetId && c->cu->cuStreamGetId(stream, &id) == FUSER_CUDA_SUCCESS) return (uint64_t)id & ~BY_HANDLE;
  return (uint64_t)(uintptr_t)stream | BY_HANDLE;
}

void fuser_device_cache_init(fuser_device_cache *c, const fuser_cuda_api *cu, CUcontext ctx) {
  memset(c, 0, sizeof *c);
  c->cu = cu;
  c->ctx = ctx;
  pthread_mutex_init(&c->lock, NULL);
}

static void push(fuser_cached_block **list, fuser_cached_block *b) {
  b->next = *list;
  *list = b;
}

/* Unlinks and returns the first block of *list matching (key, size) or, with
 * key = 0 and size = 0, pointer p. */
static fuser_cached_block *take(fuser_cached_block **list, uint64_t key, size_t size, CUdeviceptr p) {
  for (fuser_cached_block **q = list; *q; q = &(*q)->next) {
    fuser_cached_block *b = *q;
    if (size ? b->stream_key == key && b->size == size : b->ptr == p) {
      *q = b->next;
      b->next = NULL;
      return b;
    }
  }
  return NULL;
}

/* Gives every idle block back. Under the lock; the context is current. */
static CUresult release_idle(fuser_device_cache *c) {
  CUresult first = FUSER_CUDA_SUCCESS, r;
  int any = 0;
  for (int i = 0; i < FUSER_DEVICE_CACHE_BUCKETS && !any; i++) any = c->idle[i] != NULL;
  if (!any) return FUSER_CUDA_SUCCESS;
  /* an idle block may still be used by work queued before its free, on a
   * stream that may since have been destroyed: wait for all of it, then
   * free on the legacy stream, which always exists */
  if ((r = c->cu->cuCtxSynchronize())) first = r;
  for (int i = 0; i < FUSER_DEVICE_CACHE_BUCKETS; i++) {
    while (c->idle[i]) {
      fuser_cached_block *b = c->idle[i];
      c->idle[i] = b->next;
      if ((r = c->cu->cuMemFreeAsync(b->ptr, NULL)) && !first) first = r;
      c->stats.frees++;
      c->stats.idle_blocks--;
      c->stats.idle_bytes -= b->size;
      b->ptr = 0;
      push(&c->spare, b);
    }
  }
  return first;
}

/* Whether work queued on `stream` now goes into a CUDA graph (or the driver
 * cannot say). A driver without the query has no graphs. */
static bool capturing(const fuser_device_cache *c, CUstream stream) {
  int status = 0;
  if (!c->cu->cuStreamIsCapturing) return false;
  return c->cu->cuStreamIsCapturing(stream, &status) != FUSER_CUDA_SUCCESS || status != 0;
}

CUresult fuser_device_cache_alloc(fuser_device_cache *c, CUstream stream, size_t bytes, CUdeviceptr *ptr) {
  *ptr = 0;
  size_t size = round_size(bytes);
  if (!size) return OUT_OF_MEMORY;
  if (capturing(c, stream)) return c->cu->cuMemAllocAsync(ptr, size, stream);
  uint64_t key = stream_key(c, stream);
  pthread_mutex_lock(&c->lock);
  fuser_cached_block *b = take(&c->idle[idle_bucket(key, size)], key, size, 0);
  if (b) {
    c->stats.hits++;
    c->stats.idle_blocks--;
    c->stats.idle_bytes -= size;
  } else {
    /* a miss: the driver, under the lock (rare; keeps the counts exact) */
    CUdeviceptr p = 0;
    CUresult r = c->cu->cuMemAllocAsync(&p, size, stream);
    if (r == OUT_OF_MEMORY) {
      release_idle(c);
      r = c->cu->cuMemAllocAsync(&p, size, stream);
    }
    if (!r && !c->spare) {
      fuser_cached_block *fresh = calloc(1, sizeof *fresh);
      if (fresh) push(&c->spare, fresh);
      else r = OUT_OF_MEMORY;
      if (r) c->cu->cuMemFreeAsync(p, stream);
    }
    if (r) {
      pthread_mutex_unlock(&c->lock);
      return r;
    }
    b = c->spare;
    c->spare = b->next;
    b->next = NULL;
    b->ptr = p;
    b->size = size;
    c->stats.misses++;
  }
  b->stream_key = key;
  b->stream = stream;
  push(&c->in_use[ptr_bucket(b->ptr)], b);
  c->stats.in_use_blocks++;
  c->stats.in_use_bytes += size;
  pthread_mutex_unlock(&c->lock);
  *ptr = b->ptr;
  return FUSER_CUDA_SUCCESS;
}

void fuser_device_cache_free(fuser_device_cache *c, CUdeviceptr ptr, CUstream stream) {
  if (!ptr) return;
  pthread_mutex_lock(&c->lock);
  fuser_cached_block *b = take(&c->in_use[ptr_bucket(ptr)], 0, 0, ptr);
  if (!b) {
    pthread_mutex_unlock(&c->lock);
    c->cu->cuMemFreeAsync(ptr, stream);
    return;
  }
  c->stats.in_use_blocks--;
  c->stats.in_use_bytes -= b->size;
  if (capturing(c, stream)) { /* the graph's from now on: never reused */
    b->ptr = 0;
    push(&c->spare, b);
    pthread_mutex_unlock(&c->lock);
    return;
  }
  /* freed on the stream it was made on (the usual case): its key is known */
  if (stream != b->stream) {
    b->stream_key = stream_key(c, stream);
    b->stream = stream;
  }
  c->stats.idle_blocks++;
  c->stats.idle_bytes += b->size;
  push(&c->idle[idle_bucket(b->stream_key, b->size)], b);
  pthread_mutex_unlock(&c->lock);
}

CUresult fuser_device_cache_trim(fuser_device_cache *c) {
  pthread_mutex_lock(&c->lock);
  CUresult r = release_idle(c);
  pthread_mutex_unlock(&c->lock);
  return r;
}

static void free_list(fuser_cached_block *b) {
  while (b) {
    fuser_cached_block *next = b->next;
    free(b);
    b = next;
  }
}

void fuser_device_cache_destroy(fuser_device_cache *c) {
  fuser_device_cache_trim(c);
  for (int i = 0; i < FUSER_DEVICE_CACHE_BUCKETS; i++) free_list(c->in_use[i]);
  free_list(c->spare);
  pthread_mutex_destroy(&c->lock);
  memset(c, 0, sizeof *c);
}
