/* The registry of named pipelines (named_pipeline.h), filled at run time. */
#include "passes/named_pipeline.h"

#include <string.h>

#define MAX_PIPELINES 16
static const fuser_named_pipeline *table[MAX_PIPELINES];
static int count;

int fuser_named_pipeline_count(void) { return count; }
const fuser_named_pipeline *fuser_named_pipeline_at(int i) { return table[i]; }

const fuser_named_pipeline *fuser_named_pipeline_lookup(const char *argument, size_t len) {
  for (int i = 0; i < count; i++)
    if (strlen(table[i]->argument) == len && memcmp(table[i]->argument, argument, len) == 0) return table[i];
  return NULL;
}

bool fuser_named_pipeline_register(const fuser_named_pipeline *p) {
  if (fuser_named_pipeline_lookup(p->argument, strlen(p->argument))) return true; /* once */
  if (count == MAX_PIPELINES) return false;
  table[count++] = p;
  return true;
}
