/* compiler_version.c: fuser_compiler_version (fuser.h), the compiler's
 * identity in the persistent cache's key: FUSER_VERSION_STRING plus the
 * GNU build id of the binary libfuser is linked into (libfuser.so, or the
 * executable holding the static library). The build id is a hash the
 * linker computes over the linked binary, so any rebuild that changes the
 * compiler changes it, and a cache entry written by another build is never
 * loaded, even at the same version number. It is read once from the
 * binary's own PT_NOTE segments (dl_iterate_phdr: no file access). */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libfuser/fuser.h"

static char version[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef struct {
  uintptr_t self; /* an address inside this code */
  char hex[2 * 64 + 1];
} build_id;

static bool holds(const struct dl_phdr_info *info, uintptr_t addr) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && addr >= start && addr < start + ph->p_memsz) return true;
  }
  return false;
}

/* dl_iterate_phdr callback: the build id note of the object holding id->self. */
static int find_note(struct dl_phdr_info *info, size_t size, void *ud) {
  build_id *id = ud;
  if (!holds(info, id->self)) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      const unsigned char *name = p + sizeof *n, *desc = name + ((n->n_namesz + 3) & ~3u);
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 && n->n_descsz <= 64) {
        for (unsigned k = 0; k < n->n_descsz; k++) snprintf(id->hex + 2 * k, 3, "%02x", desc[k]);
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1; /* found the object; it has no build id */
}

static void compute(void) {
  build_id id = {(uintptr_t)&compute, {0}};
  dl_iterate_phdr(find_note, &id);
  /* without a build id (a linker told not to write one), the time this
   * file was compiled: weaker, since other files may change alone */
  if (id.hex[0]) snprintf(version, sizeof version, "%s+%s", FUSER_VERSION_STRING, id.hex);
  else snprintf(version, sizeof version, "%s+built-%s-%s", FUSER_VERSION_STRING, __DATE__, __TIME__);
}

const char *fuser_compiler_version(void) {
  pthread_once(&once, compute);
  return version;
}
