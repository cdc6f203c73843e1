/* fuser-verify: the C verifier as a pass (dialects/verify.c does the work).
 *
 * Checks what IRDL cannot: nvFuser's result shapes and dtypes, attribute
 * ranges (permutations, slice bounds, broadcast_dims, pad widths, reduction
 * dims) and fusion input layouts. It changes nothing; fuser-opt runs it
 * first on every input, before any pipeline.
 *
 *   %0 = "fuser.permute"(%x) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
 *   error: 'fuser.permute' op dims is not a permutation of [0, 2)
 */
#include "dialects/fuser.h"
#include "passes/pass.h"

static bool run(MlirOperation op, const fuser_pass_options *options) { return fuser_verify(op) == 0; }

const fuser_pass_info fuser_verify_pass = {
    .argument = "fuser-verify",
    .description = "Check fuser ops and fusion layouts against nvFuser's rules",
    .anchor = "",
    .run = run,
};
