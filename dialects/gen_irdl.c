/* gen_irdl.c: writes the fuser dialect's IRDL definition from the op table
 * (dialects/ops.def) at build time, so that the table is the one place an
 * op's operands, results and attributes are stated. A build-host tool:
 * libc only.
 *
 *   FUSER_OP(slice, META, KEEP, OPERANDS(IN(input, TENSOR)), RESULTS(OUT(result, TENSOR)),
 *            ATTRS(ATTR(start_indices, ARRAY), ...))
 * becomes
 *   irdl.operation @slice {
 *     %o0 = irdl.base "!builtin.tensor"
 *     %r0 = irdl.base "!builtin.tensor"
 *     %a0 = irdl.base "#builtin.dense_array"
 *     ...
 *     irdl.operands(input: %o0)
 *     irdl.results(result: %r0)
 *     irdl.attributes {"start_indices" = %a0, ...}
 *   }
 *
 * Usage: gen_irdl OUTPUT.mlir */
#include <stdio.h>

typedef enum { C_NONE, C_ANY, C_TENSOR, C_I64, C_I1, C_ARRAY, C_INT, C_STRING, C_SYMBOL } constraint;
typedef enum { SINGLE, VARIADIC, OPTIONAL_ } variadicity;

typedef struct {
  const char *name; /* NULL ends a list */
  constraint c;
  variadicity v;
} item;

typedef struct {
  const char *name;
  item operands[12], results[3], attrs[4];
} op_signature;

#define ANY C_ANY
#define TENSOR C_TENSOR
#define I64 C_I64
#define ARRAY C_ARRAY
#define INT C_INT
#define I1 C_I1
#define STRING C_STRING
#define SYMBOL C_SYMBOL
#define IN(n, c) {#n, c, SINGLE}
#define IN_VARIADIC(n, c) {#n, c, VARIADIC}
#define IN_OPTIONAL(n, c) {#n, c, OPTIONAL_}
#define OUT(n, c) {#n, c, SINGLE}
#define ATTR(n, c) {#n, c, SINGLE}
#define OPERANDS(...) .operands = {__VA_ARGS__}
#define NO_OPERANDS .operands = {{0}}
#define RESULTS(...) .results = {__VA_ARGS__}
#define ATTRS(...) .attrs = {__VA_ARGS__}
#define NO_ATTRS .attrs = {{0}}
#define NO_RESULTS .results = {{0}}
#define FUSER_OP(name, kind, rule, ...) {#name, __VA_ARGS__},
static const op_signature ops[] = {
#include "dialects/ops.def"
};

static const char *constraint_text(constraint c) {
  switch (c) {
  case C_ANY: return "irdl.any";
  case C_TENSOR: return "irdl.base \"!builtin.tensor\"";
  case C_I64: return "irdl.is i64";
  case C_ARRAY: return "irdl.base \"#builtin.dense_array\"";
  case C_INT: return "irdl.base \"#builtin.integer\"";
  case C_I1: return "irdl.is i1";
  case C_STRING: return "irdl.base \"#builtin.string\"";
  case C_SYMBOL: return "irdl.base \"#builtin.symbol_ref\"";
  case C_NONE: break;
  }
  return NULL;
}

/* One constraint variable per entry (%<prefix><i>); false if one is unknown. */
static int put_variables(FILE *f, const item *list, char prefix) {
  for (int i = 0; list[i].name; i++) {
    const char *c = constraint_text(list[i].c);
    if (!c) return 0;
    fprintf(f, "    %%%c%d = %s\n", prefix, i, c);
  }
  return 1;
}

static void put_list(FILE *f, const char *what, const item *list, char prefix) {
  if (!list[0].name) return;
  fprintf(f, "    irdl.%s(", what);
  for (int i = 0; list[i].name; i++)
    fprintf(f, "%s%s: %s%%%c%d", i ? ", " : "", list[i].name,
            list[i].v == VARIADIC ? "variadic " : list[i].v == OPTIONAL_ ? "optional " : "", prefix, i);
  fprintf(f, ")\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_irdl OUTPUT.mlir\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  fprintf(f, "// Generated from dialects/ops.def by dialects/gen_irdl.c: do not edit.\n"
             "// The fuser dialect: tensor ops with value semantics, mirroring nvFuser's\n"
             "// Python frontend (fd.ops.*). Generic syntax only (IRDL); see docs/dialect.md.\n"
             "// Constraints IRDL cannot state (shapes, dtype promotion, dense-array element\n"
             "// types, cross-operand rules) are checked by the C verifier (dialects/verify.c).\n"
             "irdl.dialect @fuser {\n");
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    const op_signature *op = &ops[k];
    fprintf(f, "  irdl.operation @%s {\n", op->name);
    if (!put_variables(f, op->operands, 'o') || !put_variables(f, op->results, 'r') ||
        !put_variables(f, op->attrs, 'a')) {
      fprintf(stderr, "gen_irdl: op '%s': every entry needs a constraint\n", op->name);
      fclose(f);
      remove(argv[1]);
      return 1;
    }
    put_list(f, "operands", op->operands, 'o');
    put_list(f, "results", op->results, 'r');
    if (op->attrs[0].name) {
      fprintf(f, "    irdl.attributes {");
      for (int i = 0; op->attrs[i].name; i++) fprintf(f, "%s\"%s\" = %%a%d", i ? ", " : "", op->attrs[i].name, i);
      fprintf(f, "}\n");
    }
    fprintf(f, "  }\n");
  }
  fprintf(f, "}\n");
  return fclose(f) == 0 ? 0 : 1;
}
