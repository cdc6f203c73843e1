/* Reading inputs and printing IR. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "support/mlir_print.h"
#include "tools/common/tool_support.h"

char *fuser_read_file(const char *tool, const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot read '%s': %s\n", tool, path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      char *grown = realloc(buf, cap);
      if (!grown) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = grown;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  bool failed = !buf || ferror(f);
  if (f != stdin) fclose(f);
  if (failed) {
    fprintf(stderr, "%s: error: cannot read '%s'\n", tool, path);
    free(buf);
    return NULL;
  }
  const char *nul = fuser_is_bytecode(buf, n) ? NULL : memchr(buf, 0, n);
  if (nul) { /* located like a parser error: the parser would stop there silently */
    int line = 1, col = 1;
    for (const char *c = buf; c < nul; c++) {
      if (*c == '\n') line++, col = 1;
      else col++;
    }
    fprintf(stderr, "%s:%d:%d: error: unexpected NUL byte; expected text\n",
            strcmp(path, "-") == 0 ? "<stdin>" : path, line, col);
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  size_t pl = strlen(path);
  bool script = pl > 3 && strcmp(path + pl - 3, ".py") == 0;
  const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
  if (!script && (!fuser_screen_mlir(shown, buf) || !fuser_check_nesting(shown, buf, FUSER_MAX_NESTING))) {
    free(buf);
    return NULL;
  }
  if (len) *len = n;
  return buf;
}

void fuser_print_op_with(MlirOperation op, FILE *out, MlirOpPrintingFlags flags) {
  mlirOperationPrintWithFlags(op, flags, fuser_print_to_file, out);
  fputc('\n', out);
}

void fuser_print_op(MlirOperation op, FILE *out, bool debug_info) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (debug_info) mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  fuser_print_op_with(op, out, flags);
  mlirOpPrintingFlagsDestroy(flags);
}
