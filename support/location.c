/* location.c: see location.h. */
#include "support/location.h"

#include <stdio.h>

void fuser_location_text(MlirLocation loc, char *out, size_t len) {
  snprintf(out, len, "?");
  for (int depth = 0; depth < 8; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      snprintf(out, len, "%.*s:%d:%d", (int)f.length, f.data, mlirLocationFileLineColRangeGetStartLine(loc),
               mlirLocationFileLineColRangeGetStartColumn(loc));
      return;
    }
    if (mlirLocationIsAName(loc)) loc = mlirLocationNameGetChildLoc(loc);
    else if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) == 1) mlirLocationFusedGetLocations(loc, &loc);
    else return;
  }
}
