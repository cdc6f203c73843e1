/* Reading a fusion for fuser-run. A path ending in .py is an nvFuser repro
 * script and goes through the importer (frontend/nvfuser_import.h);
 * anything else is parsed as MLIR. Either way the C verifier runs before
 * anything executes. */
#include "tools/fuser-run/load.h"

#include <stdio.h>
#include <string.h>

#include "dialects/fuser.h"
#include "frontend/nvfuser_import.h"
#include "tools/common/mlir_reader.h"

static bool is_python(const char *path) {
  size_t n = strlen(path);
  return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

MlirModule fuser_run_load(MlirContext ctx, const char *path, const char *text, size_t len) {
  MlirModule module;
  if (is_python(path)) {
    module = fuser_import_nvfuser(ctx, text, len, path);
  } else {
    module = fuser_parse_mlir(ctx, text, len); /* a failure has a located error */
  }
  if (mlirModuleIsNull(module)) return module;
  if (fuser_verify(mlirModuleGetOperation(module)) != 0) {
    mlirModuleDestroy(module);
    return (MlirModule){NULL};
  }
  return module;
}
