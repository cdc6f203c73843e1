/* unit.h: the smallest test harness. CHECK records a failure and goes on;
 * UNIT_MAIN_END prints "N passed, M failed" and sets the exit code. */
#ifndef FUSER_TEST_UNIT_H
#define FUSER_TEST_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) unit_passed++;                                                   \
    else {                                                                     \
      unit_failed++;                                                           \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                     \
  do {                                                                                         \
    long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
    if (va_ == vb_) unit_passed++;                                                             \
    else {                                                                                     \
      unit_failed++;                                                                           \
      fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, #b, va_, vb_); \
    }                                                                                          \
  } while (0)

/* Whether `text` contains `want` (for CHECK); says what it had when not. */
static inline int unit_contains(const char *text, const char *want) {
  if (text && strstr(text, want)) return 1;
  fprintf(stderr, "'%s' not found in '%s'\n", want, text ? text : "(null)");
  return 0;
}

#define UNIT_MAIN_END()                                        \
  do {                                                         \
    printf("%d passed, %d failed\n", unit_passed, unit_failed); \
    return unit_failed ? 1 : 0;                                \
  } while (0)

#endif
