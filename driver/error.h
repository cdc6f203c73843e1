/* error.h: setting a fuser_error (driver/fuser_runtime.h) with a formatted
 * message: the one helper the runtime, libfuser and the tools share. */
#ifndef FUSER_DRIVER_ERROR_H
#define FUSER_DRIVER_ERROR_H

#include "driver/fuser_runtime.h"

/* Sets err (may be NULL) and returns code. */
int fuser_set_error(fuser_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void fuser_clear_error(fuser_error *err) {
  if (err) {
    err->code = 0;
    err->message[0] = 0;
  }
}

#endif
