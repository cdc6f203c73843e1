#!/usr/bin/python3
"""How far nvFuser's f32 Box-Muller can land from the CPU reference when the
GPU's libdevice functions are off by CUDA's documented maximum errors.

    scripts/box_muller_ulp.py [--samples N]

The reference computes a normal f32 value as
    n = f32(sqrt(f32(-2 * logf(u)))) * sinf(f32(v * 2pi))   (cosf for odd elements)
with glibc's logf/sinf/cosf (here: correctly rounded, via double); the GPU
kernels do the same ops through libdevice (__nv_logf, 1 ulp; __nv_sinf and
__nv_cosf, 2 ulp: the CUDA C++ Programming Guide's table; sqrt and the
products are IEEE-exact on both). This perturbs log by -1..1 ulp and sin/cos
by -2..2 ulp on N uniform pairs (u, v as nvFuser's uniformf makes them) and
prints the largest difference of n in ulps, per perturbation. Needs numpy;
no test depends on it (docs/reference.md, "Random numbers").
"""
import argparse

import numpy as np


def step(x, k):
    for _ in range(abs(k)):
        x = np.nextafter(x, np.float32(np.inf) if k > 0 else np.float32(-np.inf))
    return x


def ulps(a, b):
    ai, bi = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)
    ai = np.where(ai < 0, -(ai & 0x7FFFFFFF), ai)
    bi = np.where(bi < 0, -(bi & 0x7FFFFFFF), bi)
    return np.abs(ai - bi)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=200000)
    n = ap.parse_args().samples
    rng = np.random.default_rng(1)
    scale = np.float32(2.0**-32)
    u, v = (((rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.float32) * scale) + np.float32(2.0**-33)).astype(np.float32)
            for _ in range(2))
    lg = np.log(u.astype(np.float64)).astype(np.float32)
    ang = (v * np.float32(6.2831855)).astype(np.float32)
    sn = np.sin(ang.astype(np.float64)).astype(np.float32)
    cs = np.cos(ang.astype(np.float64)).astype(np.float32)

    def normal(lg, sc):
        rad = np.sqrt((np.float32(-2.0) * lg).astype(np.float32)).astype(np.float32)
        return (rad * sc).astype(np.float32)

    ref_s, ref_c = normal(lg, sn), normal(lg, cs)
    worst = 0
    for dl in (-1, 0, 1):
        for ds in (-2, -1, 0, 1, 2):
            m = max(ulps(normal(step(lg, dl), step(sn, ds)), ref_s).max(), ulps(normal(step(lg, dl), step(cs, ds)), ref_c).max())
            print(f"log {dl:+d} ulp, sin/cos {ds:+d} ulp: n at most {m} ulp away")
            worst = max(worst, m)
    print(f"worst: {worst} ulp over {n} samples")


if __name__ == "__main__":
    main()
