/* Pointer-keyed hash map (ptr_map.h): linear probing, power-of-two size. */
#include "passes/ptr_map.h"

#include <stdlib.h>

static unsigned hash(const void *p, int cap) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(x >> 32) & (unsigned)(cap - 1);
}

void fuser_ptr_map_init(fuser_ptr_map *m) {
  m->cap = 64;
  m->count = 0;
  m->keys = calloc(m->cap, sizeof *m->keys);
  m->values = calloc(m->cap, sizeof *m->values);
}

void fuser_ptr_map_free(fuser_ptr_map *m) {
  free(m->keys);
  free(m->values);
  m->keys = NULL;
  m->values = NULL;
}

static void grow(fuser_ptr_map *m) {
  fuser_ptr_map bigger = {calloc(m->cap * 2, sizeof *m->keys), calloc(m->cap * 2, sizeof *m->values), m->cap * 2, 0};
  for (int i = 0; i < m->cap; i++)
    if (m->keys[i]) fuser_ptr_map_put(&bigger, m->keys[i], m->values[i]);
  fuser_ptr_map_free(m);
  *m = bigger;
}

void fuser_ptr_map_put(fuser_ptr_map *m, const void *key, intptr_t value) {
  if (2 * (m->count + 1) > m->cap) grow(m);
  unsigned i = hash(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (unsigned)(m->cap - 1);
  if (!m->keys[i]) m->count++;
  m->keys[i] = key;
  m->values[i] = value;
}

bool fuser_ptr_map_get(const fuser_ptr_map *m, const void *key, intptr_t *value) {
  unsigned i = hash(key, m->cap);
  while (m->keys[i]) {
    if (m->keys[i] == key) {
      if (value) *value = m->values[i];
      return true;
    }
    i = (i + 1) & (unsigned)(m->cap - 1);
  }
  return false;
}
