/* unit_libfuser_cache.c: libfuser's persistent cache across processes.
 *
 *   unit_libfuser_cache DIR    (DIR is emptied first)
 *
 * runs itself as child processes (each a fresh process: nothing in
 * memory is shared) and checks their counters (fuser_fusion_get_stats):
 *   write    the first process compiles and writes one entry;
 *   read     a second process loads it: no compile (and another signature
 *            compiles, writing a second file);
 *   read2    after a byte in the middle of every file is flipped: both
 *            entries are rejected with a warning, compiled again and
 *            rewritten, then loaded again; a truncated file likewise;
 *   env      FUSER_CACHE_DIR finds it with no option; cache_dir "" turns
 *            the cache off despite the variable;
 *   chip     another chip is another key (a compile, a new file); that
 *            file overwritten with an sm_90 entry is rejected ("another
 *            key"), never loaded.
 * No driver is needed (FUSER_CUDA_LIBRARY points nowhere). */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuser/fuser.h"
#include "unit.h"

static const char script[] =
    "def nvfuser_fusion_id1(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])\n"
    "    T1 = fd.ops.exp(T0)\n"
    "    fd.add_output(T1)\n";

/* ---- a child: one fusion, one or two compiles, counters printed ---------- */

static int child(const char *phase, const char *dir) {
  fuser_fusion_options o = {0};
  o.cache_dir = dir;
  if (!strcmp(phase, "env")) o.cache_dir = NULL; /* the environment says */
  if (!strcmp(phase, "off")) o.cache_dir = "";
  if (!strcmp(phase, "chip")) o.chip = "sm_80";
  fuser_fusion *f;
  fuser_error err;
  if (fuser_fusion_create(NULL, FUSER_SOURCE_NVFUSER, script, strlen(script), "exp.py", &o, &f, &err) != FUSER_OK) {
    fprintf(stderr, "create: %s\n", err.message);
    return 100;
  }
  int64_t shape[2] = {8, 64}, row[2] = {64, 1}, col[2] = {1, 8};
  DLTensor t = {NULL, {kDLCUDA, 0}, 2, {kDLFloat, 32, 1}, shape, row, 0};
  fuser_arg arg = fuser_arg_tensor(&t);
  fuser_artifact *a = NULL;
  int rc = fuser_fusion_compile_artifact(f, &arg, 1, &a, &err);
  if (rc == FUSER_OK && !strcmp(phase, "read2")) { /* a second signature: column-major */
    fuser_artifact_release(a);
    t.strides = col;
    rc = fuser_fusion_compile_artifact(f, &arg, 1, &a, &err);
  }
  if (rc != FUSER_OK) {
    fprintf(stderr, "compile: %s\n", err.message);
    return 101;
  }
  /* a loaded entry runs like a compiled one: same plan */
  int ok = fuser_artifact_num_kernels(a) >= 1 && fuser_artifact_num_inputs(a) == 1;
  fuser_artifact_release(a);
  fuser_fusion_stats s;
  fuser_fusion_get_stats(f, &s);
  printf("%s: compiles %llu disk_hits %llu disk_writes %llu disk_rejects %llu\n", phase, (unsigned long long)s.compiles,
         (unsigned long long)s.disk_hits, (unsigned long long)s.disk_writes, (unsigned long long)s.disk_rejects);
  fuser_fusion_destroy(f);
  /* the exit status carries the counters: compiles, hits, writes, rejects (a digit each) */
  return ok ? (int)(s.compiles * 27 + s.disk_hits * 9 + s.disk_writes * 3 + s.disk_rejects) : 102;
}

/* ---- the parent -------------------------------------------------------------- */

static const char *self;

static int run_child(const char *phase, const char *dir) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "--child", phase, dir, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The expected exit status of a child. */
static int counts(int compiles, int hits, int writes, int rejects) { return compiles * 27 + hits * 9 + writes * 3 + rejects; }

/* Files ending in .fart in dir; the first name into first. */
static int list(const char *dir, char *first, size_t size) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len > 5 && !strcmp(e->d_name + len - 5, ".fart")) {
      if (!n && first) snprintf(first, size, "%s/%s", dir, e->d_name);
      n++;
    }
  }
  closedir(d);
  return n;
}

static void flip_middle_byte(const char *path) {
  FILE *f = fopen(path, "r+b");
  if (!f) return;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, size / 2, SEEK_SET);
  int c = fgetc(f);
  fseek(f, size / 2, SEEK_SET);
  fputc(c ^ 0x5a, f);
  fclose(f);
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  char buf[4096];
  size_t n;
  while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  if (in) fclose(in);
  if (out) fclose(out);
}

static void empty_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char path[4096];
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    remove(path);
  }
  closedir(d);
}

int main(int argc, char **argv) {
  setenv("FUSER_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
  if (argc == 4 && !strcmp(argv[1], "--child")) return child(argv[2], argv[3]);
  if (argc != 2) {
    fprintf(stderr, "usage: unit_libfuser_cache DIR\n");
    return 2;
  }
  self = "/proc/self/exe";
  char selfpath[4096];
  ssize_t n = readlink("/proc/self/exe", selfpath, sizeof selfpath - 1);
  if (n > 0) selfpath[n] = 0, self = selfpath;
  const char *dir = argv[1];
  mkdir(dir, 0777);
  empty_dir(dir);
  char sub[4096];
  snprintf(sub, sizeof sub, "%s/nested/cache", dir); /* created with its parents */
  empty_dir(sub);

  CHECK_EQ_INT(run_child("write", sub), counts(1, 0, 1, 0));
  CHECK_EQ_INT(list(sub, NULL, 0), 1);
  CHECK_EQ_INT(run_child("read", sub), counts(0, 1, 0, 0));
  CHECK_EQ_INT(run_child("read2", sub), counts(1, 1, 1, 0));
  CHECK_EQ_INT(list(sub, NULL, 0), 2);

  /* corrupt every entry: rejected, compiled, rewritten; then trusted again */
  DIR *d = opendir(sub);
  char path[8192];
  for (struct dirent *e; d && (e = readdir(d));)
    if (e->d_name[0] != '.') snprintf(path, sizeof path, "%s/%s", sub, e->d_name), flip_middle_byte(path);
  if (d) closedir(d);
  CHECK_EQ_INT(run_child("read2", sub), counts(2, 0, 2, 2)); /* both signatures: both rejected */
  CHECK_EQ_INT(run_child("read2", sub), counts(0, 2, 0, 0));
  /* a truncated file is rejected too (read2 touches both entries) */
  char first[4096] = "";
  list(sub, first, sizeof first);
  struct stat st;
  if (stat(first, &st) == 0) CHECK_EQ_INT(truncate(first, st.st_size / 2), 0);
  CHECK_EQ_INT(run_child("read2", sub), counts(1, 1, 1, 1));
  CHECK_EQ_INT(run_child("read2", sub), counts(0, 2, 0, 0));

  /* the environment variable, and "" turning it off */
  setenv("FUSER_CACHE_DIR", sub, 1);
  CHECK_EQ_INT(run_child("env", sub), counts(0, 1, 0, 0));
  CHECK_EQ_INT(run_child("off", sub), counts(1, 0, 0, 0));
  unsetenv("FUSER_CACHE_DIR");

  /* another chip: another key and file; an sm_90 entry under its name is not trusted */
  int before = list(sub, NULL, 0);
  CHECK_EQ_INT(run_child("chip", sub), counts(1, 0, 1, 0));
  CHECK_EQ_INT(list(sub, NULL, 0), before + 1);
  char sm90[8192] = "", sm80[8192] = "";
  d = opendir(sub);
  /* which file is sm_80's: its PTX targets sm_80 */
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 5, ".fart")) continue;
    snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
    FILE *f = fopen(path, "rb");
    char buf[1 << 16];
    size_t got = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    int is80 = memmem(buf, got, "sm_80", 5) != NULL;
    snprintf(is80 ? sm80 : sm90, sizeof sm80, "%s", path);
  }
  if (d) closedir(d);
  CHECK(sm80[0] && sm90[0]);
  if (sm80[0] && sm90[0]) {
    copy_file(sm90, sm80);
    CHECK_EQ_INT(run_child("chip", sub), counts(1, 0, 1, 1));
    CHECK_EQ_INT(run_child("chip", sub), counts(0, 1, 0, 0));
  }
  empty_dir(sub);
  UNIT_MAIN_END();
}
