/* mlir_print.c: the print callbacks of mlir_print.h. */
#include "support/mlir_print.h"

#include <stdio.h>

void fuser_print_to_strbuf(MlirStringRef s, void *user) { sb_append_n(user, s.data, s.length); }

void fuser_print_to_fixed(MlirStringRef s, void *user) { ft_append_n(user, s.data, s.length); }

void fuser_print_to_file(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, (FILE *)user); }
