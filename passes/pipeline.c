/* The textual pass pipeline, parsed here rather than by MLIR because C
 * passes cannot be registered by name (../shared/GUIDE.md §4):
 *
 *   pipeline := 'builtin.module' '(' list ')'
 *   list     := elem (',' elem)*
 *   elem     := name ['{' options '}'] ['(' list ')']
 *
 * `name(list)` nests a pass manager on ops named `name`; a fuser pass name
 * becomes an external pass (nested under its anchor op when needed); any
 * other element goes, text and options unchanged, to MLIR's own parser. All
 * of it lands in one pass manager, so IR printing, verification and timing
 * cover fuser and upstream passes alike. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "passes/named_pipeline.h"
#include "passes/pass.h"
#include "support/error.h"
#include "support/mlir_print.h"

/* Nesting limit: the parser recurses once per level. */
#define MAX_PIPELINE_DEPTH 32

typedef struct {
  const char *text;
  size_t pos, len;
  int depth;
  char *err;
  size_t errlen;
} parser;

static void skip_space(parser *p) {
  while (p->pos < p->len && isspace((unsigned char)p->text[p->pos])) p->pos++;
}

static bool fail(parser *p, const char *msg) {
  return fuser_message(p->err, p->errlen, "invalid pass pipeline at offset %zu: %s", p->pos, msg);
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }

static bool parse_list(parser *p, MlirOpPassManager opm, const char *anchor);

/* Finds the matching close of the bracket at p->pos (same kind), honoring
 * nesting of both kinds; returns its offset or 0. */
static size_t matching(parser *p, size_t open) {
  int depth = 0;
  for (size_t i = open; i < p->len; i++) {
    char c = p->text[i];
    if (c == '(' || c == '{' || c == '[') depth++;
    else if (c == ')' || c == '}' || c == ']') {
      if (--depth == 0) return i;
    }
  }
  return 0;
}

/* A registered pipeline (named_pipeline.h): its options are parsed like a
 * pass's, its text is parsed in place into the same pass manager. */
static bool expand_named(parser *p, const fuser_named_pipeline *named, MlirOpPassManager opm, const char *anchor,
                         size_t opt_start, size_t opt_end) {
  fuser_pass_info as_pass = {.argument = named->argument};
  memcpy(as_pass.options, named->options, sizeof as_pass.options);
  fuser_pass_options opts;
  if (!fuser_pass_options_parse(&as_pass, p->text + opt_start, opt_end - opt_start, &opts, p->err, p->errlen))
    return false;
  char text[4096];
  if (!named->expand(&opts, text, sizeof text, p->err, p->errlen)) return false;
  if (p->depth + 1 > MAX_PIPELINE_DEPTH) return fail(p, "pipelines nested too deeply");
  parser sub = {text, 0, strlen(text), p->depth + 1, p->err, p->errlen};
  if (!parse_list(&sub, opm, anchor)) return false;
  skip_space(&sub);
  if (sub.pos != sub.len) return fail(&sub, "unexpected text in a registered pipeline");
  return true;
}

static bool parse_elem(parser *p, MlirOpPassManager opm, const char *anchor) {
  skip_space(p);
  size_t start = p->pos;
  while (p->pos < p->len && is_name_char(p->text[p->pos])) p->pos++;
  size_t name_len = p->pos - start;
  if (name_len == 0) return fail(p, "expected a pass or op name");
  const char *name = p->text + start;
  size_t opt_start = 0, opt_end = 0;
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == '{') {
    size_t close = matching(p, p->pos);
    if (!close) return fail(p, "unbalanced '{'");
    opt_start = p->pos + 1;
    opt_end = close;
    p->pos = close + 1;
    skip_space(p);
  }
  if (p->pos < p->len && p->text[p->pos] == '(') {
    if (opt_end) return fail(p, "an op pipeline takes no options");
    /* Only ops nest pipelines; without this, `pass(...)` would nest under
     * ops named like the pass and silently run nothing. */
    if (!memchr(name, '.', name_len) || fuser_pass_lookup(name, name_len)) {
      char msg[256];
      snprintf(msg, sizeof msg, "'%.*s' is not an op name (dialect.op) to nest a pipeline under", (int)name_len, name);
      return fail(p, msg);
    }
    char op_name[128];
    if (name_len >= sizeof op_name) return fail(p, "op name too long");
    memcpy(op_name, name, name_len);
    op_name[name_len] = 0;
    if (++p->depth > MAX_PIPELINE_DEPTH) {
      char msg[64];
      snprintf(msg, sizeof msg, "pipelines nested deeper than %d levels", MAX_PIPELINE_DEPTH);
      return fail(p, msg);
    }
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(opm, mlirStringRefCreate(name, name_len));
    p->pos++;
    if (!parse_list(p, nested, op_name)) return false;
    p->depth--;
    skip_space(p);
    if (p->pos >= p->len || p->text[p->pos] != ')') return fail(p, "expected ')'");
    p->pos++;
    return true;
  }
  const fuser_named_pipeline *named = fuser_named_pipeline_lookup(name, name_len);
  if (named) return expand_named(p, named, opm, anchor, opt_start, opt_end);
  const fuser_pass_info *info = fuser_pass_lookup(name, name_len);
  if (info) {
    fuser_pass_options opts;
    if (!fuser_pass_options_parse(info, p->text + opt_start, opt_end - opt_start, &opts, p->err, p->errlen))
      return false;
    MlirOpPassManager target = opm;
    if (info->anchor[0] && strcmp(info->anchor, anchor) != 0)
      target = mlirOpPassManagerGetNestedUnder(opm, mlirStringRefCreateFromCString(info->anchor));
    mlirOpPassManagerAddOwnedPass(target, fuser_pass_create(info, &opts));
    return true;
  }
  static const char prefix[] = "fuser-";
  if (name_len >= sizeof prefix - 1 && memcmp(name, prefix, sizeof prefix - 1) == 0) {
    char unknown[256];
    snprintf(unknown, sizeof unknown, "unknown fuser pass '%.*s' (see --list-passes)", (int)name_len, name);
    p->pos = start;
    return fail(p, unknown);
  }
  char msg[512];
  fixed_text b = fixed_text_on(msg, sizeof msg);
  MlirStringRef elem = mlirStringRefCreate(name, p->pos - start);
  while (elem.length && isspace((unsigned char)elem.data[elem.length - 1])) elem.length--;
  if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(opm, elem, fuser_print_to_fixed, &b))) {
    return fuser_message(p->err, p->errlen, "%s", msg[0] ? msg : "invalid pass pipeline element");
  }
  return true;
}

static bool parse_list(parser *p, MlirOpPassManager opm, const char *anchor) {
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == ')') return true; /* empty list */
  for (;;) {
    if (!parse_elem(p, opm, anchor)) return false;
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == ',') {
      p->pos++;
      continue;
    }
    return true;
  }
}

bool fuser_pipeline_parse(MlirPassManager pm, const char *text, char *err, size_t errlen) {
  parser p = {text, 0, strlen(text), 0, err, errlen};
  static const char top[] = "builtin.module";
  skip_space(&p);
  if (strncmp(text + p.pos, top, sizeof top - 1) != 0) return fail(&p, "the pipeline must be builtin.module(...)");
  p.pos += sizeof top - 1;
  skip_space(&p);
  if (p.pos >= p.len || text[p.pos] != '(') return fail(&p, "expected '(' after builtin.module");
  p.pos++;
  if (!parse_list(&p, mlirPassManagerGetAsOpPassManager(pm), top)) return false;
  skip_space(&p);
  if (p.pos >= p.len || text[p.pos] != ')') return fail(&p, "expected ')'");
  p.pos++;
  skip_space(&p);
  if (p.pos != p.len) return fail(&p, "unexpected text after the pipeline");
  return true;
}
