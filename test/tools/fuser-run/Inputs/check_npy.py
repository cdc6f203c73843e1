"""Checks fuser-run --save's .npy files against what fuser-run printed:
for every `output #i: <dtype> shape [...]` line, DIR/out<i>.npy must load
with NumPy with that shape, the expected NumPy dtype (bf16 is saved as
float32), the printed first values and (to rounding of the summation
order) the printed sum; inputs DIR/in<i>.npy must load too.

    check_npy.py DIR PRINTED.txt
"""
import glob, os, re, sys

import numpy as np

NP_DTYPE = {"bf16": np.float32, "f16": np.float16, "f32": np.float32, "f64": np.float64,
            "i1": np.bool_, "i32": np.int32, "i64": np.int64}


def main(folder, printed):
    lines = open(printed).read().splitlines()
    checked = 0
    for k, line in enumerate(lines):
        m = re.match(r"output #(\d+): (\w+) shape \[([\d, ]*)\]", line)
        if not m:
            continue
        i, dtype = int(m.group(1)), m.group(2)
        shape = tuple(int(x) for x in m.group(3).split(",") if x.strip())
        a = np.load(os.path.join(folder, f"out{i}.npy"))
        assert a.shape == shape, (i, a.shape, shape)
        assert a.dtype == NP_DTYPE[dtype], (i, a.dtype, dtype)
        total = float(re.search(r"sum (\S+)", lines[k + 1]).group(1))
        ours = float(np.sum(a.astype(np.float64)))
        assert abs(ours - total) <= 1e-9 * max(1.0, abs(total)), (i, ours, total)
        first = lines[k + 2].split(":", 1)[1].split()
        flat = a.reshape(-1)
        for j, text in enumerate(first):
            if a.dtype.kind == "f":  # printed with enough digits to round-trip in its dtype
                want = a.dtype.type(text)
                assert flat[j] == want or (np.isnan(flat[j]) and np.isnan(want)), (i, j, flat[j], text)
            else:
                assert int(flat[j]) == int(text), (i, j, flat[j], text)
        checked += 1
    inputs = sorted(glob.glob(os.path.join(folder, "in*.npy")))
    for path in inputs:
        np.load(path)
    print(f"{checked} outputs and {len(inputs)} inputs load with NumPy and match")
    return 0 if checked else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
