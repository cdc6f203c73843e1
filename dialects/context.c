/* Context creation: every upstream dialect, pass and translation, plus the
 * fuser dialect loaded from its embedded IRDL definition. */
#include "dialects/fuser.h"

#include <stdio.h>

#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"

extern const char fuser_irdl_text[];

const char *fuser_irdl_source(void) { return fuser_irdl_text; }

MlirContext fuser_context_create(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirRegisterAllLLVMTranslations(ctx);
  static int passes_registered;
  if (!passes_registered) { /* global registry: once per process */
    mlirRegisterAllPasses();
    passes_registered = 1;
  }
  MlirModule irdl = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(fuser_irdl_text));
  if (mlirModuleIsNull(irdl) || mlirLogicalResultIsFailure(mlirLoadIRDLDialects(irdl))) {
    fprintf(stderr, "fuser: internal error: the embedded IRDL dialect failed to load\n");
    if (!mlirModuleIsNull(irdl)) mlirModuleDestroy(irdl);
    mlirContextDestroy(ctx);
    return (MlirContext){NULL};
  }
  mlirModuleDestroy(irdl); /* the loaded dialect no longer needs it */
  return ctx;
}
