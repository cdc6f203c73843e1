/* special.c: erfinv and erfcinv on doubles (special.h). */
#include "reference/special.h"

#include <math.h>

/* erfinv on doubles (libm has none): Giles' single-precision approximation
 * as a start, then two Newton steps on erf; erfcinv(x) = erfinv(1 - x).
 * +-1 give +-inf, outside [-1, 1] NaN. */
double fuser_ref_erfinv(double x) {
  if (isnan(x) || x < -1 || x > 1) return NAN;
  if (x == 1 || x == -1) return x * INFINITY;
  double w = -log((1.0 - x) * (1.0 + x)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double y = p * x;
  for (int i = 0; i < 2; i++) y -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));
  return y;
}
double fuser_ref_erfcinv(double x) { return fuser_ref_erfinv(1.0 - x); }
