/* call_memo.h: the per-function memo of fuser_execute's hot path (internal).
 *
 * Everything fuser_execute decides before it allocates (the inputs are
 * valid, each kernel's variant and grid, the non-pointer parameter values,
 * each output's sizes, strides and bytes, each temp's size) is a function of
 * the call's *signature*: per tensor input its dtype, rank, device, sizes,
 * strides (or their absence), whether data is NULL, and the part of its
 * address the artifact's expressions can see; per scalar its kind and, for
 * integers, its value. The memo keeps the signatures and plans of the last
 * few (4) successful calls of distinct signatures; a call whose signature
 * compares equal to one takes its plan and only adds what is per call: data
 * pointers, alias outputs' addresses, floating scalars (docs/runtime.md,
 * "The hot path", says why this is exact).
 *
 * The part of an address that is in the signature is found at load time
 * from the artifact's expressions: an input whose address is only used as
 * `(addr(i) + c) % C` (c a constant below 2^32 in magnitude, C a power of
 * two up to 2^32, constant subexpressions folded) contributes its address
 * modulo the largest such C, provided the address lies in
 * [2^32, 2^63 - 2^32) (so addr + c neither wraps nor changes sign; calls
 * outside that range are never memoised); an input whose address is used
 * in any other way contributes the whole address; others none.
 *
 * Threads: lookup and store take the memo with a try-lock; a call that finds
 * it taken (another thread is in it) plans from scratch and stores nothing,
 * so concurrent fuser_execute on one function stays correct. */
#ifndef FUSER_DRIVER_CALL_MEMO_H
#define FUSER_DRIVER_CALL_MEMO_H

#include "driver/artifact.h"

#include <stdatomic.h>

/* What one call plans from its signature, on the stack of fuser_execute. */
typedef struct fuser_call_plan {
  uint16_t chosen[FUSER_MAX_KERNELS]; /* variant per kernel */
  unsigned grid[FUSER_MAX_KERNELS][3];
  /* one per kernel parameter, all kernels in order: I32/I64 values (i32 in
   * the low 4 bytes); POINTER: byte offset from the buffer's base; F32/F64:
   * unused (converted from the argument per call) */
  int64_t slots[FUSER_MAX_TOTAL_PARAMS];
  size_t temp_bytes[FUSER_MAX_TEMPS];
} fuser_call_plan;

enum { FUSER_ADDR_UNUSED = 0, FUSER_ADDR_MODULO = 1, FUSER_ADDR_WHOLE = 2 };

/* Plans kept per function unless FUSER_EXECUTE_MEMO says otherwise. */
#define FUSER_MEMO_DEFAULT_ENTRIES 4
#define FUSER_MEMO_MAX_ENTRIES 64

/* One remembered call: its signature and its plan. */
typedef struct fuser_memo_entry {
  int valid;
  uint64_t used; /* the memo's clock at its last hit or store (least recently used goes first) */
  int64_t *key;
  uint16_t *chosen;
  unsigned (*grid)[3];
  int64_t *slots;
  size_t *temp_bytes;
  int64_t *out_dims;    /* per output: sizes[rank] then strides[rank] */
  size_t *out_bytes;
  int64_t *alias_delta; /* per alias output: its byte_offset minus its input's */
} fuser_memo_entry;

typedef struct fuser_call_memo {
  atomic_flag busy;
  int nentries; /* 0: off (FUSER_EXECUTE_MEMO=0 at load, or an allocation failed) */
  int last;     /* the entry hit or stored last: compared first */
  uint64_t clock;
  /* the signature's shape, fixed at load */
  uint8_t *addr_use;      /* per input: FUSER_ADDR_* */
  uint64_t *addr_modulus; /* per input, FUSER_ADDR_MODULO: the largest C */
  size_t key_len, nslots;
  fuser_memo_entry *entries;
  /* counts, for tests and benchmarks (changed under the lock) */
  size_t hits, stores;
} fuser_call_memo;

/* Sets the memo up for artifact a with FUSER_MEMO_DEFAULT_ENTRIES plans, or
 * as many as the environment variable FUSER_EXECUTE_MEMO says (0 = off, at
 * most FUSER_MEMO_MAX_ENTRIES). Returns 0, or -1 when out of memory (then the
 * memo is off and every call plans from scratch). */
int fuser_call_memo_init(fuser_call_memo *m, const fuser_artifact *a);
void fuser_call_memo_free(fuser_call_memo *m);

/* The address-use analysis on its own (tests): per input FUSER_ADDR_* and
 * the modulus, for every expression of a. */
void fuser_call_memo_analyse(const fuser_artifact *a, uint8_t *addr_use, uint64_t *addr_modulus);

/* On a signature equal to a stored one: fills plan (kernels' and temps'
 * parts) and outputs (sizes, strides, bytes, dtype; alias outputs' data,
 * byte_offset and device from their input) and returns 1. Otherwise returns
 * 0 and the caller plans from scratch. nargs must equal a->ninputs. */
int fuser_call_memo_lookup(fuser_call_memo *m, const fuser_artifact *a, const fuser_arg *args,
                           fuser_call_plan *plan, fuser_output *outputs);

/* Stores a plan made from scratch for args (which passed every check), with
 * outputs as planned, in place of the least recently used entry; does
 * nothing when another thread holds the memo. A signature that cannot be
 * memoised (an address outside the range above) only empties that entry. */
void fuser_call_memo_store(fuser_call_memo *m, const fuser_artifact *a, const fuser_arg *args,
                           const fuser_call_plan *plan, const fuser_output *outputs);

/* The memo of a loaded function (runtime.c), for tests. */
const fuser_call_memo *fuser_function_memo_(const fuser_function *fn);

#endif
