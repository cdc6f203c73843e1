/* libfuser/definition.h: the sources' name for libfuser's public
 * definition header, which lives (and is installed) at
 * include/fuser/definition.h. */
#include "../include/fuser/definition.h"
