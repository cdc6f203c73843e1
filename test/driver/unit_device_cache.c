/* unit_device_cache.c: the runtime's caching device allocator
 * (driver/device_cache.h) on the fake libcuda (argv[1]): a warm call makes
 * no driver call for memory; a block freed on a stream serves only that
 * stream (also when freed on another stream than the one that made it, and
 * never a new stream that got an old one's handle, nor, without
 * cuStreamGetId, another handle); live outputs never share a block; the
 * DLPack deleter returns blocks to it; empty_cache and out-of-memory give
 * idle blocks back after a context synchronisation; concurrent calls on
 * several streams from several threads keep all of that; and
 * FUSER_DEVICE_CACHE=0 goes to the driver for every allocation; and while a
 * stream is being captured into a CUDA graph the cache neither hands out nor
 * takes back blocks (a captured allocation exists only inside the graph, and
 * a block the graph writes must never serve another allocation). */
#include "example_artifact.h"
#include "fake_cuda_open.h"
#include "unit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fake_state *fake;
static fuser_error err;
#define S(n) ((void *)(uintptr_t)(n))

static float xs[128] __attribute__((aligned(256))), ys[128] __attribute__((aligned(256)));
static int64_t shape[2] = {8, 16};

typedef struct {
  DLTensor x, y;
  fuser_arg args[3];
} call_args;

static void make_args(call_args *c) {
  c->x = example_tensor(xs, 2, shape, NULL);
  c->y = example_tensor(ys, 2, shape, NULL);
  c->args[0] = fuser_arg_tensor(&c->x);
  c->args[1] = fuser_arg_tensor(&c->y);
  c->args[2] = fuser_arg_int(3);
}

static fuser_function *load(fuser_runtime *rt) {
  fuser_artifact *a = example_add_artifact(1, &err);
  fuser_function *fn = NULL;
  if (!a || fuser_load(rt, a, &fn, &err) != FUSER_OK) fprintf(stderr, "load: %s\n", err.message);
  fuser_artifact_release(a);
  return fn;
}

/* A runtime on `stream` and the example function loaded into it (null after
 * a failed check). */
static fuser_function *open_function(void *stream, fuser_runtime **rt) {
  CHECK_EQ_INT(fuser_runtime_create(0, stream, NULL, rt, &err), FUSER_OK);
  fuser_function *fn = load(*rt);
  CHECK(fn != NULL);
  return fn;
}

/* One call on `stream`; returns output 0's pointer (out[0] holds it). */
static void *run(fuser_function *fn, void *stream, fuser_output out[2]) {
  call_args c;
  make_args(&c);
  if (fuser_execute_on(fn, stream, c.args, 3, out, 2, &err) != FUSER_OK) {
    fprintf(stderr, "execute: %s\n", err.message);
    return NULL;
  }
  return out[0].tensor.data;
}

static fuser_device_cache_stats stats_of(fuser_runtime *rt) {
  fuser_device_cache_stats s;
  fuser_runtime_cache_stats(rt, &s);
  return s;
}

static void test_reuse(void) {
  fuser_runtime *rt;
  fuser_function *fn = open_function(S(1), &rt);
  if (!fn) return;
  fuser_output out[2], held[2];
  int allocs = fake->allocs, frees = fake->frees;

  /* warm: one driver allocation, then the same block every call */
  void *first = run(fn, S(1), out);
  CHECK(first != NULL);
  CHECK_EQ_INT(out[0].allocated_by, FUSER_ALLOCATED_RUNTIME);
  fuser_output_release_on(rt, &out[0], S(1));
  int ids = fake->stream_id_calls;
  for (int i = 0; i < 100; i++) {
    CHECK(run(fn, S(1), out) == first);
    fuser_output_release_on(rt, &out[0], S(1));
  }
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  CHECK_EQ_INT(fake->frees, frees);
  CHECK_EQ_INT(fake->stream_id_calls, ids + 100); /* one per call; none for a free on the same stream */
  fuser_device_cache_stats s = stats_of(rt);
  CHECK_EQ_INT(s.misses, 1);
  CHECK_EQ_INT(s.hits, 100);
  CHECK_EQ_INT(s.idle_blocks, 1);
  CHECK_EQ_INT(s.idle_bytes, 512);
  CHECK_EQ_INT(s.in_use_blocks, 0);

  /* two live outputs never share a block */
  CHECK(run(fn, S(1), held) == first);
  void *second = run(fn, S(1), out);
  CHECK(second != NULL && second != first);
  CHECK_EQ_INT(stats_of(rt).in_use_blocks, 2);
  fuser_output_release_on(rt, &out[0], S(1));
  fuser_output_release_on(rt, &held[0], S(1));

  /* another stream does not get stream 1's blocks */
  allocs = fake->allocs;
  void *on2 = run(fn, S(2), out);
  CHECK(on2 != first && on2 != second);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  CHECK_EQ_INT(fake->stream_allocs[2], 1);
  /* freed on stream 3 (the caller's promise: its uses are ordered there):
   * the block now serves stream 3, not stream 2 */
  fuser_output_release_on(rt, &out[0], S(3));
  CHECK(run(fn, S(3), out) == on2);
  fuser_output_release_on(rt, &out[0], S(3));
  allocs = fake->allocs;
  void *again2 = run(fn, S(2), out);
  CHECK(again2 != on2);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  fuser_output_release_on(rt, &out[0], S(2));

  /* streams destroyed and created again under the same handles (new ids):
   * the old streams' blocks are not handed out */
  fake->stream_generation++;
  allocs = fake->allocs;
  void *fresh = run(fn, S(1), out);
  CHECK(fresh != first && fresh != second);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  fuser_output_release_on(rt, &out[0], S(1));
  CHECK(run(fn, S(1), out) == fresh);
  fuser_output_release_on(rt, &out[0], S(1));

  /* the DLPack deleter returns the block to the cache */
  CHECK(run(fn, S(1), out) == fresh);
  DLManagedTensorVersioned *m = NULL;
  CHECK_EQ_INT(fuser_output_to_managed(rt, &out[0], &m, &err), FUSER_OK);
  CHECK_EQ_INT(stats_of(rt).in_use_blocks, 1);
  if (m) m->deleter(m);
  CHECK_EQ_INT(stats_of(rt).in_use_blocks, 0);
  CHECK(run(fn, S(1), out) == fresh);

  /* empty_cache: every idle block back (after a context sync); the held one stays */
  s = stats_of(rt);
  int syncs = fake->ctx_syncs;
  frees = fake->frees;
  CHECK_EQ_INT(fuser_runtime_empty_cache(rt, &err), FUSER_OK);
  CHECK_EQ_INT(fake->ctx_syncs, syncs + 1);
  CHECK_EQ_INT(fake->frees, frees + (int)s.idle_blocks);
  CHECK_EQ_INT(stats_of(rt).idle_blocks, 0);
  CHECK_EQ_INT(stats_of(rt).in_use_blocks, 1);
  CHECK_EQ_INT(stats_of(rt).frees, s.idle_blocks);
  fuser_output_release_on(rt, &out[0], S(1)); /* still ours: cached again */
  CHECK_EQ_INT(stats_of(rt).idle_blocks, 1);

  /* out of memory: idle blocks go back and the allocation is tried again */
  run(fn, S(2), held); /* a 512-byte block held, the stream-1 one idle */
  fake->fail_alloc_above = 100;
  syncs = fake->ctx_syncs;
  frees = fake->frees;
  CHECK(run(fn, S(4), out) == NULL);
  CHECK(strstr(err.message, "cuMemAllocAsync of 512 bytes failed") != NULL);
  CHECK_EQ_INT(fake->ctx_syncs, syncs + 1);
  CHECK_EQ_INT(fake->frees, frees + 1);
  CHECK_EQ_INT(stats_of(rt).idle_blocks, 0);
  fake->fail_alloc_above = 0;
  fuser_output_release_on(rt, &held[0], S(2));

  /* destroy gives the idle blocks back */
  fuser_function_destroy(fn);
  frees = fake->frees;
  fuser_runtime_destroy(rt);
  CHECK_EQ_INT(fake->frees, frees + 1);
  CHECK_EQ_INT(fake->allocs, fake->frees);
}

/* Without cuStreamGetId (drivers before CUDA 12) streams are told apart by
 * handle. */
static void test_by_handle(void) {
  fake->no_stream_id = 1;
  fuser_runtime *rt;
  fuser_function *fn = open_function(S(1), &rt);
  if (!fn) return;
  fuser_output out[2];
  void *a = run(fn, S(5), out);
  fuser_output_release_on(rt, &out[0], S(5));
  CHECK(run(fn, S(5), out) == a);
  fuser_output_release_on(rt, &out[0], S(5));
  CHECK(run(fn, S(6), out) != a);
  fuser_output_release_on(rt, &out[0], S(6));
  CHECK_EQ_INT(stats_of(rt).misses, 2);
  CHECK_EQ_INT(stats_of(rt).hits, 1);
  fuser_function_destroy(fn);
  fuser_runtime_destroy(rt);
  fake->no_stream_id = 0;
}

/* ---- threads: each on its own stream, two outputs alive at a time --------- */

enum { THREADS = 4, CALLS = 500 };
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static void *held_by[THREADS][2]; /* the blocks each thread holds now */
static int shared_blocks;         /* a block held by two threads at once */

static int held_elsewhere(int self, void *p) {
  for (int t = 0; t < THREADS; t++)
    if (t != self && (held_by[t][0] == p || held_by[t][1] == p)) return 1;
  return 0;
}

typedef struct {
  fuser_function *fn;
  fuser_runtime *rt;
  int index, failures;
} job;

static void *worker(void *arg) {
  job *j = arg;
  void *stream = S(j->index + 1);
  fuser_output outs[2][2];
  int live[2] = {0, 0};
  for (int i = 0; i < CALLS; i++) {
    int k = i % 2;
    if (live[k]) {
      pthread_mutex_lock(&held_lock);
      held_by[j->index][k] = NULL;
      pthread_mutex_unlock(&held_lock);
      if (i % 3) fuser_output_release_on(j->rt, &outs[k][0], stream);
      else {
        DLManagedTensorVersioned *m;
        if (fuser_output_to_managed(j->rt, &outs[k][0], &m, &err) != FUSER_OK) j->failures++;
        else m->deleter(m);
      }
      live[k] = 0;
    }
    call_args c;
    make_args(&c);
    fuser_error e;
    if (fuser_execute_on(j->fn, stream, c.args, 3, outs[k], 2, &e) != FUSER_OK) {
      j->failures++;
      continue;
    }
    live[k] = 1;
    pthread_mutex_lock(&held_lock);
    if (held_elsewhere(j->index, outs[k][0].tensor.data)) shared_blocks++;
    held_by[j->index][k] = outs[k][0].tensor.data;
    pthread_mutex_unlock(&held_lock);
  }
  for (int k = 0; k < 2; k++)
    if (live[k]) fuser_output_release_on(j->rt, &outs[k][0], stream);
  return NULL;
}

static void test_threads(void) {
  fuser_runtime *rt;
  fuser_function *fn = open_function(S(15), &rt);
  if (!fn) return;
  memset(fake->stream_allocs, 0, sizeof fake->stream_allocs);
  memset(fake->stream_launches, 0, sizeof fake->stream_launches);
  pthread_t th[THREADS];
  job jobs[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (job){fn, rt, t, 0};
    pthread_create(&th[t], NULL, worker, &jobs[t]);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    CHECK_EQ_INT(jobs[t].failures, 0);
  }
  CHECK_EQ_INT(shared_blocks, 0);
  for (int t = 1; t <= THREADS; t++) {
    CHECK_EQ_INT(fake->stream_launches[t], CALLS);
    CHECK_EQ_INT(fake->stream_allocs[t], 2); /* two blocks per stream, reused ever after */
  }
  fuser_device_cache_stats s = stats_of(rt);
  CHECK_EQ_INT(s.misses, 2 * THREADS);
  CHECK_EQ_INT(s.hits, THREADS * CALLS - 2 * THREADS);
  CHECK_EQ_INT(s.in_use_blocks, 0);
  CHECK_EQ_INT(s.idle_blocks, 2 * THREADS);
  fuser_function_destroy(fn);
  fuser_runtime_destroy(rt);
}

static void test_off(void) {
  setenv("FUSER_DEVICE_CACHE", "0", 1); /* read when the runtime is made */
  fuser_runtime *rt;
  fuser_function *fn = open_function(S(1), &rt);
  unsetenv("FUSER_DEVICE_CACHE");
  if (!fn) return;
  fuser_output out[2];
  int allocs = fake->allocs, frees = fake->frees;
  for (int i = 0; i < 10; i++) {
    run(fn, S(1), out);
    fuser_output_release_on(rt, &out[0], S(1));
  }
  CHECK_EQ_INT(fake->allocs, allocs + 10);
  CHECK_EQ_INT(fake->frees, frees + 10);
  CHECK_EQ_INT(stats_of(rt).hits + stats_of(rt).misses, 0);
  CHECK_EQ_INT(fuser_runtime_empty_cache(rt, &err), FUSER_OK);
  fuser_function_destroy(fn);
  fuser_runtime_destroy(rt);
}

static void test_capture(void) {
  fuser_runtime *rt;
  fuser_function *fn = open_function(S(1), &rt);
  if (!fn) return;
  fuser_output out[2], before[2];
  void *warm = run(fn, S(1), out); /* an idle block of stream 1 */
  fuser_output_release_on(rt, &out[0], S(1));
  void *held = run(fn, S(1), before); /* taken before the capture */
  CHECK(held == warm);
  fake->capturing_stream = S(1);
  int allocs = fake->allocs, frees = fake->frees;
  fuser_device_cache_stats s0 = stats_of(rt);
  /* inside the capture: the driver's (captured) allocation, not a cached block */
  void *in_graph = run(fn, S(1), out);
  CHECK(in_graph != NULL && in_graph != warm);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  CHECK_EQ_INT(stats_of(rt).hits, s0.hits);
  fuser_output_release_on(rt, &out[0], S(1));
  CHECK_EQ_INT(fake->frees, frees + 1); /* a captured free */
  /* a cached block released inside the capture is the graph's from now on */
  fuser_output_release_on(rt, &before[0], S(1));
  fake->capturing_stream = NULL;
  void *after = run(fn, S(1), out);
  CHECK(after != NULL && after != held);
  fuser_output_release_on(rt, &out[0], S(1));
  /* a driver that cannot say: the cache stays off for that call */
  fake->no_capture_query = 1;
  allocs = fake->allocs;
  run(fn, S(1), out);
  CHECK_EQ_INT(fake->allocs, allocs + 1);
  fuser_output_release_on(rt, &out[0], S(1));
  fake->no_capture_query = 0;
  fuser_function_destroy(fn);
  fuser_runtime_destroy(rt);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: unit_driver_device_cache PATH_TO_FAKE_LIBCUDA\n");
    return 2;
  }
  unsetenv("FUSER_DEVICE_CACHE");
  if (!(fake = fake_cuda_open(argv[1]))) return 1;
  test_reuse();
  test_by_handle();
  test_threads();
  test_off();
  test_capture();
  UNIT_MAIN_END();
}
