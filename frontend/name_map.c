/* Name-keyed hash map (name_map.h): FNV-1a, linear probing, power-of-two
 * size, grown at half full. A zeroed struct is an empty map. */
#include "frontend/name_map.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s, size_t len, size_t cap) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

void fuser_name_map_free(fuser_name_map *m) {
  for (size_t i = 0; i < m->cap; i++) free(m->keys[i]);
  free(m->keys);
  free(m->lens);
  free(m->values);
  size_t *probes = m->probes;
  memset(m, 0, sizeof *m);
  m->probes = probes;
}

static size_t slot(const fuser_name_map *m, const char *name, size_t len) {
  size_t i = hash(name, len, m->cap), steps = 1;
  while (m->keys[i] && !(m->lens[i] == len && memcmp(m->keys[i], name, len) == 0)) i = (i + 1) & (m->cap - 1), steps++;
  if (m->probes) *m->probes += steps;
  return i;
}

static void grow(fuser_name_map *m) {
  fuser_name_map bigger = {.probes = m->probes};
  bigger.cap = m->cap ? m->cap * 2 : 64;
  bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
  bigger.lens = calloc(bigger.cap, sizeof *bigger.lens);
  bigger.values = calloc(bigger.cap, sizeof *bigger.values);
  if (!bigger.keys || !bigger.lens || !bigger.values) abort(); /* out of memory */
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = slot(&bigger, m->keys[i], m->lens[i]);
    bigger.keys[j] = m->keys[i], bigger.lens[j] = m->lens[i], bigger.values[j] = m->values[i];
    bigger.count++;
  }
  free(m->keys);
  free(m->lens);
  free(m->values);
  *m = bigger;
}

void fuser_name_map_put(fuser_name_map *m, const char *name, size_t len, intptr_t value) {
  if (2 * (m->count + 1) > m->cap) grow(m);
  size_t i = slot(m, name, len);
  if (!m->keys[i]) {
    char *key = malloc(len ? len : 1);
    if (!key) abort();
    memcpy(key, name, len);
    m->keys[i] = key;
    m->lens[i] = len;
    m->count++;
  }
  m->values[i] = value;
}

bool fuser_name_map_get(const fuser_name_map *m, const char *name, size_t len, intptr_t *value) {
  if (!m->cap) return false;
  size_t i = slot(m, name, len);
  if (!m->keys[i]) return false;
  if (value) *value = m->values[i];
  return true;
}
