/* plan_matmul.h: a plan model's matmul segment (fpm_matmul) as the
 * artifact's matmul kernel (driver/artifact_builder.h,
 * fuser_builder_add_matmul), which the runtime runs through cuBLASLt. */
#ifndef FUSER_LOWERING_PLAN_MATMUL_H
#define FUSER_LOWERING_PLAN_MATMUL_H

#include "lowering/plan_model.h"

struct fuser_builder;

/* Adds kernel k (k->matmul set) with its operands of runtime dtype `dtype`;
 * errors are kept by the builder (fuser_builder_finish reports them).
 * Returns the kernel index or -1. */
int fuser_plan_add_matmul(struct fuser_builder *b, const fpm_kernel *k, int dtype);

#endif
