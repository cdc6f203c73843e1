"""Checks dropout.py's outputs (fuser-run --cpu --save DIR): the statistics
of each random output against its distribution (bounds of 5 standard
errors), and dropout's mask applied to the input."""
import sys
import numpy as np

d = sys.argv[1]
x = np.load(f"{d}/in0.npy").astype(np.float64)
out = [np.load(f"{d}/out{i}.npy").astype(np.float64) for i in range(4)]
n = x.size


def report(name, checks):
    bad = [k for k, ok in checks if not ok]
    print(f"{name}: " + ", ".join(f"{k} {'ok' if ok else 'FAILED'}" for k, ok in checks))
    return not bad


ok = True
kept = out[0] != 0
frac = kept.mean()
scaled = np.allclose(out[0][kept], (x[kept].astype(np.float32) * np.float32(1.1111111111111112)), rtol=1e-6)
ok &= report("dropout", [("kept fraction", abs(frac - 0.9) < 5 * np.sqrt(0.09 / n)),
                         ("kept values scaled by 1/0.9", scaled)])
z = out[1]
ok &= report("randn_like", [("mean", abs(z.mean()) < 5 / np.sqrt(n)),
                            ("variance", abs(z.var() - 1) < 5 * np.sqrt(2 / n))])
u = out[2]
ok &= report("uniform bf16", [("in [-1, 1)", u.min() >= -1 and u.max() < 1),
                              ("mean", abs(u.mean()) < 5 * np.sqrt(1 / 3 / u.size))])
g = out[3]
ok &= report("normal f64", [("mean", abs(g.mean() - 2) < 5 * 0.5 / np.sqrt(n)),
                            ("std", abs(g.std() - 0.5) < 5 * 0.5 * np.sqrt(0.5 / n))])
sys.exit(0 if ok else 1)
