/* disk_cache.h: libfuser's persistent cache: compiled entries as artifact
 * files in a directory, one per key, so a later process loads them instead
 * of compiling. The key (fusion.c builds it) is the fusion's hash, the
 * call signature, the chip and the compiler version; the file is named by
 * a hash of the key and holds the key itself as metadata "libfuser.key",
 * compared byte for byte on load, so a hash collision or an entry of
 * another compiler is never trusted. Files are written to a temporary name
 * and renamed into place: a reader sees a whole file or none. Plain C, no
 * MLIR. */
#ifndef FUSER_LIBFUSER_DISK_CACHE_H
#define FUSER_LIBFUSER_DISK_CACHE_H

#include <stddef.h>

#include "libfuser/fuser.h"

typedef enum {
  FUSER_DISK_MISS = 0,   /* no file for the key */
  FUSER_DISK_HIT = 1,    /* *out is the artifact */
  FUSER_DISK_REJECT = 2, /* a file that is not trusted: why says what was wrong with it */
} fuser_disk_result;

/* The cache directory: `option` if not NULL ("" disables), else
 * $FUSER_CACHE_DIR when set and not empty, else NULL (no cache). */
const char *fuser_disk_cache_dir(const char *option);

fuser_disk_result fuser_disk_cache_load(const char *dir, const void *key, size_t len, fuser_artifact **out,
                                        char *why, size_t why_size);

/* Writes the artifact for key (creating dir and its parents). 0, or -1 with
 * a message in why. */
int fuser_disk_cache_store(const char *dir, const void *key, size_t len, const fuser_artifact *a, char *why,
                           size_t why_size);

/* The path of key's file in dir. */
void fuser_disk_cache_path(const char *dir, const void *key, size_t len, char *path, size_t size);

#endif
