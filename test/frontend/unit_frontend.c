/* Unit tests for the frontend's C API: the lexer's tokens and layout rules,
 * the importer on buffers that are not NUL-terminated, errors arriving as
 * diagnostics with a null module, and export -> import giving the same IR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/fuser.h"
#include "frontend/nvfuser_export.h"
#include "frontend/name_map.h"
#include "frontend/nvfuser_import.h"
#include "frontend/py_ast.h"
#include "mlir-c/Diagnostics.h"
#include "support/mlir_print.h"
#include "unit.h"

static const char *const script =
    "from nvfuser import FusionDefinition, DataType\n"
    "def f(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, 8], contiguity=[True, True], dtype=DataType.BFloat16)\n"
    "    T1 = fd.ops.mul(T0, -0.5)  # a comment\n"
    "\n"
    "    fd.add_output(T1)\n";

static void test_lexer(void) {
  const char *src = "T0 = fd.ops.add(T0,\n   -1.5e-3)  # c\nif x:\n    y\n";
  py_lexer *lx = py_lexer_create(src, strlen(src));
  py_token_kind want[] = {PY_T_NAME, PY_T_OP,    PY_T_NAME, PY_T_OP,      PY_T_NAME, PY_T_OP,   PY_T_NAME,
                          PY_T_OP,   PY_T_NAME,  PY_T_OP,   PY_T_OP,      PY_T_FLOAT, PY_T_OP,  PY_T_NEWLINE,
                          PY_T_NAME, PY_T_NAME,  PY_T_OP,   PY_T_NEWLINE, PY_T_INDENT, PY_T_NAME, PY_T_NEWLINE,
                          PY_T_DEDENT, PY_T_EOF};
  py_token t;
  py_error err;
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    CHECK(py_lexer_next(lx, &t, &err));
    CHECK_EQ_INT(t.kind, want[i]);
    if (t.kind == PY_T_FLOAT) CHECK(t.fval == 1.5e-3);
  }
  py_lexer_destroy(lx);

  /* a bad character is a located error */
  const char *bad = "x = 1\ny = $\n";
  lx = py_lexer_create(bad, strlen(bad));
  bool ok = true;
  while (ok && (ok = py_lexer_next(lx, &t, &err)) && t.kind != PY_T_EOF) {
  }
  CHECK(!ok);
  CHECK_EQ_INT(err.line, 2);
  CHECK_EQ_INT(err.col, 5);
  py_lexer_destroy(lx);
}

/* The first statement's value in `src` (an assignment). */
static const py_expr *first_value(py_arena *a, const char *src, size_t len, py_error *err) {
  py_module *m = py_parse(a, src, len, err);
  return m && m->n ? m->stmts[0]->value : NULL;
}

/* Python's lexical forms that printed scripts contain (issue 17): digits
 * with underscores, escaped quotes, a byte order mark, lone-CR line ends,
 * and constant arithmetic folded into one literal. */
static void test_python_forms(void) {
  py_arena *a = py_arena_create();
  py_error err;
  const py_expr *e = first_value(a, "x = 1_0_0\n", strlen("x = 1_0_0\n"), &err);
  CHECK(e && e->kind == PY_INT && e->ival == 100);
  CHECK(!first_value(a, "x = 1__0\n", strlen("x = 1__0\n"), &err));
  CHECK(!first_value(a, "x = 1_\n", strlen("x = 1_\n"), &err));
  e = first_value(a, "x = 'it\\'s'\n", strlen("x = 'it\\'s'\n"), &err);
  CHECK(e && e->kind == PY_STRING && py_str_eq(e->name, "it's"));
  e = first_value(a, "x = \"a\\\\b\\q\"\n", strlen("x = \"a\\\\b\\q\"\n"), &err);
  CHECK(e && e->kind == PY_STRING && py_str_eq(e->name, "a\\b\\q"));
  const char bom[] = "\xEF\xBB\xBFx = 1\ry = $\r";
  py_module *m = py_parse(a, bom, sizeof bom - 1, &err);
  CHECK(!m);
  CHECK_EQ_INT(err.line, 2); /* the lone CR ends line 1 */
  CHECK_EQ_INT(err.col, 5);
  m = py_parse(a, "\xEF\xBB\xBFx = 1\r\ny = 2\r", strlen("\xEF\xBB\xBFx = 1\r\ny = 2\r"), &err);
  CHECK(m && m->n == 2 && m->stmts[1]->line == 2 && m->stmts[0]->col == 1);
  e = first_value(a, "x = 1/768\n", strlen("x = 1/768\n"), &err);
  CHECK(e && e->kind == PY_FLOAT && e->fval == 1.0 / 768);
  e = first_value(a, "x = -2**2 + 7 // -2 * 3 % 5\n", strlen("x = -2**2 + 7 // -2 * 3 % 5\n"), &err);
  CHECK(e && e->kind == PY_INT && e->ival == -4 + ((-4 * 3) % 5 + 5) % 5);
  e = first_value(a, "x = 2 ** -1 - -0.25\n", strlen("x = 2 ** -1 - -0.25\n"), &err);
  CHECK(e && e->kind == PY_FLOAT && e->fval == 0.75);
  CHECK(!first_value(a, "x = 1 // 0\n", strlen("x = 1 // 0\n"), &err));
  CHECK(!first_value(a, "x = 9223372036854775807 + 1\n", strlen("x = 9223372036854775807 + 1\n"), &err));
  CHECK(!first_value(a, "x = T0 + 1\n", strlen("x = T0 + 1\n"), &err));
  CHECK_EQ_INT(err.col, 8);
  m = py_parse(a, "def f(fd):\n    pass\n", strlen("def f(fd):\n    pass\n"), &err);
  CHECK(m && m->stmts[0]->n_body == 1 && m->stmts[0]->body[0]->kind == PY_PASS);
  py_arena_destroy(a);
}

static MlirLogicalResult count_errors(MlirDiagnostic d, void *ud) {
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) (*(int *)ud)++;
  return mlirLogicalResultSuccess();
}

static char *print(MlirModule m) {
  strbuf b = {0};
  mlirOperationPrint(mlirModuleGetOperation(m), fuser_print_to_strbuf, &b);
  return b.data;
}

static void test_import_export(MlirContext ctx, int *errors) {
  /* an exact-size copy: the importer must not read past `len` */
  size_t len = strlen(script);
  char *copy = malloc(len);
  memcpy(copy, script, len);
  MlirModule m = fuser_import_nvfuser(ctx, copy, len, "unit.py");
  CHECK(!mlirModuleIsNull(m));
  CHECK_EQ_INT(*errors, 0);
  char *ir = print(m);
  CHECK(strstr(ir, "func.func @f(%arg0: tensor<?x8xbf16>") != NULL);
  CHECK(strstr(ir, "-> tensor<?x8xf32>") != NULL); /* bf16 * double computes in f32 */
  char *py = fuser_export_nvfuser(mlirModuleGetOperation(m));
  CHECK(py != NULL);
  CHECK(py && strncmp(py, "import torch\n", 13) == 0);
  MlirModule again = fuser_import_nvfuser(ctx, py, strlen(py), "exported.py");
  CHECK(!mlirModuleIsNull(again));
  char *ir2 = print(again);
  CHECK(strcmp(ir, ir2) == 0);
  free(ir);
  free(ir2);
  free(py);
  mlirModuleDestroy(again);

  /* cut in the middle of a call: a diagnostic and no module */
  size_t cut_at = (size_t)(strstr(script, "-0.5") - script) + 2; /* "...mul(T0, -0" */
  MlirModule cut = fuser_import_nvfuser(ctx, copy, cut_at, "cut.py");
  CHECK(mlirModuleIsNull(cut));
  CHECK(*errors > 0);
  free(copy);
  mlirModuleDestroy(m);

  /* the exporter wants exactly one fusion */
  *errors = 0;
  MlirModule empty = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString("module {}"));
  CHECK(fuser_export_nvfuser(mlirModuleGetOperation(empty)) == NULL);
  CHECK_EQ_INT(*errors, 1);
  mlirModuleDestroy(empty);
}

/* The importer's environment and the exporter's names (name_map.h): the
 * map's answers, and a bound on the slots it looks at. 200,000 names as a
 * script has them (T0..T199999, a shadowed name, names that differ only in
 * length or by a NUL byte): inserting, replacing and looking each up stays
 * under 4 slots an operation on average, growth included. A linear scan
 * (what made 200k-op scripts take 15 s to import) looks at 100,000. */
static void test_name_map(void) {
  enum { N = 200000 };
  size_t probes = 0;
  fuser_name_map m = {.probes = &probes};
  char name[32];
  intptr_t v = 0;
  CHECK(!fuser_name_map_get(&m, "T0", 2, &v)); /* an empty map */
  for (int i = 0; i < N; i++) fuser_name_map_put(&m, name, (size_t)snprintf(name, sizeof name, "T%d", i), i);
  CHECK(m.count == N);
  fuser_name_map_put(&m, "T7", 2, -7); /* shadowing replaces the value */
  CHECK(m.count == N);
  fuser_name_map_put(&m, "T", 1, 1);
  fuser_name_map_put(&m, "T\0", 2, 2);
  fuser_name_map_put(&m, "", 0, 3);
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    int len = snprintf(name, sizeof name, "T%d", i);
    if (!fuser_name_map_get(&m, name, (size_t)len, &v) || v != (i == 7 ? -7 : i)) wrong++;
    snprintf(name, sizeof name, "S%d", i);
    if (fuser_name_map_get(&m, name, (size_t)len, NULL)) wrong++; /* absent */
  }
  CHECK_EQ_INT(wrong, 0);
  CHECK(fuser_name_map_get(&m, "T", 1, &v) && v == 1);
  CHECK(fuser_name_map_get(&m, "T\0", 2, &v) && v == 2);
  CHECK(fuser_name_map_get(&m, "", 0, &v) && v == 3);
  CHECK(!fuser_name_map_get(&m, "T\0\0", 3, NULL));
  size_t operations = N + 4 + 2 * N + 4;
  CHECK(probes < 4 * operations);
  fuser_name_map_free(&m);
  CHECK(m.count == 0 && !fuser_name_map_get(&m, "T0", 2, NULL));
}

int main(void) {
  test_name_map();
  test_lexer();
  test_python_forms();
  MlirContext ctx = fuser_context_create();
  int errors = 0;
  mlirContextAttachDiagnosticHandler(ctx, count_errors, &errors, NULL);
  test_import_export(ctx, &errors);
  mlirContextDestroy(ctx);
  UNIT_MAIN_END();
}
