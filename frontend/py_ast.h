/* py_ast.h: the Python subset that nvFuser repro scripts are written in,
 * as a syntax tree, and the lexer and parser that build it.
 *
 * The subset: `import`/`from ... import`, `def name(params) -> T:` and
 * `with expr as name:` blocks, assignments to one name or a tuple of names,
 * expression statements and `pass`; expressions are names, attribute
 * access, calls with positional and keyword arguments, lists, tuples,
 * int/float/string literals, True/False/None, unary minus, and arithmetic
 * on number literals (folded into one literal by the parser). Anything else is a located
 * syntax error that names the construct. The tree knows nothing of nvFuser;
 * frontend/nvfuser_import.c gives it meaning. */
#ifndef FUSER_FRONTEND_PY_AST_H
#define FUSER_FRONTEND_PY_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A located error: the first problem found stops lexing/parsing. */
typedef struct {
  int line, col; /* 1-based */
  char message[256];
} py_error;

/* All tree nodes live in one arena, freed at once. */
typedef struct py_arena py_arena;
py_arena *py_arena_create(void);
void *py_arena_alloc(py_arena *a, size_t size); /* zeroed */
void py_arena_destroy(py_arena *a);

typedef struct {
  const char *data; /* points into the source text */
  size_t len;
} py_str;

/* Inline, so that strlen of a literal folds: the parser compares every
 * token against several operators and keywords. */
static inline bool py_str_eq(py_str s, const char *lit) {
  return s.len == __builtin_strlen(lit) && __builtin_memcmp(s.data, lit, s.len) == 0;
}

typedef enum {
  PY_NAME,     /* name */
  PY_INT,      /* ival */
  PY_FLOAT,    /* fval */
  PY_STRING,   /* str (without quotes, escapes not decoded) */
  PY_TRUE,
  PY_FALSE,
  PY_NONE,
  PY_NEG,      /* -operand */
  PY_ATTR,     /* base.name */
  PY_CALL,     /* func(args) */
  PY_LIST,     /* [items] */
  PY_TUPLE,    /* (items) */
} py_expr_kind;

typedef struct py_expr py_expr;

typedef struct {
  py_str keyword; /* len 0: positional */
  int kw_line, kw_col;
  py_expr *value;
} py_arg;

struct py_expr {
  py_expr_kind kind;
  int line, col;
  py_str name;       /* PY_NAME, PY_ATTR (the attribute), PY_STRING (the text) */
  int name_line, name_col; /* PY_ATTR: where the attribute name is (line/col: where base starts) */
  int64_t ival;      /* PY_INT */
  double fval;       /* PY_FLOAT */
  py_expr *base;     /* PY_ATTR base, PY_CALL callee, PY_NEG operand */
  int n;             /* PY_CALL args, PY_LIST/PY_TUPLE items */
  py_arg *args;      /* PY_CALL */
  py_expr **items;   /* PY_LIST, PY_TUPLE */
};

typedef enum {
  PY_IMPORT,      /* import module [as alias] */
  PY_FROM_IMPORT, /* from module import names */
  PY_DEF,         /* def name(params) [-> annotation]: body */
  PY_WITH,        /* with value as target: body */
  PY_ASSIGN,      /* targets = value */
  PY_EXPR,        /* value */
  PY_PASS,        /* pass */
} py_stmt_kind;

typedef struct py_stmt py_stmt;

typedef struct {
  py_str name;
  py_expr *annotation; /* may be NULL */
  int line, col;
} py_param;

struct py_stmt {
  py_stmt_kind kind;
  int line, col;
  py_str name;          /* PY_IMPORT module, PY_FROM_IMPORT module, PY_DEF name */
  int n_names;          /* PY_FROM_IMPORT imported names / PY_ASSIGN targets */
  py_str *names;
  int *name_lines, *name_cols;
  int n_params;         /* PY_DEF */
  py_param *params;
  py_expr *value;       /* PY_ASSIGN, PY_EXPR, PY_WITH context expression, PY_DEF return annotation */
  int n_body;           /* PY_DEF, PY_WITH */
  py_stmt **body;
};

typedef struct {
  int n;
  py_stmt **stmts;
} py_module;

/* Parses `len` bytes of source. Returns NULL and fills *err on the first
 * syntax error; the tree is allocated in `arena`. */
py_module *py_parse(py_arena *arena, const char *text, size_t len, py_error *err);

/* ---- lexer (used by the parser; exposed for tests) ---------------------- */

typedef enum {
  PY_T_EOF,
  PY_T_NEWLINE,
  PY_T_INDENT,
  PY_T_DEDENT,
  PY_T_NAME,
  PY_T_INT,
  PY_T_FLOAT,
  PY_T_STRING,
  PY_T_OP, /* punctuation; text holds it */
} py_token_kind;

typedef struct {
  py_token_kind kind;
  int line, col;
  py_str text;
  int64_t ival;
  double fval;
} py_token;

typedef struct py_lexer py_lexer;
py_lexer *py_lexer_create(const char *text, size_t len);
void py_lexer_destroy(py_lexer *lx);
/* Returns false (with *err set) on a lexical error. */
bool py_lexer_next(py_lexer *lx, py_token *tok, py_error *err);

#endif
