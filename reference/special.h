/* special.h: the special functions libm lacks, on doubles: the reference
 * computes erfinv/erfcinv with them, and the CPU JIT's kernels call them
 * (lowering/special_fns.c), so both give the same values. */
#ifndef FUSER_REFERENCE_SPECIAL_H
#define FUSER_REFERENCE_SPECIAL_H

/* erfinv: +-1 give +-inf, outside [-1, 1] and NaN give NaN. */
double fuser_ref_erfinv(double x);
/* erfcinv(x) = erfinv(1 - x). */
double fuser_ref_erfcinv(double x);

#endif
