/* -verify-diagnostics, with mlir-opt's directive grammar
 * (mlir/lib/IR/Diagnostics.cpp, SourceMgrDiagnosticVerifierHandler):
 *
 *   expected-(error|warning|note|remark)(-re)? *(@([+-]N|above|below|unknown))? *{{MESSAGE}}
 *
 * at the end of a line. MESSAGE must be a substring of the diagnostic; with
 * `-re` it is literal text in which `{{regex}}` pieces are POSIX extended
 * regular expressions, searched anywhere in the message. The designator
 * says which line the diagnostic is at: none, the directive's own line;
 * `@+N`/`@-N`, relative to it; `@above`, the last line above that holds no
 * directive; `@below`, the next such line below; `@unknown`, a diagnostic
 * without a file location. Every diagnostic (notes included) must be
 * expected, and every expectation produced. A directive whose message is
 * not in `{{ }}` is reported (mlir-opt silently ignores it). */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "tools/common/tool_support.h"

typedef struct {
  int severity;
  int line; /* the line the diagnostic must be at; 0 for @unknown */
  int source_line, source_col;
  char *text;
  bool is_regex, matched;
  regex_t re;
} expectation;

typedef struct {
  expectation *items;
  int count, cap;
} expectations;

static const char *sev_name(int s) {
  return s == MlirDiagnosticError ? "error" : s == MlirDiagnosticWarning ? "warning" : s == MlirDiagnosticNote ? "note" : "remark";
}

static int parse_severity(const char **p) {
  static const int sevs[] = {MlirDiagnosticError, MlirDiagnosticWarning, MlirDiagnosticNote, MlirDiagnosticRemark};
  for (size_t i = 0; i < 4; i++) {
    size_t n = strlen(sev_name(sevs[i]));
    if (strncmp(*p, sev_name(sevs[i]), n) == 0) {
      *p += n;
      return sevs[i];
    }
  }
  return -1;
}

/* Appends `s` (n bytes) to the regex text, escaped for POSIX ERE. */
static void append_literal(char **re, size_t *len, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strchr(".[]{}()\\*+?^$|", s[i])) (*re)[(*len)++] = '\\';
    (*re)[(*len)++] = s[i];
  }
}

/* -re messages: literal text with {{regex}} pieces, as upstream builds them.
 * Returns false with a reason on a bad regex. */
static bool compile_regex(expectation *e, const char **why) {
  size_t n = strlen(e->text), len = 0;
  char *re = malloc(2 * n + 3);
  const char *p = e->text;
  while (*p) {
    const char *open = strstr(p, "{{");
    if (!open) {
      append_literal(&re, &len, p, strlen(p));
      break;
    }
    append_literal(&re, &len, p, (size_t)(open - p));
    const char *close = strstr(open + 2, "}}");
    if (!close) {
      free(re);
      *why = "found start of regex with no end '}}'";
      return false;
    }
    re[len++] = '(';
    memcpy(re + len, open + 2, (size_t)(close - open - 2));
    len += (size_t)(close - open - 2);
    re[len++] = ')';
    p = close + 2;
  }
  re[len] = 0;
  int rc = regcomp(&e->re, re, REG_EXTENDED | REG_NOSUB);
  free(re);
  if (rc != 0) {
    static char msg[160];
    char reason[128];
    regerror(rc, &e->re, reason, sizeof reason);
    snprintf(msg, sizeof msg, "invalid regex: %s", reason);
    *why = msg;
  }
  return rc == 0;
}

/* Parses a directive at `c` (pointing at "expected-"), ending at `end` (the
 * line without trailing blanks). Returns 1 with *e filled, 0 when this is
 * no directive (prose that mentions one), -1 when malformed (*why set). */
static int parse_directive(const char *c, const char *end, expectation *e, char *designator, const char **why) {
  const char *q = c + strlen("expected-");
  int sev = parse_severity(&q);
  if (sev < 0) return 0;
  bool is_regex = strncmp(q, "-re", 3) == 0 && (q[3] == ' ' || q[3] == '@' || q[3] == '{');
  if (is_regex) q += 3;
  while (q < end && *q == ' ') q++;
  *designator = 0;
  int offset = 0;
  if (q < end && *q == '@') {
    q++;
    if (strncmp(q, "above", 5) == 0) *designator = 'a', q += 5;
    else if (strncmp(q, "below", 5) == 0) *designator = 'b', q += 5;
    else if (strncmp(q, "unknown", 7) == 0) *designator = 'u', q += 7;
    else if ((*q == '+' || *q == '-') && q[1] >= '0' && q[1] <= '9') {
      *designator = *q;
      offset = (int)strtol(q + 1, (char **)&q, 10);
    } else {
      *why = "expected '@+N', '@-N', '@above', '@below' or '@unknown'";
      return -1;
    }
    while (q < end && *q == ' ') q++;
  } else if (q >= end || *q != '{') {
    return 0; /* "expected-error" in prose */
  }
  if (end - q < 4 || q[0] != '{' || q[1] != '{' || end[-1] != '}' || end[-2] != '}') {
    *why = "expected '{{' and '}}' around the expected message (at the end of the line)";
    return -1;
  }
  size_t len = (size_t)(end - q - 4);
  *e = (expectation){.severity = sev, .line = offset, .is_regex = is_regex};
  e->text = malloc(len + 1);
  memcpy(e->text, q + 2, len);
  e->text[len] = 0;
  if (is_regex && !compile_regex(e, why)) {
    free(e->text);
    return -1;
  }
  return 1;
}

static void push(expectations *ex, expectation e) {
  if (ex->count == ex->cap) ex->items = realloc(ex->items, sizeof *ex->items * (size_t)(ex->cap = ex->cap ? ex->cap * 2 : 8));
  ex->items[ex->count++] = e;
}

/* Scans the chunk for directives, resolving each designator to a line. */
static void collect(const fuser_chunk *chunk, expectations *ex, const char *path, bool *bad) {
  int line = 1, last_plain_line = 1;
  int *pending = NULL, npending = 0; /* @below: indices waiting for the next plain line */
  int total_lines = 1;
  for (const char *p = chunk->text; *p; p++) total_lines += *p == '\n';
  for (const char *p = chunk->text; *p; line++) {
    const char *eol = strchr(p, '\n');
    const char *end = eol ? eol : p + strlen(p);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
    bool directive = false;
    for (const char *c = p; c < end && (c = strstr(c, "expected-")) && c < end; c++) {
      expectation e;
      char designator;
      const char *why = NULL;
      int r = parse_directive(c, end, &e, &designator, &why);
      if (r < 0) {
        fprintf(stderr, "%s:%d:%d: error: %s\n", path, line, (int)(c - p) + 1, why);
        *bad = true;
      }
      if (r == 0) continue;
      directive = true;
      if (r < 0) break;
      e.source_line = line;
      e.source_col = (int)(c - p) + 1;
      switch (designator) {
      case '+': e.line = line + e.line; break;
      case '-': e.line = line - e.line; break;
      case 'a': e.line = last_plain_line; break;
      case 'u': e.line = 0; break;
      case 'b':
        e.line = total_lines; /* if it dangles */
        pending = realloc(pending, sizeof *pending * (size_t)(npending + 1));
        pending[npending++] = ex->count;
        break;
      default: e.line = line;
      }
      push(ex, e);
      break; /* one directive per line, as upstream's end-anchored match */
    }
    if (!directive) {
      for (int i = 0; i < npending; i++) ex->items[pending[i]].line = line;
      npending = 0;
      last_plain_line = line;
    }
    if (!eol) break;
    p = eol + 1;
  }
  free(pending);
}

static bool matches(const expectation *e, const char *message) {
  return e->is_regex ? regexec(&e->re, message, 0, NULL, 0) == 0 : strstr(message, e->text) != NULL;
}

bool fuser_verify_expected(fuser_diag_state *st, const fuser_chunk *chunk) {
  bool bad = false;
  expectations ex = {0};
  collect(chunk, &ex, st->path, &bad);
  for (int i = 0; i < st->count; i++) {
    fuser_diag_record *r = &st->records[i];
    expectation *hit = NULL, *near = NULL;
    for (int pass = 0; pass < 2 && !hit; pass++) /* an unmatched expectation first */
      for (int j = 0; j < ex.count && !hit; j++) {
        expectation *e = &ex.items[j];
        if ((pass == 0 && e->matched) || e->line != r->line || !matches(e, r->message)) continue;
        if (e->severity == r->severity) hit = e;
        else near = e;
      }
    if (hit) {
      hit->matched = r->matched = true;
    } else if (near) {
      fprintf(stderr, "%s:%d:%d: error: '%s' diagnostic emitted when expecting a '%s'\n", st->path, near->source_line,
              near->source_col, sev_name(r->severity), sev_name(near->severity));
      bad = true;
    } else {
      if (r->line) fprintf(stderr, "%s:%d:%d: error: unexpected %s: %s\n", st->path, r->line, r->col, sev_name(r->severity), r->message);
      else fprintf(stderr, "%s: error: unexpected %s at an unknown location: %s\n", st->path, sev_name(r->severity), r->message);
      bad = true;
    }
  }
  for (int j = 0; j < ex.count; j++) {
    expectation *e = &ex.items[j];
    if (!e->matched) {
      fprintf(stderr, "%s:%d:%d: error: expected %s \"%s\" was not produced\n", st->path, e->source_line, e->source_col,
              sev_name(e->severity), e->text);
      bad = true;
    }
    if (e->is_regex) regfree(&e->re);
    free(e->text);
  }
  free(ex.items);
  return !bad;
}
