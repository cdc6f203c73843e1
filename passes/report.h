/* report.h: the human-readable segmentation report (`fuser-opt --fuser-report`
 * and the `fuser-report` pass): per fusion its kernels, and per kernel its
 * ops, global inputs and outputs with their strides, vector width and
 * run-time conditions, and why the kernel boundary exists. */
#ifndef FUSER_PASSES_REPORT_H
#define FUSER_PASSES_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "mlir-c/IR.h"

/* Prints each fusion's kernels and schedules to out. False, with located
 * errors and nothing printed, for a module it cannot report on (a kernel
 * declaration: fuser_check_kernel_bodies). */
bool fuser_report(MlirOperation module, FILE *out);

#endif
