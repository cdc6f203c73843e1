/* strbuf.c: the text buffers of strbuf.h. */
#include "support/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(strbuf *b, size_t extra) {
  if (b->failed) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) return !(b->failed = true);
  b->data = p;
  b->cap = cap;
  return true;
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n >= 0 && reserve(b, (size_t)n)) {
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}

void sb_append_n(strbuf *b, const char *text, size_t n) {
  if (!reserve(b, n)) return;
  memcpy(b->data + b->len, text, n);
  b->len += n;
  b->data[b->len] = 0;
}

void sb_append(strbuf *b, const char *text) { sb_append_n(b, text, strlen(text)); }

void sb_clear(strbuf *b) {
  b->len = 0;
  if (b->data) b->data[0] = 0;
}

void sb_free(strbuf *b) {
  free(b->data);
  *b = (strbuf){0};
}

fixed_text fixed_text_on(char *buf, size_t cap) {
  buf[0] = 0;
  return (fixed_text){buf, cap, 0, false};
}

void ft_append_n(fixed_text *t, const char *text, size_t n) {
  size_t room = t->cap - 1 - t->len;
  if (n > room) {
    n = room;
    t->truncated = true;
  }
  memcpy(t->buf + t->len, text, n);
  t->len += n;
  t->buf[t->len] = 0;
}
