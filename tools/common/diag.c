/* Diagnostics as mlir-opt prints them: `file:line:col: error: message`, the
 * source line and a caret, then the notes. The parser names its buffer "-";
 * the handler shows the real path instead. */
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "support/mlir_print.h"
#include "tools/common/tool_support.h"

static const char *severity_name(int s) {
  switch (s) {
  case MlirDiagnosticError: return "error";
  case MlirDiagnosticWarning: return "warning";
  case MlirDiagnosticNote: return "note";
  default: return "remark";
  }
}

/* The innermost file:line:col of a location, through names, call sites and
 * fused locations. */
static bool file_loc(MlirLocation loc, MlirStringRef *file, int *line, int *col) {
  for (int depth = 0; depth < 16; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      *line = mlirLocationFileLineColRangeGetStartLine(loc);
      *col = mlirLocationFileLineColRangeGetStartColumn(loc);
      return true;
    }
    if (mlirLocationIsAName(loc)) loc = mlirLocationNameGetChildLoc(loc);
    else if (mlirLocationIsACallSite(loc)) loc = mlirLocationCallSiteGetCallee(loc);
    else if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) > 0) {
      MlirLocation first[1];
      if (mlirLocationFusedGetNumLocations(loc) != 1) {
        intptr_t n = mlirLocationFusedGetNumLocations(loc);
        MlirLocation *all = malloc(sizeof *all * n);
        mlirLocationFusedGetLocations(loc, all);
        first[0] = all[0];
        free(all);
      } else {
        mlirLocationFusedGetLocations(loc, first);
      }
      loc = first[0];
    } else return false;
  }
  return false;
}

static char *message_of(MlirDiagnostic d) {
  strbuf b = {0};
  sb_append(&b, ""); /* never NULL: callers print and free it */
  mlirDiagnosticPrint(d, fuser_print_to_strbuf, &b);
  return b.data;
}

static void print_source_line(const char *source, int line, int col) {
  if (!source || line < 1) return;
  const char *p = source;
  for (int l = 1; l < line && p; l++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (!p || !*p) return;
  const char *eol = strchr(p, '\n');
  int len = eol ? (int)(eol - p) : (int)strlen(p);
  fprintf(stderr, "%.*s\n", len, p);
  for (int i = 1; i < col && i <= len; i++) fputc(p[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

static void print_diag(fuser_diag_state *st, MlirDiagnostic d, int severity, char *msg) {
  MlirStringRef file;
  int line = 0, col = 0;
  if (file_loc(mlirDiagnosticGetLocation(d), &file, &line, &col)) {
    /* the parser's "-" buffer, or a location that names our input file */
    bool ours = (file.length == 1 && file.data[0] == '-') ||
                (file.length == strlen(st->path) && memcmp(file.data, st->path, file.length) == 0);
    if (ours) fprintf(stderr, "%s:%d:%d: %s: %s\n", st->path, line, col, severity_name(severity), msg);
    else fprintf(stderr, "%.*s:%d:%d: %s: %s\n", (int)file.length, file.data, line, col, severity_name(severity), msg);
    if (ours) print_source_line(st->source, line, col);
  } else {
    fprintf(stderr, "%s: %s: %s\n", st->path, severity_name(severity), msg);
  }
}

void fuser_diag_warning(fuser_diag_state *st, MlirLocation loc, const char *msg) {
  MlirStringRef file;
  int line = 0, col = 0;
  if (!file_loc(loc, &file, &line, &col)) {
    fprintf(stderr, "%s: warning: %s\n", st->path, msg);
    return;
  }
  bool ours = (file.length == 1 && file.data[0] == '-') ||
              (file.length == strlen(st->path) && memcmp(file.data, st->path, file.length) == 0);
  if (ours) fprintf(stderr, "%s:%d:%d: warning: %s\n", st->path, line, col, msg), print_source_line(st->source, line, col);
  else fprintf(stderr, "%.*s:%d:%d: warning: %s\n", (int)file.length, file.data, line, col, msg);
}

static void record(fuser_diag_state *st, MlirDiagnostic d, int severity, char *msg) {
  if (st->count == st->cap) {
    st->cap = st->cap ? st->cap * 2 : 16;
    st->records = realloc(st->records, sizeof *st->records * st->cap);
  }
  fuser_diag_record *r = &st->records[st->count++];
  MlirStringRef file;
  r->severity = severity;
  r->line = r->col = 0;
  file_loc(mlirDiagnosticGetLocation(d), &file, &r->line, &r->col);
  r->message = msg;
  r->matched = false;
}

/* The "see current operation: ..." note the verifier attaches. mlir-opt
 * turns it off under -verify-diagnostics (printOpOnDiagnostic(false)); the C
 * API cannot, so the verifier mode drops it. */
static bool is_op_dump_note(MlirDiagnostic note) {
  char *msg = message_of(note);
  bool dump = strncmp(msg, "see current operation: ", 23) == 0;
  free(msg);
  return dump;
}

/* The op an error is about, from the verifier's note
 * `see current operation: %0 = "fuser.cat"(...)`, into buf; false if none. */
static bool dumped_op_name(MlirDiagnostic d, char *buf, size_t len) {
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++) {
    MlirDiagnostic note = mlirDiagnosticGetNote(d, i);
    if (!is_op_dump_note(note)) continue;
    char *msg = message_of(note);
    const char *q = strchr(msg, '"'), *e = q ? strchr(q + 1, '"') : NULL;
    bool ok = e && (size_t)(e - q - 1) < len;
    if (ok) snprintf(buf, len, "%.*s", (int)(e - q - 1), q + 1);
    free(msg);
    return ok;
  }
  return false;
}

/* The message to show: IRDL's errors get the op and the attribute or
 * operand named (irdl_errors.c); MLIR's own errors name the op already. */
static char *shown_message(MlirDiagnostic d, int severity) {
  char *msg = message_of(d), op[128];
  if (severity != MlirDiagnosticError || msg[0] == '\'' || !dumped_op_name(d, op, sizeof op)) return msg;
  char *named = fuser_irdl_error_with_context(msg, op);
  free(msg);
  return named;
}

static MlirLogicalResult handle(MlirDiagnostic d, void *ud) {
  fuser_diag_state *st = ud;
  int sev = mlirDiagnosticGetSeverity(d);
  if (sev == MlirDiagnosticError) st->errors++;
  if (st->collect) {
    record(st, d, sev, shown_message(d, sev));
    for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++)
      if (!is_op_dump_note(mlirDiagnosticGetNote(d, i)))
        record(st, mlirDiagnosticGetNote(d, i), MlirDiagnosticNote, message_of(mlirDiagnosticGetNote(d, i)));
  } else {
    char *msg = shown_message(d, sev);
    print_diag(st, d, sev, msg);
    free(msg);
    for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++) {
      char *note = message_of(mlirDiagnosticGetNote(d, i));
      print_diag(st, mlirDiagnosticGetNote(d, i), MlirDiagnosticNote, note);
      free(note);
    }
  }
  return mlirLogicalResultSuccess();
}

void fuser_diag_attach(MlirContext ctx, fuser_diag_state *st) {
  mlirContextAttachDiagnosticHandler(ctx, handle, st, NULL);
}

void fuser_diag_reset(fuser_diag_state *st) {
  for (int i = 0; i < st->count; i++) free(st->records[i].message);
  st->count = 0;
  st->errors = 0;
}

void fuser_diag_free(fuser_diag_state *st) {
  fuser_diag_reset(st);
  free(st->records);
  st->records = NULL;
  st->cap = 0;
}
