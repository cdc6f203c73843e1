/* allocation_order.h: fuser-allocation-order's inference on one fusion
 * function (passes/allocation_order.c), for passes that need the layouts
 * nvFuser would give before they change the graph (fuser-hoist-reshape). */
#ifndef FUSER_PASSES_ALLOCATION_ORDER_H
#define FUSER_PASSES_ALLOCATION_ORDER_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/* Writes `fuser.stride_order` on every producing op and result of `func`
 * (explicit result orders win), as the pass does. */
bool fuser_allocation_order_fusion(MlirOperation func);

#endif
