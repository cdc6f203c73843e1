/* error.c: the error reporting of error.h. */
#include "support/error.h"

#include <stdio.h>

#include "mlir-c/Diagnostics.h"

bool fuser_vmessage(char *buf, size_t cap, const char *fmt, va_list ap) {
  if (buf && cap) vsnprintf(buf, cap, fmt, ap);
  return false;
}

bool fuser_message(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fuser_vmessage(buf, cap, fmt, ap);
  va_end(ap);
  return false;
}

static bool emit(MlirLocation loc, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  mlirEmitError(loc, msg);
  return false;
}

bool fuser_emit_error_at(MlirLocation loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(loc, fmt, ap);
  va_end(ap);
  return false;
}

bool fuser_emit_error(MlirOperation op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(mlirOperationGetLocation(op), fmt, ap);
  va_end(ap);
  return false;
}
