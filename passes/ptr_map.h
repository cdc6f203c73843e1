/* ptr_map.h: an open-addressing hash map from pointers (MLIR handles'
 * .ptr) to intptr_t, for per-value and per-op analysis state. */
#ifndef FUSER_PASSES_PTR_MAP_H
#define FUSER_PASSES_PTR_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  const void **keys;
  intptr_t *values;
  int cap, count;
} fuser_ptr_map;

void fuser_ptr_map_init(fuser_ptr_map *m);
void fuser_ptr_map_free(fuser_ptr_map *m);
void fuser_ptr_map_put(fuser_ptr_map *m, const void *key, intptr_t value);
/* Returns false when absent. */
bool fuser_ptr_map_get(const fuser_ptr_map *m, const void *key, intptr_t *value);

#endif
