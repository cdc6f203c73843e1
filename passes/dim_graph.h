/* dim_graph.h: which tensor dims of a fusion are the same iteration dim.
 *
 * A union-find over (value, dim) pairs, joined where nvFuser's semantics
 * make two extents equal and the dims map one to one (its EXACT map):
 * element-wise operands and results (except broadcast dims of extent 1),
 * broadcast_in_dim/expand/broadcast/squeeze kept dims, permutations, dims a
 * slice or pad leaves unchanged, cat's other dims, a reduction's kept dims,
 * a factory's (full, uniform, normal) result dim given as fuser.size(t, k)
 * and t's dim k.
 * Resized dims (slice, pad, cat dim) and reshapes are not mapped.
 *
 * Two uses: the allocation-order pass maps an input's allocation order onto
 * other tensors through it, and a class with one static member gives every
 * member that static extent (a `?` input dim broadcast to 1024 is 1024). */
#ifndef FUSER_PASSES_DIM_GRAPH_H
#define FUSER_PASSES_DIM_GRAPH_H

#include <stdint.h>

#include "mlir-c/IR.h"
#include "passes/ptr_map.h"

typedef struct {
  fuser_ptr_map first; /* value -> index of its dim 0 node */
  int *parent;
  int64_t *extent; /* per node: its static extent or kDynamic */
  int count, cap;
} fuser_dim_graph;

/* Builds the graph of a fusion function's body (arguments and op results). */
void fuser_dim_graph_build(fuser_dim_graph *g, MlirOperation func);
void fuser_dim_graph_free(fuser_dim_graph *g);

/* The node of (v, dim), or -1 when v is not a tensor of the body. */
int fuser_dim_node(fuser_dim_graph *g, MlirValue v, int dim);
int fuser_dim_class(fuser_dim_graph *g, int node);
/* The static extent of the node's class, or kDynamic. */
int64_t fuser_dim_static_extent(fuser_dim_graph *g, int node);

#endif
