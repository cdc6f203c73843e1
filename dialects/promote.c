/* nvFuser's type promotion (csrc/type_promotion.cpp), reproduced so every op
 * gets nvFuser's result dtype.
 *
 * Like PyTorch: operands are ranked by category (bool < integer < float);
 * the highest category wins; within it tensors with dims beat 0-dim tensors,
 * which beat scalars, and among the winning kind the widest type wins. A float scalar promoting an integer tensor gives f32 (the
 * default dtype). Then ARITH/FLOAT turn bf16/f16 into f32 (nvFuser computes
 * half types in float, `cast_half_to_float`). */
#include "dialects/fuser.h"

static int category(fuser_dtype dt) {
  if (dt == FUSER_DTYPE_I1) return 0;
  if (fuser_dtype_is_integer(dt)) return 1;
  return 2;
}

/* Rank within a category: wider wins. bf16 and f16 together give f32. */
static int width(fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: case FUSER_DTYPE_F16: return 16;
  case FUSER_DTYPE_F32: case FUSER_DTYPE_I32: return 32;
  case FUSER_DTYPE_F64: case FUSER_DTYPE_I64: return 64;
  default: return 1;
  }
}

static fuser_dtype wider(fuser_dtype a, fuser_dtype b) {
  if (a == FUSER_DTYPE_INVALID) return b;
  if ((a == FUSER_DTYPE_BF16 && b == FUSER_DTYPE_F16) || (a == FUSER_DTYPE_F16 && b == FUSER_DTYPE_BF16))
    return FUSER_DTYPE_F32;
  return width(b) > width(a) ? b : a;
}

/* PyTorch's result_type over (dtype, kind) pairs, kind a
 * fuser_operand_kind: in the highest category, the highest kind present
 * (tensors with dims, then 0-dim tensors, then scalars) decides, and the
 * widest of that kind wins (csrc/type_promotion.cpp's dimResult, zeroResult,
 * wrappedResult). */
static fuser_dtype common_type(int n, const fuser_dtype *dt, const int *kind) {
  int top = -1, best = -1;
  for (int i = 0; i < n; i++) top = category(dt[i]) > top ? category(dt[i]) : top;
  for (int i = 0; i < n; i++)
    if (category(dt[i]) == top && kind[i] > best) best = kind[i];
  fuser_dtype result = FUSER_DTYPE_INVALID;
  for (int i = 0; i < n; i++)
    if (category(dt[i]) == top && kind[i] == best) result = wider(result, dt[i]);
  if (best != FUSER_OPERAND_SCALAR) return result;
  /* Only scalars in the top category. If some tensor exists (of a lower
   * category), a float scalar gives the default float dtype and an integer
   * scalar the default integer dtype, as PyTorch does for wrapped numbers. */
  bool any_tensor = false;
  for (int i = 0; i < n; i++) any_tensor |= kind[i] != FUSER_OPERAND_SCALAR;
  if (any_tensor) {
    if (top == 2) return FUSER_DTYPE_F32;
    if (top == 1) return FUSER_DTYPE_I64;
  }
  return result;
}

fuser_dtype fuser_common_dtype(int n, const fuser_dtype *dt, const int *kinds) { return common_type(n, dt, kinds); }

static fuser_dtype half_to_float(fuser_dtype dt) {
  return dt == FUSER_DTYPE_BF16 || dt == FUSER_DTYPE_F16 ? FUSER_DTYPE_F32 : dt;
}

fuser_dtype fuser_promote(fuser_rule rule, int n, const fuser_dtype *dt, const bool *is_tensor,
                          const char **why) {
  int kind[16];
  if (n > 16) n = 16;
  for (int i = 0; i < n; i++) kind[i] = is_tensor[i] ? FUSER_OPERAND_TENSOR : FUSER_OPERAND_SCALAR;
  return fuser_promote_kinds(rule, n, dt, kind, why);
}

fuser_dtype fuser_promote_kinds(fuser_rule rule, int n, const fuser_dtype *dt, const int *kind, const char **why) {
  bool is_tensor[16];
  if (n > 16) n = 16;
  for (int i = 0; i < n; i++) is_tensor[i] = kind[i] != FUSER_OPERAND_SCALAR;
  const char *dummy;
  if (!why) why = &dummy;
  *why = NULL;
  for (int i = 0; i < n; i++)
    if (dt[i] == FUSER_DTYPE_INVALID) {
      *why = "operand has an unsupported dtype";
      return FUSER_DTYPE_INVALID;
    }
  switch (rule) {
  case FUSER_RULE_NONE:
    *why = "not an op of the fuser dialect";
    return FUSER_DTYPE_INVALID;
  case FUSER_RULE_KEEP:
    for (int i = 0; i < n; i++)
      if (is_tensor[i]) return dt[i];
    return n > 0 ? dt[0] : FUSER_DTYPE_INVALID;
  case FUSER_RULE_ARITH:
    return half_to_float(common_type(n, dt, kind));
  case FUSER_RULE_FLOAT: {
    fuser_dtype c = half_to_float(common_type(n, dt, kind));
    return fuser_dtype_is_float(c) ? c : FUSER_DTYPE_F32;
  }
  case FUSER_RULE_COMPARE:
  case FUSER_RULE_BOOL:
    return FUSER_DTYPE_I1;
  case FUSER_RULE_INTEGER: {
    for (int i = 0; i < n; i++)
      if (fuser_dtype_is_float(dt[i])) {
        *why = "bitwise ops take integer or bool operands only";
        return FUSER_DTYPE_INVALID;
      }
    return common_type(n, dt, kind);
  }
  case FUSER_RULE_WHERE:
    /* operand 0 is the condition; the values are promoted without half->float */
    if (n < 1) return FUSER_DTYPE_INVALID;
    return common_type(n - 1, dt + 1, kind + 1);
  case FUSER_RULE_GIVEN:
    *why = "the result dtype of this op is given, not promoted";
    return FUSER_DTYPE_INVALID;
  }
  return FUSER_DTYPE_INVALID;
}
