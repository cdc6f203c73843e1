/* fuser-segment's grouping: roots into kernels, by level, shape and the
 * op budget; a matmul alone. */
#include <stdlib.h>

#include "passes/segment_internal.h"

/* Assigns roots to kernels. A root's level is one more than the highest
 * level of the roots its cone reads (0 when it reads none); a root can only
 * depend on roots of lower levels, so roots of the same shape and level are
 * independent and share a kernel, as long as the kernel stays within the op
 * budget. One cone walk per root: linear in the size of the cones. */
void seg_group_roots(seg_state *st) {
  int n = st->nroots;
  int *order = malloc(sizeof *order * (n + 1)), *level = calloc(n + 1, sizeof *level);
  intptr_t *kernel_ops = calloc(n + 1, sizeof *kernel_ops); /* ops per kernel so far */
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = 1; i < n; i++) /* program order: inputs of a root come first */
    for (int j = i; j > 0 && position_of(st, st->roots[order[j - 1]].value) > position_of(st, st->roots[order[j]].value); j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int oi = 0; oi < n; oi++) {
    int i = order[oi];
    kernel_cone k = {0};
    fuser_ptr_map_init(&k.in_cone);
    fuser_ptr_map_init(&k.input_index);
    seg_collect_cone(st, &k, st->roots[i].value, -2);
    for (int in = 0; in < k.ninputs; in++) {
      intptr_t ri;
      if (fuser_ptr_map_get(&st->root_index, k.inputs[in].ptr, &ri) && level[ri] + 1 > level[i]) level[i] = level[ri] + 1;
    }
    fuser_ptr_map_free(&k.in_cone);
    fuser_ptr_map_free(&k.input_index);
    free(k.inputs);
    root_info *r = &st->roots[i];
    for (int oj = 0; oj < oi && r->kernel < 0 && !is_alias_copy(st, r->value); oj++) {
      root_info *o = &st->roots[order[oj]];
      bool fits = st->budget <= 0 || kernel_ops[o->kernel] + k.nops <= st->budget;
      if (level[order[oj]] == level[i] && seg_same_shape(st, o->value, r->value) && fits && !is_matmul(o->value) &&
          !is_matmul(r->value))
        r->kernel = o->kernel;
    }
    if (r->kernel < 0) r->kernel = st->nkernels++;
    kernel_ops[r->kernel] += k.nops; /* cones of one kernel may share ops: an upper bound */
    free(k.ops);
  }
  free(order);
  free(level);
  free(kernel_ops);
}
