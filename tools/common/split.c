/* -split-input-file: chunks separated by lines that read `// -----` (or
 * the marker given as --split-input-file=<marker>), each
 * padded with newlines so diagnostics keep whole-file line numbers (as
 * mlir-opt reports them). */
#include <stdlib.h>
#include <string.h>

#include "tools/common/tool_support.h"

static bool is_separator(const char *line, size_t len, const char *marker) {
  while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) len--;
  while (len && (line[0] == ' ' || line[0] == '\t')) line++, len--;
  return len == strlen(marker) && memcmp(line, marker, len) == 0;
}

static fuser_chunk make_chunk(const char *begin, const char *end, int first_line) {
  size_t pad = (size_t)(first_line - 1), n = (size_t)(end - begin);
  char *t = malloc(pad + n + 1);
  memset(t, '\n', pad);
  memcpy(t + pad, begin, n);
  t[pad + n] = 0;
  return (fuser_chunk){t, first_line};
}

int fuser_split_input(const char *text, const char *marker, fuser_chunk **out) {
  int cap = 4, n = 0;
  fuser_chunk *chunks = malloc(sizeof *chunks * cap);
  const char *chunk_begin = text, *p = text;
  int line = 1, chunk_line = 1;
  while (marker && *marker && *p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (is_separator(p, len, marker)) {
      if (n == cap) chunks = realloc(chunks, sizeof *chunks * (cap *= 2));
      chunks[n++] = make_chunk(chunk_begin, p, chunk_line);
      chunk_begin = eol ? eol + 1 : p + len;
      chunk_line = line + 1;
    }
    if (!eol) break;
    p = eol + 1;
    line++;
  }
  if (n == cap) chunks = realloc(chunks, sizeof *chunks * (cap + 1));
  chunks[n++] = make_chunk(chunk_begin, chunk_begin + strlen(chunk_begin), chunk_line);
  *out = chunks;
  return n;
}

void fuser_free_chunks(fuser_chunk *chunks, int n) {
  for (int i = 0; i < n; i++) free(chunks[i].text);
  free(chunks);
}
