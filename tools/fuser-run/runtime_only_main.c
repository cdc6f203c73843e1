/* fuser-run built with the runtime alone (scripts/build-runtime.sh): the
 * GPU machine has no MLIR, so only `fuser-run --artifact F` (and --serve,
 * many artifacts) is there. */
#include <stdio.h>
#include <string.h>

#include "tools/fuser-run/artifact_run.h"
#include "tools/fuser-run/serve.h"

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--artifact") == 0 || strcmp(argv[i], "-artifact") == 0) return fuser_run_artifact_main(argc, argv);
    if (strcmp(argv[i], "--serve") == 0 || strcmp(argv[i], "-serve") == 0) return fuser_run_serve_main(argc, argv);
  }
  fprintf(stderr, "fuser-run: error: this build has only the runtime (no compiler): use --artifact F or --serve MANIFEST\n");
  return 2;
}
