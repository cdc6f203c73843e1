/* pass.h: how a fuser pass is described, registered and configured.
 *
 * A pass is a `fuser_pass_info` constant in its own file, listed with one
 * line in passes/registry.c. fuser-opt's pipeline parser turns its name into
 * an MLIR external pass inside the same pass manager as upstream passes. */
#ifndef FUSER_PASSES_PASS_H
#define FUSER_PASSES_PASS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FUSER_PASS_MAX_OPTIONS 8

typedef struct {
  const char *name;
  const char *default_value;
  const char *help;
} fuser_pass_option;

/* Option values as given in a pipeline (`pass{key=value}`), defaults filled. */
typedef struct {
  int count;
  struct {
    const char *key;
    char value[128];
  } entries[FUSER_PASS_MAX_OPTIONS];
} fuser_pass_options;

typedef struct {
  const char *argument;    /* the pipeline name: "fuser-verify" */
  const char *description; /* one line for --list-passes */
  const char *anchor;      /* "builtin.module", "func.func" or "" (any op) */
  fuser_pass_option options[FUSER_PASS_MAX_OPTIONS];
  /* Runs on one anchor op. Emits located errors with mlirEmitError and
   * returns false on failure. */
  bool (*run)(MlirOperation op, const fuser_pass_options *options);
} fuser_pass_info;

/* The registry. */
int fuser_pass_count(void);
const fuser_pass_info *fuser_pass_at(int i);
const fuser_pass_info *fuser_pass_lookup(const char *argument, size_t len);
/* Adds a pass defined outside passes/ (registering a name twice keeps the
 * first; false when the registry is full). Not thread-safe: register at
 * start-up (lowering/lowering.h: fuser_lowering_register_passes). */
bool fuser_pass_register(const fuser_pass_info *info);

/* Option accessors (the option must be declared by the pass). */
const char *fuser_pass_option_str(const fuser_pass_options *o, const char *key);
int64_t fuser_pass_option_int(const fuser_pass_options *o, const char *key);
bool fuser_pass_option_bool(const fuser_pass_options *o, const char *key);

/* Parses `{k=v k2=v2}` body text (without braces) against the pass's
 * declared options. On error writes a message and returns false. */
bool fuser_pass_options_parse(const fuser_pass_info *info, const char *text, size_t len,
                              fuser_pass_options *out, char *err, size_t errlen);

/* Creates the MLIR external pass for `info` with `options`. */
MlirPass fuser_pass_create(const fuser_pass_info *info, const fuser_pass_options *options);

/* Parses a textual pipeline `builtin.module(a, func.func(b{x=1}), c)` into
 * `pm`: fuser passes become external passes, everything else is handed to
 * MLIR's own parser, all in one pass manager. */
bool fuser_pipeline_parse(MlirPassManager pm, const char *text, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
