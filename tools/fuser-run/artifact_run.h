/* artifact_run.h: `fuser-run --artifact F`, running a compiled fusion with
 * the runtime alone (no MLIR): how fusions run on the GPU machine. */
#ifndef FUSER_TOOLS_FUSER_RUN_ARTIFACT_RUN_H
#define FUSER_TOOLS_FUSER_RUN_ARTIFACT_RUN_H

/* Handles the argument vector of `fuser-run` when it names --artifact;
 * returns the process exit code. */
int fuser_run_artifact_main(int argc, char **argv);

#endif
