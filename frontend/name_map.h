/* name_map.h: a hash map from names (byte strings, copied in) to intptr_t,
 * for the importer's Python environment and the exporter's names, so that
 * both are linear in the number of statements (a linear scan per lookup
 * made 200k-op scripts take 15 s to import). */
#ifndef FUSER_FRONTEND_NAME_MAP_H
#define FUSER_FRONTEND_NAME_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  char **keys; /* NULL: empty slot */
  size_t *lens;
  intptr_t *values;
  size_t cap, count;
  /* When set, every slot a lookup or insertion looks at adds one here
   * (growth included): test/frontend/unit_frontend.c bounds it per
   * operation, so that a slower map (a scan, clustering) fails a test
   * rather than a benchmark. */
  size_t *probes;
} fuser_name_map;

void fuser_name_map_free(fuser_name_map *m);
/* Sets (or replaces) the value of `name`. */
void fuser_name_map_put(fuser_name_map *m, const char *name, size_t len, intptr_t value);
/* Returns false when absent. */
bool fuser_name_map_get(const fuser_name_map *m, const char *name, size_t len, intptr_t *value);

#endif
