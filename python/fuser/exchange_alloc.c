/* exchange_alloc.c: CUDA output memory from the producer's own allocator
 * through its DLPack C exchange table (binding.h): the table's
 * managed_tensor_allocator (torch >= 2.10: at::empty on the device, so
 * torch's caching allocator on torch's current stream), called from C, with
 * no Python call and no GIL round trip.
 *
 * Before, torch callers' outputs came from torch._C's raw_alloc/raw_delete
 * through Python calls made inside the runtime's allocator callbacks
 * (torch_cuda.c, still the way for a stream= argument and for producers
 * without the table): two Python calls per allocation and one per free.
 *
 * libfuser's allocator interface deals in device pointers (fuser_allocator:
 * alloc gives a pointer, free takes it back), the table in managed tensors:
 * each allocation is a 1-D uint8 tensor of the bytes asked, kept in a table
 * from its data pointer until libfuser frees it, when its deleter returns
 * the memory to the producer. The table takes a lock: frees can come from
 * any thread (a torch tensor over an output dies where torch drops it).
 *
 * Streams: the producer allocates on its current stream of the device, so
 * this allocator is only used for calls on that stream (fd.execute without
 * stream=, whose stream is the table's current_work_stream); its frees
 * return the block to that stream's pool, as torch's own tensors do. */
#include "binding.h"

#include <pthread.h>

/* One runtime's allocator: the table and the device. */
struct py_exchange_alloc {
  const py_exchange_api *api;
  int device;
};

/* Live allocations: data pointer -> the producer's managed tensor, open
 * addressing with linear probing (NULL keys are empty), grown at half
 * full; removal shifts the following run back (no tombstones). */
typedef struct {
  void *ptr;
  DLManagedTensorVersioned *m;
} live_slot;

static struct {
  live_slot *slots;
  size_t cap, n; /* cap: a power of two, or 0 */
  pthread_mutex_t lock;
} live = {NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER};

static size_t slot_of(void *ptr, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)ptr >> 8; /* 256-byte aligned pointers */
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 32) & (cap - 1);
}

static void put(live_slot *slots, size_t cap, void *ptr, DLManagedTensorVersioned *m) {
  size_t i = slot_of(ptr, cap);
  while (slots[i].ptr) i = (i + 1) & (cap - 1);
  slots[i] = (live_slot){ptr, m};
}

/* Adds ptr -> m (lock held). false when out of memory. */
static bool live_add(void *ptr, DLManagedTensorVersioned *m) {
  if (2 * (live.n + 1) > live.cap) {
    size_t cap = live.cap ? 2 * live.cap : 64;
    live_slot *s = calloc(cap, sizeof *s);
    if (!s) return false;
    for (size_t i = 0; i < live.cap; i++)
      if (live.slots[i].ptr) put(s, cap, live.slots[i].ptr, live.slots[i].m);
    free(live.slots);
    live.slots = s, live.cap = cap;
  }
  put(live.slots, live.cap, ptr, m);
  live.n++;
  return true;
}

/* Removes ptr and gives its managed tensor, or NULL (lock held). */
static DLManagedTensorVersioned *live_take(void *ptr) {
  if (!live.cap) return NULL;
  size_t i = slot_of(ptr, live.cap), mask = live.cap - 1;
  while (live.slots[i].ptr && live.slots[i].ptr != ptr) i = (i + 1) & mask;
  if (!live.slots[i].ptr) return NULL;
  DLManagedTensorVersioned *m = live.slots[i].m;
  live.slots[i] = (live_slot){NULL, NULL};
  live.n--;
  /* shift back the entries of the run after i that would no longer be found */
  for (size_t j = (i + 1) & mask; live.slots[j].ptr; j = (j + 1) & mask) {
    size_t home = slot_of(live.slots[j].ptr, live.cap);
    bool reachable = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (reachable) continue;
    live.slots[i] = live.slots[j];
    live.slots[j] = (live_slot){NULL, NULL};
    i = j;
  }
  return m;
}

size_t py_exchange_alloc_live(void) {
  pthread_mutex_lock(&live.lock);
  size_t n = live.n;
  pthread_mutex_unlock(&live.lock);
  return n;
}

/* The producer's error (kind: message), kept for fd.execute's exception. */
static _Thread_local char alloc_error[256];

static void set_error(void *ctx, const char *kind, const char *message) {
  (void)ctx;
  snprintf(alloc_error, sizeof alloc_error, "%s: %s", kind ? kind : "error", message ? message : "");
}

const char *py_exchange_alloc_error(void) { return alloc_error; }

static int exchange_alloc(void *ctx, size_t bytes, void *stream, void **ptr) {
  (void)stream; /* the producer's current stream: the call's (see above) */
  struct py_exchange_alloc *a = ctx;
  uint64_t t0 = py_timing ? py_now_ns() : 0;
  int64_t shape[1] = {(int64_t)(bytes ? bytes : 1)};
  DLTensor proto = {NULL, {kDLCUDA, a->device}, 1, {kDLUInt, 8, 1}, shape, NULL, 0};
  DLManagedTensorVersioned *m = NULL;
  alloc_error[0] = 0;
  int rc = a->api->managed_tensor_allocator(&proto, &m, NULL, set_error);
  void *p = rc == 0 && m ? (char *)m->dl_tensor.data + m->dl_tensor.byte_offset : NULL;
  if (rc == 0 && m && ((uintptr_t)p % 256 != 0 || !p)) { /* fuser_allocator promises 256-byte alignment */
    snprintf(alloc_error, sizeof alloc_error, "the producer's allocator gave %p, not 256-byte aligned", p);
    m->deleter(m);
    m = NULL, rc = 1;
  }
  if (rc != 0 || !m) {
    if (!alloc_error[0]) snprintf(alloc_error, sizeof alloc_error, "the producer's allocator failed (%d)", rc);
    return 1;
  }
  pthread_mutex_lock(&live.lock);
  bool ok = live_add(p, m);
  pthread_mutex_unlock(&live.lock);
  if (!ok) {
    snprintf(alloc_error, sizeof alloc_error, "out of host memory");
    m->deleter(m);
    return 1;
  }
  *ptr = p;
  if (py_timing) py_phase_ns[P_ALLOC] += py_now_ns() - t0;
  return 0;
}

static void exchange_free(void *ctx, void *ptr, size_t bytes, void *stream) {
  (void)ctx, (void)bytes, (void)stream;
  uint64_t t0 = py_timing ? py_now_ns() : 0;
  pthread_mutex_lock(&live.lock);
  DLManagedTensorVersioned *m = live_take(ptr);
  pthread_mutex_unlock(&live.lock);
  if (m && m->deleter) m->deleter(m);
  if (py_timing) py_phase_ns[P_FREE] += py_now_ns() - t0;
}

fuser_allocator py_exchange_allocator(const py_exchange_api *api, int device) {
  static struct py_exchange_alloc ctx[MAX_DEVICES * PY_EXCHANGE_TABLES];
  static int nctx;
  struct py_exchange_alloc *c = NULL;
  for (int i = 0; i < nctx && !c; i++)
    if (ctx[i].api == api && ctx[i].device == device) c = &ctx[i];
  if (!c && nctx < MAX_DEVICES * PY_EXCHANGE_TABLES) c = &ctx[nctx++], c->api = api, c->device = device;
  return c ? (fuser_allocator){c, exchange_alloc, exchange_free} : (fuser_allocator){0};
}
