/* version.c: the API version queries (fuser_runtime.h). The values are the
 * header's macros as this library was compiled with them, so a program can
 * tell a library built from another header. */
#include "driver/fuser_runtime.h"

int fuser_api_version(void) { return FUSER_API_VERSION; }
const char *fuser_version_string(void) { return FUSER_VERSION_STRING; }
