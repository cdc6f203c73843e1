/* -verify-diagnostics: every `// expected-error {{...}}` (also warning, note,
 * remark; `@above`, `@below`, `@+N`, `@-N`) must be produced at its line
 * with the text as a substring, and no error, warning or remark may come
 * that was not expected. Notes are checked only where expected. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "tools/common/tool_support.h"

typedef struct {
  int severity, line, source_line;
  char *text;
  bool matched;
} expectation;

static int parse_severity(const char **p) {
  static const struct { const char *word; int sev; } words[] = {
      {"error", MlirDiagnosticError}, {"warning", MlirDiagnosticWarning},
      {"note", MlirDiagnosticNote},   {"remark", MlirDiagnosticRemark}};
  for (size_t i = 0; i < 4; i++) {
    size_t n = strlen(words[i].word);
    if (strncmp(*p, words[i].word, n) == 0) {
      *p += n;
      return words[i].sev;
    }
  }
  return -1;
}

static int collect(const fuser_chunk *chunk, expectation **out, const char *path, bool *bad) {
  int n = 0, cap = 8, line = 1;
  expectation *ex = malloc(sizeof *ex * cap);
  int last_line_with_code = 0;
  for (const char *p = chunk->text; *p; line++) {
    const char *eol = strchr(p, '\n');
    const char *end = eol ? eol : p + strlen(p);
    const char *c = strstr(p, "expected-");
    if (c && c < end) {
      const char *q = c + 9;
      int sev = parse_severity(&q);
      if (sev >= 0) {
        int target = line;
        if (*q == '@') {
          q++;
          if (strncmp(q, "above", 5) == 0) target = line - 1, q += 5;
          else if (strncmp(q, "below", 5) == 0) target = line + 1, q += 5;
          else if (*q == '+' || *q == '-') {
            int sign = *q == '-' ? -1 : 1;
            target = line + sign * (int)strtol(q + 1, (char **)&q, 10);
          }
        }
        while (q < end && *q == ' ') q++;
        const char *open = strstr(q, "{{");
        const char *close = open ? strstr(open, "}}") : NULL;
        if (!open || open >= end || !close || close >= end) {
          fprintf(stderr, "%s:%d: error: expected '{{' and '}}' around the expected message\n", path, line);
          *bad = true;
        } else {
          if (n == cap) ex = realloc(ex, sizeof *ex * (cap *= 2));
          size_t len = (size_t)(close - open - 2);
          char *text = malloc(len + 1);
          memcpy(text, open + 2, len);
          text[len] = 0;
          ex[n++] = (expectation){sev, target, line, text, false};
        }
      }
    }
    (void)last_line_with_code;
    if (!eol) break;
    p = eol + 1;
  }
  *out = ex;
  return n;
}

static const char *sev_name(int s) {
  return s == MlirDiagnosticError ? "error" : s == MlirDiagnosticWarning ? "warning" : s == MlirDiagnosticNote ? "note" : "remark";
}

bool fuser_verify_expected(fuser_diag_state *st, const fuser_chunk *chunk) {
  bool bad = false;
  expectation *ex;
  int n = collect(chunk, &ex, st->path, &bad);
  for (int i = 0; i < st->count; i++) {
    fuser_diag_record *r = &st->records[i];
    for (int j = 0; j < n && !r->matched; j++) {
      if (ex[j].matched || ex[j].severity != r->severity || ex[j].line != r->line) continue;
      if (strstr(r->message, ex[j].text)) ex[j].matched = r->matched = true;
    }
  }
  for (int i = 0; i < st->count; i++) {
    fuser_diag_record *r = &st->records[i];
    if (r->matched || r->severity == MlirDiagnosticNote) continue;
    fprintf(stderr, "%s:%d:%d: error: unexpected %s: %s\n", st->path, r->line, r->col, sev_name(r->severity), r->message);
    bad = true;
  }
  for (int j = 0; j < n; j++) {
    if (!ex[j].matched) {
      fprintf(stderr, "%s:%d: error: expected %s \"%s\" was not produced\n", st->path, ex[j].source_line,
              sev_name(ex[j].severity), ex[j].text);
      bad = true;
    }
    free(ex[j].text);
  }
  free(ex);
  return !bad;
}
