/* disk_cache.c: the persistent cache's files (disk_cache.h). */
#include "libfuser/disk_cache.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *fuser_disk_cache_dir(const char *option) {
  if (option) return option[0] ? option : NULL;
  const char *env = getenv("FUSER_CACHE_DIR");
  return env && env[0] ? env : NULL;
}

/* FNV-1a, 64 bits: names files; equality is decided by the stored key. */
static uint64_t key_hash(const unsigned char *p, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
  return h;
}

void fuser_disk_cache_path(const char *dir, const void *key, size_t len, char *path, size_t size) {
  snprintf(path, size, "%s/%016llx.fart", dir, (unsigned long long)key_hash(key, len));
}

fuser_disk_result fuser_disk_cache_load(const char *dir, const void *key, size_t len, fuser_artifact **out,
                                        char *why, size_t why_size) {
  *out = NULL;
  char path[4096];
  fuser_disk_cache_path(dir, key, len, path, sizeof path);
  if (access(path, F_OK) != 0) return FUSER_DISK_MISS;
  fuser_error e;
  fuser_artifact *a;
  if (fuser_artifact_read_file(path, &a, &e) != FUSER_OK) {
    snprintf(why, why_size, "%s: %s (%.300s)", path, fuser_status_name(e.code), e.message);
    return FUSER_DISK_REJECT;
  }
  size_t stored_len = 0;
  const void *stored = fuser_artifact_metadata(a, "libfuser.key", &stored_len);
  if (!stored || stored_len != len || memcmp(stored, key, len) != 0) {
    fuser_artifact_release(a);
    snprintf(why, why_size, "%s: written for another key (another fusion, signature, chip or compiler build)", path);
    return FUSER_DISK_REJECT;
  }
  *out = a;
  return FUSER_DISK_HIT;
}

/* mkdir -p */
static int make_dirs(const char *dir, char *why, size_t why_size) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == 0) {
      char c = *p;
      *p = 0;
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        snprintf(why, why_size, "cannot create %s: %s", buf, strerror(errno));
        return -1;
      }
      *p = c;
      if (!c) return 0;
    }
  }
}

int fuser_disk_cache_store(const char *dir, const void *key, size_t len, const fuser_artifact *a, char *why,
                           size_t why_size) {
  static atomic_uint counter;
  if (make_dirs(dir, why, why_size) != 0) return -1;
  void *bytes;
  size_t size;
  fuser_error e;
  if (fuser_artifact_write_bytes(a, &bytes, &size, &e) != FUSER_OK) {
    snprintf(why, why_size, "serialising the artifact: %.300s", e.message);
    return -1;
  }
  char path[4096], tmp[4200];
  fuser_disk_cache_path(dir, key, len, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(bytes, 1, size, f) == size;
  if (f && fclose(f) != 0) ok = 0;
  free(bytes);
  if (!ok || rename(tmp, path) != 0) {
    snprintf(why, why_size, "writing %s: %s", path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}
