/* unit_launch_param.c: the typed launch parameters (lowering/launch_param.h)
 * read back as written for every kind, and every malformed form refused. */
#include "dialects/fuser.h"
#include "lowering/launch_param.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "unit.h"

static MlirAttribute parse(MlirContext ctx, const char *text) {
  return mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

int main(void) {
  MlirContext ctx = fuser_context_create();
  const fk_param all[] = {
      {FK_PARAM_PTR, 3, -1}, {FK_PARAM_SIZE, 6, 0}, {FK_PARAM_STRIDE, 2, 1}, {FK_PARAM_SCALAR, 4, -1}, {FK_PARAM_CHECK, -1, -1},
  };
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    fk_param back = {0};
    CHECK(fk_param_read(fk_param_attr(ctx, &all[i]), &back));
    CHECK_EQ_INT(back.kind, all[i].kind);
    CHECK_EQ_INT(back.tensor, all[i].tensor);
    CHECK_EQ_INT(back.dim, all[i].dim);
  }
  /* the printed forms docs/lowering.md shows */
  fk_param p;
  CHECK(fk_param_read(parse(ctx, "{size = array<i64: 6, 0>}"), &p) && p.kind == FK_PARAM_SIZE && p.tensor == 6 && p.dim == 0);
  CHECK(fk_param_read(parse(ctx, "{check}"), &p) && p.kind == FK_PARAM_CHECK);
  /* refused: what the old string reader dropped, and what would misread */
  const char *bad[] = {
      "\"ptr(t0)\"",                  /* the old string form */
      "{pointer = 0 : i64}",          /* unknown kind */
      "{ptr = -1 : i64}",             /* negative tensor */
      "{ptr = 4294967296 : i64}",     /* does not fit an int */
      "{ptr = array<i64: 0>}",        /* wrong value kind */
      "{size = array<i64: 6>}",       /* no dim */
      "{stride = array<i64: 1, -2>}", /* negative dim */
      "{size = 6 : i64}",             /* an integer where [T, D] belongs */
      "{check = 1 : i64}",            /* not a unit */
      "{ptr = 0 : i64, scalar = 1 : i64}", /* two entries */
      "{}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    MlirAttribute a = parse(ctx, bad[i]);
    CHECK(!mlirAttributeIsNull(a));
    fk_param q = {FK_PARAM_PTR, 99, 99};
    CHECK(!fk_param_read(a, &q));
    CHECK(q.tensor == 99 && q.dim == 99); /* untouched */
  }
  CHECK(!fk_param_read(mlirAttributeGetNull(), &p));
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
