/* error.h: reporting an error, the compiler's one way: a located MLIR
 * diagnostic when there is an op to blame, else a message into the
 * caller's bounded buffer. Both return false, so a check reads
 * `if (bad) return fuser_emit_error(op, "...", ...);`. (The runtime, which
 * has no MLIR, reports through driver/error.h's fuser_set_error.) */
#ifndef FUSER_SUPPORT_ERROR_H
#define FUSER_SUPPORT_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/* An error diagnostic at op's location. */
bool fuser_emit_error(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error diagnostic at loc. */
bool fuser_emit_error_at(MlirLocation loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message into buf[cap] (truncated; nothing when buf is NULL or cap 0). */
bool fuser_message(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool fuser_vmessage(char *buf, size_t cap, const char *fmt, va_list ap);

#endif
