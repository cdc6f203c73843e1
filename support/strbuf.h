/* strbuf.h: text buffers, libc only. A strbuf grows on the heap (the
 * lowering builds names and reports with it, tools collect MLIR output); a
 * fixed_text writes into a caller's array and truncates (messages bound to
 * a fixed-size error field). One implementation each, for every library. */
#ifndef FUSER_SUPPORT_STRBUF_H
#define FUSER_SUPPORT_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *data; /* NUL-terminated, owned; NULL until something is appended */
  size_t len, cap;
  bool failed; /* an allocation failed: the text stops where it did */
} strbuf;

void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_append(strbuf *b, const char *text);
void sb_append_n(strbuf *b, const char *text, size_t n);
void sb_clear(strbuf *b);
void sb_free(strbuf *b);

typedef struct {
  char *buf; /* the caller's array, always NUL-terminated */
  size_t cap, len;
  bool truncated;
} fixed_text;

/* A fixed_text writing into buf[cap] (cleared; cap > 0). */
fixed_text fixed_text_on(char *buf, size_t cap);
void ft_append_n(fixed_text *t, const char *text, size_t n);

#endif
