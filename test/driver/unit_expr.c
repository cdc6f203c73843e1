/* unit_expr.c: the runtime's expression language: parsing (and its error
 * messages), printing back to text, evaluation on DLTensor inputs, the
 * evaluation errors, and the folded evaluation form (fuser_expr_optimize:
 * same value or error as the original on every random program). */
#include "driver/expr.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static int64_t shape0[3] = {4, 6, 8};
static int64_t strides0[3] = {48, 8, 1};
static int64_t shape1[2] = {5, 7};

static DLTensor t0, t1;
static fuser_arg args[3];

static void setup(void) {
  memset(&t0, 0, sizeof t0);
  t0.data = (void *)(uintptr_t)0x10000;
  t0.byte_offset = 8;
  t0.ndim = 3;
  t0.shape = shape0;
  t0.strides = strides0;
  memset(&t1, 0, sizeof t1);
  t1.data = (void *)(uintptr_t)0x20004;
  t1.ndim = 2;
  t1.shape = shape1;
  t1.strides = NULL; /* compact row-major */
  args[0] = fuser_arg_tensor(&t0);
  args[1] = fuser_arg_tensor(&t1);
  args[2] = fuser_arg_int(-3);
}

/* Parses and evaluates text; fails the test on a parse error. */
static int64_t eval_text(const char *text, int *rc) {
  fuser_expr e;
  char msg[128];
  if (fuser_expr_parse(text, &e, msg, sizeof msg) != 0) {
    fprintf(stderr, "parse error in '%s': %s\n", text, msg);
    *rc = -100;
    return 0;
  }
  int64_t v = 0;
  *rc = fuser_expr_eval(&e, args, 3, &v);
  fuser_expr_free(&e);
  return v;
}

static int64_t value(const char *text) {
  int rc;
  int64_t v = eval_text(text, &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_OK);
  return v;
}

static void test_eval(void) {
  CHECK_EQ_INT(value("1 + 2 * 3"), 7);
  CHECK_EQ_INT(value("(1 + 2) * 3"), 9);
  CHECK_EQ_INT(value("10 - 4 - 3"), 3); /* left associative */
  CHECK_EQ_INT(value("-5 + 2"), -3);
  CHECK_EQ_INT(value("17 / 5"), 3);
  CHECK_EQ_INT(value("17 % 5"), 2);
  CHECK_EQ_INT(value("-7 / 2"), -3); /* truncating, like C */
  CHECK_EQ_INT(value("ceildiv(17, 5)"), 4);
  CHECK_EQ_INT(value("ceildiv(15, 5)"), 3);
  CHECK_EQ_INT(value("ceildiv(0, 5)"), 0);
  CHECK_EQ_INT(value("ceildiv(-7, 2)"), -3);
  CHECK_EQ_INT(value("min(3, -4)"), -4);
  CHECK_EQ_INT(value("max(3, -4)"), 3);
  CHECK_EQ_INT(value("3 < 4"), 1);
  CHECK_EQ_INT(value("4 <= 4"), 1);
  CHECK_EQ_INT(value("4 > 4"), 0);
  CHECK_EQ_INT(value("4 >= 5"), 0);
  CHECK_EQ_INT(value("4 == 4 && 3 != 3"), 0);
  CHECK_EQ_INT(value("4 == 4 || 3 != 3"), 1);
  CHECK_EQ_INT(value("!0 + !7"), 1);
  CHECK_EQ_INT(value("1 + 2 == 3"), 1); /* comparison binds looser than + */
  CHECK_EQ_INT(value("size(0, 1)"), 6);
  CHECK_EQ_INT(value("size(input 0, dim 2)"), 8);
  CHECK_EQ_INT(value("stride(0, 0)"), 48);
  CHECK_EQ_INT(value("stride(1, 0)"), 7); /* NULL strides: compact */
  CHECK_EQ_INT(value("stride(1, 1)"), 1);
  CHECK_EQ_INT(value("addr(0)"), 0x10008); /* data + byte_offset */
  CHECK_EQ_INT(value("addr(1) % 16"), 4);
  CHECK_EQ_INT(value("scalar(2) * 2"), -6);
  CHECK_EQ_INT(value("9223372036854775807 + 1 < 0"), 1); /* wraps, no UB */
}

static void test_eval_errors(void) {
  int rc;
  eval_text("5 / (size(0, 0) - 4)", &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_E_DIV_ZERO);
  eval_text("5 % 0", &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_E_DIV_ZERO);
  eval_text("ceildiv(5, 0)", &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_E_CEILDIV);
  eval_text("ceildiv(5, -1)", &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_E_CEILDIV);
  eval_text("(0 - 9223372036854775807 - 1) / -1", &rc);
  CHECK_EQ_INT(rc, FUSER_EXPR_E_OVERFLOW);
  eval_text("size(2, 0)", &rc); /* input 2 is a scalar */
  CHECK_EQ_INT(rc, FUSER_EXPR_E_BAD_INPUT);
  eval_text("size(1, 5)", &rc); /* no dim 5 */
  CHECK_EQ_INT(rc, FUSER_EXPR_E_BAD_INPUT);
  eval_text("scalar(0)", &rc); /* input 0 is a tensor */
  CHECK_EQ_INT(rc, FUSER_EXPR_E_BAD_INPUT);
  CHECK(strstr(fuser_expr_error_text(FUSER_EXPR_E_DIV_ZERO), "division by zero") != NULL);

  /* a malformed program (as a corrupt file could hold) is refused, not run */
  fuser_insn code[2] = {{FUSER_OP_CONST, 0, 1}, {FUSER_OP_ADD, 0, 0}};
  fuser_expr bad = {.n = 2, .code = code};
  int64_t v;
  CHECK_EQ_INT(fuser_expr_eval(&bad, args, 3, &v), FUSER_EXPR_E_BAD_PROGRAM);
  char msg[128];
  CHECK(fuser_expr_check(&bad, msg, sizeof msg) != 0);
  CHECK(strstr(msg, "pops an empty stack") != NULL);
  fuser_insn two[2] = {{FUSER_OP_CONST, 0, 1}, {FUSER_OP_CONST, 0, 2}};
  fuser_expr leaves2 = {.n = 2, .code = two};
  CHECK(fuser_expr_check(&leaves2, msg, sizeof msg) != 0);
  CHECK(strstr(msg, "leaves 2 values") != NULL);
  fuser_insn unknown[1] = {{200, 0, 0}};
  fuser_expr unk = {.n = 1, .code = unknown};
  CHECK(fuser_expr_check(&unk, msg, sizeof msg) != 0);
  CHECK(strstr(msg, "unknown operation code 200") != NULL);
  /* a stack deeper than the evaluator's is refused by the check */
  fuser_insn deep[2 * FUSER_EXPR_MAX_STACK + 1];
  for (int i = 0; i <= FUSER_EXPR_MAX_STACK; i++) deep[i] = (fuser_insn){FUSER_OP_CONST, 0, i};
  for (int i = 0; i < FUSER_EXPR_MAX_STACK; i++) deep[FUSER_EXPR_MAX_STACK + 1 + i] = (fuser_insn){FUSER_OP_ADD, 0, 0};
  fuser_expr deep_e = {.n = 2 * FUSER_EXPR_MAX_STACK + 1, .code = deep};
  CHECK(fuser_expr_check(&deep_e, msg, sizeof msg) != 0);
  CHECK(strstr(msg, "stack deeper") != NULL);
  CHECK_EQ_INT(fuser_expr_eval(&deep_e, args, 3, &v), FUSER_EXPR_E_BAD_PROGRAM);
}

static void parse_error(const char *text, const char *want) {
  fuser_expr e;
  char msg[160];
  int rc = fuser_expr_parse(text, &e, msg, sizeof msg);
  CHECK_EQ_INT(rc, -1);
  if (!strstr(msg, want)) {
    fprintf(stderr, "parse of '%s': message '%s' lacks '%s'\n", text, msg, want);
    CHECK(0);
  }
}

static void test_parse_errors(void) {
  parse_error("", "column 1: unexpected end of expression");
  parse_error("1 +", "column 4: unexpected end of expression");
  parse_error("(1 + 2", "expected ')'");
  parse_error("foo(1)", "column 1: unknown function 'foo'");
  parse_error("size(0)", "expected ','");
  parse_error("size(0, x)", "expected an integer");
  parse_error("1 2", "column 3: unexpected '2'");
  parse_error("1 = 2", "unexpected '='");
  parse_error("99999999999999999999", "integer literal out of range");
  parse_error("size(0, 99)", "dim index 99 too large");
  char deep[1000];
  memset(deep, '(', 600);
  strcpy(deep + 600, "1");
  parse_error(deep, "nested too deeply");
  memset(deep, '-', 600);
  strcpy(deep + 600, "1");
  parse_error(deep, "nested too deeply");
}

static void round_trip(const char *text, const char *printed) {
  fuser_expr e, again;
  char msg[128], buf[256], buf2[256];
  CHECK_EQ_INT(fuser_expr_parse(text, &e, msg, sizeof msg), 0);
  fuser_expr_print(&e, buf, sizeof buf);
  if (strcmp(buf, printed)) {
    fprintf(stderr, "print of '%s' is '%s', expected '%s'\n", text, buf, printed);
    CHECK(0);
  }
  CHECK_EQ_INT(fuser_expr_parse(buf, &again, msg, sizeof msg), 0);
  CHECK(fuser_expr_equal(&e, &again));
  CHECK_EQ_INT(strcmp(fuser_expr_print(&again, buf2, sizeof buf2), buf), 0);
  fuser_expr_free(&e);
  fuser_expr_free(&again);
}

static void test_print(void) {
  round_trip("addr(input 2) % 16 == 0", "(addr(2) % 16) == 0");
  round_trip("stride(input 2, dim 1) % 8 == 0", "(stride(2, 1) % 8) == 0");
  round_trip("ceildiv(size(0,0)*size(0,1), 1024)", "ceildiv(size(0, 0) * size(0, 1), 1024)");
  round_trip("1 - (2 - 3)", "1 - (2 - 3)");
  round_trip("-scalar(1)", "0 - scalar(1)");
  round_trip("!(1 < 2) || min(1, 2) >= max(3, 4) && 5 != 6", "!(1 < 2) || ((min(1, 2) >= max(3, 4)) && (5 != 6))");
  /* truncation is marked, never overflows */
  fuser_expr e;
  char msg[64], small[12];
  CHECK_EQ_INT(fuser_expr_parse("size(0, 0) * size(0, 1) * size(0, 2)", &e, msg, sizeof msg), 0);
  fuser_expr_print(&e, small, sizeof small);
  CHECK_EQ_INT(strlen(small), 11);
  CHECK(strcmp(small + 8, "...") == 0);
  fuser_expr_free(&e);
}

/* Random well-formed expressions (and the same text with one character
 * dropped): parse must answer; what parses must check, print, re-parse to
 * the same program, and evaluate without crashing. */
static uint64_t lcg = 12345;
static unsigned rnd(unsigned n) {
  lcg = lcg * 6364136223846793005u + 1442695040888963407u;
  return (unsigned)(lcg >> 33) % n;
}

static void gen(char *out, size_t size, int depth) {
  static const char *const binops[] = {"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
  static const char *const funcs[] = {"ceildiv", "min", "max"};
  static const char *const leaves[] = {"0", "1", "16", "size(0, 1)", "stride(input 0, dim 2)", "addr(1)",
                                       "scalar(2)", "size(1, 0)", "stride(1, 1)"};
  size_t len = strlen(out);
  if (len + 64 >= size) return;
  unsigned pick = depth > 5 ? 0 : rnd(5);
  char a[256] = {0}, b[256] = {0};
  switch (pick) {
  case 0: snprintf(out + len, size - len, "%s", leaves[rnd(sizeof leaves / sizeof leaves[0])]); return;
  case 1:
    gen(a, sizeof a, depth + 1);
    gen(b, sizeof b, depth + 1);
    snprintf(out + len, size - len, "%s %s %s", a, binops[rnd(13)], b);
    return;
  case 2:
    gen(a, sizeof a, depth + 1);
    gen(b, sizeof b, depth + 1);
    snprintf(out + len, size - len, "%s(%s, %s)", funcs[rnd(3)], a, b);
    return;
  case 3:
    gen(a, sizeof a, depth + 1);
    snprintf(out + len, size - len, "%s(%s)", rnd(2) ? "-" : "!", a);
    return;
  default:
    gen(a, sizeof a, depth + 1);
    snprintf(out + len, size - len, "(%s)", a);
  }
}

static void test_random_text(void) {
  int parsed = 0, refused = 0, folded = 0;
  for (int iter = 0; iter < 20000; iter++) {
    char text[1024] = {0};
    gen(text, sizeof text, 0);
    if (iter % 2) { /* drop one character */
      size_t n = strlen(text), at = rnd((unsigned)n);
      memmove(text + at, text + at + 1, n - at);
    }
    fuser_expr e, again;
    char msg[128], printed[4096];
    if (fuser_expr_parse(text, &e, msg, sizeof msg) != 0) {
      refused++;
      CHECK(strncmp(msg, "column ", 7) == 0);
      continue;
    }
    parsed++;
    CHECK(fuser_expr_check(&e, msg, sizeof msg) == 0);
    fuser_expr_print(&e, printed, sizeof printed);
    if (fuser_expr_parse(printed, &again, msg, sizeof msg) == 0) {
      if (!fuser_expr_equal(&e, &again)) {
        fprintf(stderr, "'%s' printed as '%s' re-parses differently\n", text, printed);
        CHECK(0);
      }
      fuser_expr_free(&again);
    } else {
      fprintf(stderr, "'%s' printed as '%s' does not re-parse: %s\n", text, printed, msg);
      CHECK(0);
    }
    int64_t v = 0, w = 0;
    int rc = fuser_expr_eval(&e, args, 3, &v);
    /* the folded form: the same value or the same error */
    fuser_expr opt;
    CHECK(fuser_expr_copy(&e, &opt) == 0 && fuser_expr_optimize(&opt) == 0);
    int rc_opt = fuser_expr_eval(&opt, args, 3, &w);
    if (rc != rc_opt || (rc == FUSER_EXPR_OK && v != w)) {
      fprintf(stderr, "'%s': %d/%lld, folded %d/%lld\n", text, rc, (long long)v, rc_opt, (long long)w);
      CHECK(0);
    }
    folded += opt.nfast < opt.n;
    fuser_expr_free(&opt);
    fuser_expr_free(&e);
  }
  CHECK(folded > 1000);
  printf("random expressions: %d shorter when folded\n", folded);
  CHECK(parsed > 10000);
  CHECK(refused > 1000);
  printf("random expressions: %d parsed, %d refused\n", parsed, refused);
}

/* Folds text and checks the evaluation form's length and its value against
 * the original's on the test inputs (both may fail: then the same error). */
static void fold_case(const char *text, uint32_t want_len) {
  fuser_expr e;
  char msg[128];
  if (fuser_expr_parse(text, &e, msg, sizeof msg) != 0) {
    fprintf(stderr, "parse error in '%s': %s\n", text, msg);
    CHECK(0);
    return;
  }
  int64_t v = 0, w = 0;
  int rc = fuser_expr_eval(&e, args, 3, &v);
  CHECK_EQ_INT(fuser_expr_optimize(&e), 0);
  if (e.nfast != want_len) fprintf(stderr, "'%s': folded to %u instructions\n", text, e.nfast);
  CHECK_EQ_INT(e.nfast, want_len);
  int rc_opt = fuser_expr_eval(&e, args, 3, &w);
  CHECK_EQ_INT(rc_opt, rc);
  CHECK_EQ_INT(w, v);
  fuser_expr_free(&e);
}

static void test_fold(void) {
  /* the compiler's spelled-out arithmetic (seed id0) */
  fold_case("((((1 * 2) * 16) * 1024) * 32) < 2147418112", 1);
  fold_case("((addr(0) + (0 * 2)) % 16) == 0", 5);
  fold_case("max(2 - 1, 0) * (1024 * stride(0, 2))", 3);
  fold_case("(size(1, 1) < 2147418112) && (((1 * 2) * 16) < 2147418112)", 3);
  /* neutral constants go only where the value cannot change */
  fold_case("0 + size(1, 1) - 0", 1);
  fold_case("size(1, 1) && 7", 3);          /* 7 && 1 is 1, not 7: kept */
  fold_case("(size(1, 1) > 2) && 7", 3);    /* a 0/1 value: the && goes */
  fold_case("0 || (size(1, 1) > 2)", 3);
  fold_case("0 || size(1, 1)", 3);
  fold_case("!(3 - 3) * size(1, 0)", 1);
  /* failures stay failures, at call time */
  fold_case("size(1, 0) / (2 - 2)", 3);
  fold_case("1 / 0 + size(1, 0)", 5);
  fold_case("ceildiv(10, 0 - 3) * 1", 3); /* the failing ceildiv stays, the * 1 goes */
  fold_case("(0 - 9223372036854775807 - 1) / (0 - 1)", 3);
  fold_case("size(1, 0) * 0", 3); /* not dropped: x could fail in general */
}

int main(void) {
  setup();
  test_fold();
  test_random_text();
  test_eval();
  test_eval_errors();
  test_parse_errors();
  test_print();
  UNIT_MAIN_END();
}
