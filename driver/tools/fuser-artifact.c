/* fuser-artifact: print a compiled fusion's artifact file readably
 * (signature, outputs, temps, kernels, variants and their conditions).
 * Needs only the runtime library, so it runs on the GPU machine too.
 *
 *   fuser-artifact FILE...
 *
 * A file that is not a valid artifact gives "fuser-artifact: error: FILE:
 * <reason>" and exit status 1. */
#include "driver/fuser_runtime.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: fuser-artifact FILE...\n");
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; i++) {
    fuser_artifact *a;
    fuser_error err;
    if (fuser_artifact_read_file(argv[i], &a, &err) != FUSER_OK) {
      /* read_file's message already starts with the path */
      fprintf(stderr, "fuser-artifact: error: %s [%s]\n", err.message, fuser_status_name(err.code));
      status = 1;
      continue;
    }
    if (argc > 2) printf("== %s\n", argv[i]);
    fuser_artifact_describe(a, stdout);
    fuser_artifact_release(a);
  }
  return status;
}
