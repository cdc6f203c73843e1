/* serve.h: `fuser-run --serve MANIFEST`, many artifacts in one process,
 * timed on request (serve.c; bench/gpu/ab_bench.py drives two of them). */
#ifndef FUSER_TOOLS_FUSER_RUN_SERVE_H
#define FUSER_TOOLS_FUSER_RUN_SERVE_H

/* Handles the argument vector of `fuser-run` when it names --serve;
 * returns the process exit code. */
int fuser_run_serve_main(int argc, char **argv);

#endif
