/* scoped_memo.c: the memo of scoped_memo.h. */
#include "passes/scoped_memo.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

void fuser_scoped_memo_init(fuser_scoped_memo *m, size_t key_size, size_t value_size) {
  memset(m, 0, sizeof *m);
  m->key_size = key_size;
  m->value_size = value_size;
  m->entry_size = 8 + ALIGN8(key_size) + ALIGN8(value_size);
}

void fuser_scoped_memo_free(fuser_scoped_memo *m) {
  free(m->entries);
  free(m->buckets);
  memset(m, 0, sizeof *m);
}

static unsigned char *entry(const fuser_scoped_memo *m, int i) { return m->entries + (size_t)i * m->entry_size; }
static int *next_of(unsigned char *e) { return (int *)e; }
static unsigned char *key_of(unsigned char *e) { return e + 8; }
static unsigned char *value_of(const fuser_scoped_memo *m, unsigned char *e) { return e + 8 + ALIGN8(m->key_size); }

static uint64_t hash(const void *key, size_t n) { /* FNV-1a */
  const unsigned char *p = key;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h ^ (h >> 32);
}

static int bucket(const fuser_scoped_memo *m, const void *key) {
  return (int)(hash(key, m->key_size) & (uint64_t)(m->nbuckets - 1));
}

void *fuser_scoped_memo_find(const fuser_scoped_memo *m, const void *key) {
  if (!m->nbuckets) return NULL;
  for (int i = m->buckets[bucket(m, key)]; i >= 0; i = *next_of(entry(m, i))) {
    unsigned char *e = entry(m, i);
    if (memcmp(key_of(e), key, m->key_size) == 0) return value_of(m, e);
  }
  return NULL;
}

static void rehash(fuser_scoped_memo *m, int nbuckets) {
  free(m->buckets);
  m->nbuckets = nbuckets;
  m->buckets = malloc((size_t)nbuckets * sizeof *m->buckets);
  for (int i = 0; i < nbuckets; i++) m->buckets[i] = -1;
  for (int i = 0; i < m->count; i++) { /* oldest first: the newest ends up at each head */
    unsigned char *e = entry(m, i);
    int b = bucket(m, key_of(e));
    *next_of(e) = m->buckets[b];
    m->buckets[b] = i;
  }
}

void *fuser_scoped_memo_push(fuser_scoped_memo *m, const void *key, const void *value) {
  if (m->count == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->entries = realloc(m->entries, (size_t)m->cap * m->entry_size);
  }
  if (m->count + 1 > m->nbuckets) rehash(m, m->nbuckets ? 2 * m->nbuckets : 64);
  unsigned char *e = entry(m, m->count);
  memcpy(key_of(e), key, m->key_size);
  memcpy(value_of(m, e), value, m->value_size);
  int b = bucket(m, key);
  *next_of(e) = m->buckets[b];
  m->buckets[b] = m->count++;
  return value_of(m, e);
}

int fuser_scoped_memo_mark(const fuser_scoped_memo *m) { return m->count; }

void fuser_scoped_memo_pop_to(fuser_scoped_memo *m, int mark) {
  while (m->count > mark) {
    unsigned char *e = entry(m, --m->count);
    m->buckets[bucket(m, key_of(e))] = *next_of(e);
  }
}
