/* Element types: the seven dtypes fuser supports, their MLIR spelling and
 * nvFuser's DataType names. */
#include "dialects/fuser.h"

#include <string.h>

#include "mlir-c/BuiltinTypes.h"

static const struct {
  const char *mlir;
  const char *nvfuser;
  size_t size;
} dtype_table[FUSER_DTYPE_COUNT] = {
    [FUSER_DTYPE_BF16] = {"bf16", "BFloat16", 2}, [FUSER_DTYPE_F16] = {"f16", "Half", 2},
    [FUSER_DTYPE_F32] = {"f32", "Float", 4},      [FUSER_DTYPE_F64] = {"f64", "Double", 8},
    [FUSER_DTYPE_I1] = {"i1", "Bool", 1},         [FUSER_DTYPE_I32] = {"i32", "Int32", 4},
    [FUSER_DTYPE_I64] = {"i64", "Int", 8},
};

fuser_dtype fuser_dtype_of_type(MlirType t) {
  if (mlirTypeIsABF16(t)) return FUSER_DTYPE_BF16;
  if (mlirTypeIsAF16(t)) return FUSER_DTYPE_F16;
  if (mlirTypeIsAF32(t)) return FUSER_DTYPE_F32;
  if (mlirTypeIsAF64(t)) return FUSER_DTYPE_F64;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: return FUSER_DTYPE_I1;
    case 32: return FUSER_DTYPE_I32;
    case 64: return FUSER_DTYPE_I64;
    default: break;
    }
  }
  return FUSER_DTYPE_INVALID;
}

MlirType fuser_dtype_to_type(MlirContext ctx, fuser_dtype dt) {
  switch (dt) {
  case FUSER_DTYPE_BF16: return mlirBF16TypeGet(ctx);
  case FUSER_DTYPE_F16: return mlirF16TypeGet(ctx);
  case FUSER_DTYPE_F32: return mlirF32TypeGet(ctx);
  case FUSER_DTYPE_F64: return mlirF64TypeGet(ctx);
  case FUSER_DTYPE_I1: return mlirIntegerTypeGet(ctx, 1);
  case FUSER_DTYPE_I32: return mlirIntegerTypeGet(ctx, 32);
  case FUSER_DTYPE_I64: return mlirIntegerTypeGet(ctx, 64);
  default: return (MlirType){NULL};
  }
}

static bool valid(fuser_dtype dt) { return dt >= 0 && dt < FUSER_DTYPE_COUNT; }

const char *fuser_dtype_mlir_name(fuser_dtype dt) { return valid(dt) ? dtype_table[dt].mlir : "<invalid>"; }
const char *fuser_dtype_nvfuser_name(fuser_dtype dt) { return valid(dt) ? dtype_table[dt].nvfuser : "<invalid>"; }
size_t fuser_dtype_size(fuser_dtype dt) { return valid(dt) ? dtype_table[dt].size : 0; }

fuser_dtype fuser_dtype_from_nvfuser_name(const char *name, size_t len) {
  for (int i = 0; i < FUSER_DTYPE_COUNT; i++)
    if (strlen(dtype_table[i].nvfuser) == len && memcmp(dtype_table[i].nvfuser, name, len) == 0)
      return (fuser_dtype)i;
  return FUSER_DTYPE_INVALID;
}

bool fuser_dtype_is_float(fuser_dtype dt) {
  return dt == FUSER_DTYPE_BF16 || dt == FUSER_DTYPE_F16 || dt == FUSER_DTYPE_F32 || dt == FUSER_DTYPE_F64;
}
bool fuser_dtype_is_integer(fuser_dtype dt) { return dt == FUSER_DTYPE_I32 || dt == FUSER_DTYPE_I64; }

bool fuser_value_is_tensor(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

fuser_dtype fuser_value_dtype(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (mlirTypeIsARankedTensor(t)) t = mlirShapedTypeGetElementType(t);
  return fuser_dtype_of_type(t);
}
