/* row_cluster.h: the thread-block cluster primitives of the row schedules'
 * cluster variant (sm_90 distributed shared memory), built as upstream
 * nvvm / llvm / memref ops (../shared/notes/reductions.md, "Op -> PTX map").
 *
 * The cluster variant (passes/schedule_reduction.h) gives a row to S
 * blocks of one cluster; after each block reduction, every block pushes
 * its partial into slot [rank] of a per-phase buffer in every block of the
 * cluster (thread t < S writes block t's buffer: no remote loads), one
 * cluster barrier, and each block combines the S slots in rank order. */
#ifndef FUSER_LOWERING_ROW_CLUSTER_H
#define FUSER_LOWERING_ROW_CLUSTER_H

#include <stdbool.h>

#include "lowering/builder.h"

/* nvvm.cluster.arrive{.relaxed} {aligned}: every thread of the block calls it. */
void fb_cluster_arrive(fb_builder *b, bool relaxed);
/* nvvm.cluster.wait {aligned} */
void fb_cluster_wait(fb_builder *b);
/* Stores scalar v into element `slot` (index) of workgroup buffer wg
 * (memref<N x T, workgroup>) of the cluster's block `rank` (index):
 * memref.extract_aligned_pointer_as_index, the byte offset added as i64,
 * llvm.inttoptr to !llvm.ptr<3>, nvvm.mapa to !llvm.ptr<7>, llvm.store. */
void fb_dsmem_store(fb_builder *b, MlirValue v, MlirValue wg, MlirValue slot, MlirValue rank);

#endif
