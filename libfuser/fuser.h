/* libfuser/fuser.h: the sources' name for libfuser's public header, which
 * lives (and is installed) at include/fuser/fuser.h. */
#include "../include/fuser/fuser.h"
