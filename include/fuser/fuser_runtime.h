/* include/fuser/fuser_runtime.h, in the source tree only: the runtime's
 * public header is driver/fuser_runtime.h (the runtime-only build of the
 * GPU machine compiles driver/ alone); `cmake --install` installs that file
 * under this name, next to fuser.h, so the installed headers include each
 * other with no checkout-relative path. */
#include "../../driver/fuser_runtime.h"
