/* Wraps a fuser_pass_info as an MLIR external pass: the per-instance state
 * is the option values, copied for each clone (func.func passes run in
 * parallel, one clone per function). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/pass.h"

typedef struct {
  const fuser_pass_info *info;
  fuser_pass_options options;
} pass_instance;

static void construct(void *ud) { (void)ud; }
static void destruct(void *ud) { free(ud); }
static MlirLogicalResult initialize(MlirContext ctx, void *ud) { return mlirLogicalResultSuccess(); }

static void *clone(void *ud) {
  pass_instance *copy = malloc(sizeof *copy);
  if (copy) memcpy(copy, ud, sizeof *copy);
  return copy;
}

static void run(MlirOperation op, MlirExternalPass pass, void *ud) {
  pass_instance *p = ud;
  if (!p->info->run(op, &p->options)) mlirExternalPassSignalFailure(pass);
}

MlirPass fuser_pass_create(const fuser_pass_info *info, const fuser_pass_options *options) {
  static MlirTypeIDAllocator allocator;
  static MlirTypeID ids[64];
  static const fuser_pass_info *owners[64];
  if (!allocator.ptr) allocator = mlirTypeIDAllocatorCreate();
  /* One TypeID per pass kind, so the pass manager can tell passes apart. */
  MlirTypeID id = {0};
  for (int i = 0; i < 64; i++) {
    if (owners[i] == info) { id = ids[i]; break; }
    if (!owners[i]) {
      owners[i] = info;
      id = ids[i] = mlirTypeIDAllocatorAllocateTypeID(allocator);
      break;
    }
  }
  pass_instance *p = calloc(1, sizeof *p);
  p->info = info;
  p->options = *options;
  MlirExternalPassCallbacks cb = {construct, destruct, initialize, clone, run};
  return mlirCreateExternalPass(id, mlirStringRefCreateFromCString(info->argument),
                                mlirStringRefCreateFromCString(info->argument),
                                mlirStringRefCreateFromCString(info->description),
                                mlirStringRefCreateFromCString(info->anchor), 0, NULL, cb, p);
}
