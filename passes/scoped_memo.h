/* scoped_memo.h: a hash map from fixed-size byte keys to values, with
 * LIFO removal: entries are pushed, and popped back to a mark when a scope
 * ends. Chained buckets whose head is always the newest entry make both
 * O(1), and a lookup finds the newest entry for a key (the one of the
 * innermost scope). Used for the walkers' memos (value x index). */
#ifndef FUSER_PASSES_SCOPED_MEMO_H
#define FUSER_PASSES_SCOPED_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  size_t key_size, value_size;
  unsigned char *entries; /* each: int next; key; value (aligned to 8) */
  size_t entry_size;
  int count, cap;
  int *buckets;
  int nbuckets;
} fuser_scoped_memo;

void fuser_scoped_memo_init(fuser_scoped_memo *m, size_t key_size, size_t value_size);
void fuser_scoped_memo_free(fuser_scoped_memo *m);
/* The newest value stored for key, or NULL. */
void *fuser_scoped_memo_find(const fuser_scoped_memo *m, const void *key);
/* Stores a new entry (shadowing older ones for the same key); returns its value slot. */
void *fuser_scoped_memo_push(fuser_scoped_memo *m, const void *key, const void *value);
/* The number of entries: a mark for fuser_scoped_memo_pop_to. */
int fuser_scoped_memo_mark(const fuser_scoped_memo *m);
void fuser_scoped_memo_pop_to(fuser_scoped_memo *m, int mark);

#endif
