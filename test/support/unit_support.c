/* unit_support.c: support/ (text buffers, MLIR print sinks, error
 * reporting): growth and truncation, the return values the callers rely on,
 * and that an emitted error carries the op's location. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "support/error.h"
#include "support/mlir_print.h"
#include "support/strbuf.h"
#include "unit.h"

static void test_strbuf(void) {
  strbuf b = {0};
  for (int i = 0; i < 1000; i++) sb_printf(&b, "%d,", i % 10);
  CHECK_EQ_INT(b.len, 2000);
  CHECK(b.data[b.len] == 0 && b.cap > b.len && !b.failed);
  CHECK(strncmp(b.data, "0,1,2,", 6) == 0);
  sb_clear(&b);
  CHECK_EQ_INT(b.len, 0);
  sb_append_n(&b, "abcdef", 3);
  sb_append(&b, "xy");
  CHECK(strcmp(b.data, "abcxy") == 0);
  sb_free(&b);
  CHECK(b.data == NULL && b.len == 0 && b.cap == 0);
  sb_append(&b, ""); /* an empty append still gives a string */
  CHECK(b.data && b.data[0] == 0);
  sb_free(&b);
}

static void test_fixed_text(void) {
  char buf[8];
  fixed_text t = fixed_text_on(buf, sizeof buf);
  CHECK(buf[0] == 0);
  ft_append_n(&t, "abc", 3);
  CHECK(strcmp(buf, "abc") == 0 && !t.truncated);
  ft_append_n(&t, "defghij", 7); /* 7 bytes fit (cap 8): the rest is cut */
  CHECK(strcmp(buf, "abcdefg") == 0 && t.truncated);
  CHECK_EQ_INT(t.len, 7);
  ft_append_n(&t, "z", 1);
  CHECK(strcmp(buf, "abcdefg") == 0);
}

static void test_message(void) {
  char buf[16];
  CHECK(!fuser_message(buf, sizeof buf, "n=%d %s", 42, "a long tail that is cut"));
  CHECK(strcmp(buf, "n=42 a long tai") == 0);
  CHECK(!fuser_message(NULL, 0, "nothing to write %d", 1));
}

typedef struct {
  int count;
  char text[256];
  char loc[128];
} seen;

static MlirLogicalResult collect(MlirDiagnostic d, void *ud) {
  seen *s = ud;
  s->count++;
  fixed_text t = fixed_text_on(s->text, sizeof s->text);
  mlirDiagnosticPrint(d, fuser_print_to_fixed, &t);
  fixed_text l = fixed_text_on(s->loc, sizeof s->loc);
  mlirLocationPrint(mlirDiagnosticGetLocation(d), fuser_print_to_fixed, &l);
  return mlirLogicalResultSuccess();
}

static void test_emit_and_print(void) {
  MlirContext ctx = fuser_context_create();
  seen s = {0};
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, collect, &s, NULL);
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("f.py"), 7, 3);
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("arith.constant"), loc);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute value = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
                                                   mlirIntegerAttrGet(i64, 5));
  mlirOperationStateAddAttributes(&st, 1, &value);
  mlirOperationStateAddResults(&st, 1, &i64);
  MlirOperation op = mlirOperationCreate(&st);
  CHECK(!fuser_emit_error(op, "bad %s #%d", "value", 2));
  CHECK_EQ_INT(s.count, 1);
  CHECK(strcmp(s.text, "bad value #2") == 0);
  CHECK(unit_contains(s.loc, "f.py\":7:3"));
  CHECK(!fuser_emit_error_at(loc, "%s", "again"));
  CHECK_EQ_INT(s.count, 2);

  strbuf b = {0};
  mlirTypePrint(i64, fuser_print_to_strbuf, &b);
  CHECK(b.data && strcmp(b.data, "i64") == 0);
  sb_free(&b);
  char small[3];
  fixed_text t = fixed_text_on(small, sizeof small);
  mlirOperationPrint(op, fuser_print_to_fixed, &t);
  CHECK(t.truncated && strlen(small) == 2);
  FILE *f = tmpfile();
  mlirTypePrint(i64, fuser_print_to_file, f);
  rewind(f);
  char back[8] = {0};
  CHECK(fread(back, 1, sizeof back - 1, f) == 3 && strcmp(back, "i64") == 0);
  fclose(f);

  mlirOperationDestroy(op);
  mlirContextDetachDiagnosticHandler(ctx, id);
  mlirContextDestroy(ctx);
}

int main(void) {
  test_strbuf();
  test_fixed_text();
  test_message();
  test_emit_and_print();
  UNIT_MAIN_END();
}
