/* special_fns.h: the element-wise ops without a math-dialect op (erfinv,
 * erfcinv, lgamma, nextafter). Kernels call them by a target-neutral name
 * (`func.call @fuser_erfinv_f32`, declared private in the kernel's module),
 * so the loops are the same for both targets; the GPU lowering renames each
 * call to libdevice's function (`__nv_erfinvf`, linked and inlined by
 * gpu-module-to-binary), the CPU JIT binds the name to a host function that
 * computes what the reference computes (reference/special.h, libm).
 *
 *   %y = func.call @fuser_lgamma_f32(%x) : (f32) -> f32
 * in gpu.module @fuser_kernels_i32 becomes
 *   %y = func.call @__nv_lgammaf(%x) : (f32) -> f32
 * with `func.func private @__nv_lgammaf(f32) -> f32` in that module. */
#ifndef FUSER_LOWERING_SPECIAL_FNS_H
#define FUSER_LOWERING_SPECIAL_FNS_H

#include <stdbool.h>

#include "dialects/fuser.h"
#include "lowering/builder.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"

/* Whether id is one of these ops. */
bool fuser_special_fn_known(fuser_op_id id);
/* id of x[0] (and x[1] for nextafter; f32 or f64, scalars or vectors of one
 * type: one call per lane) at b's insertion point; declares the callee in
 * the enclosing module. */
MlirValue fuser_special_fn_call(fb_builder *b, fuser_op_id id, const MlirValue *x);
/* In gpu.module `gmod`: every call renamed to libdevice's function, which is
 * declared there. */
void fuser_special_fns_to_libdevice(MlirOperation gmod);
/* Erases the target-neutral declarations from `module`'s body (after the
 * kernels that called them moved into gpu.modules). */
void fuser_special_fns_erase_decls(MlirOperation module);
/* Binds every target-neutral name to its host function. */
void fuser_special_fns_register(MlirExecutionEngine jit);

#endif
