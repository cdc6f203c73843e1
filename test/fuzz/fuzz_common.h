/* fuzz_common.h: what the libFuzzer targets of test/fuzz share. Each
 * target checks more than "no crash": a failure must come with a message
 * (never a silent one), a success must satisfy the reader's invariants and
 * round-trip. A violation aborts, so libFuzzer saves the input. */
#ifndef FUSER_TEST_FUZZ_COMMON_H
#define FUSER_TEST_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_REQUIRE(cond, ...)                                                                                        \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "fuzz finding: " __VA_ARGS__);                                                                   \
      fputc('\n', stderr);                                                                                             \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

#endif
