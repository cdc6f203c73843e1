#!/usr/bin/env python3
"""compare_base.py: per-fusion time of this tree against a baseline measured
in the same GPU command: two JSONL files of `fuser-run --bench` lines
(`--artifact F --bench N --name NAME`, or bench/gpu/ab_bench.py's samples,
several per fusion: one per round).

    python3 bench/gpu/compare_base.py BASE.jsonl NEW.jsonl [--limit 1.03] [--key graph_us]
        [--identical FILE]

Prints a Markdown table: each fusion in either file, the median of its
samples in BASE and NEW (the CUDA-graph time per call by default; `--key us`
for the event time, `--key host_us` for host time), new / base, the
measured spread and the verdict. A fusion missing from one file, or without
a time (-1: no graph capture, e.g. index_ops), is listed without a ratio.

The spread of a fusion is the larger of its two sides' relative ranges,
(max - min) / median over the samples: how far two measurements of the same
thing fell apart in this very command. A difference inside it cannot be told
from noise, so the verdict is:
  SLOWER        new / base - 1 exceeds both the limit (default 1.03, the
                acceptance bound "no fusion slower than before by more than
                3%") and the spread;
  within noise  over the limit but inside the spread (not shown either way:
                more rounds would tell);
  (empty)       within the limit.
`--identical FILE` names (one a line) the fusions whose base and new
artifacts are byte-identical (same kernels, same plan; ab_run.sh writes it):
they are marked "identical artifact" (the same rule still flags them: a
difference between them is the measurement's, or the runtime's when that
changed, and either must be seen). The largest
|new / base - 1| among them is printed as the noise seen on identical work.
With one sample a side the spread is 0 and the limit alone decides. Exits 1
when some fusion is SLOWER, else 0."""
import argparse
import json
import statistics
import sys


def load(path, key):
    rows = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                if "case" in r:
                    v = r.get(key)
                    rows.setdefault(r["case"], []).append(v if isinstance(v, (int, float)) else -1)
    return rows


def spread(xs):
    return (max(xs) - min(xs)) / statistics.median(xs) if len(xs) > 1 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--limit", type=float, default=1.03)
    ap.add_argument("--key", default="graph_us")
    ap.add_argument("--identical", help="a file naming the fusions whose artifacts are byte-identical")
    a = ap.parse_args()
    base, new = load(a.base, a.key), load(a.new, a.key)
    identical = set()
    if a.identical:
        with open(a.identical) as f:
            identical = {ln.strip() for ln in f if ln.strip()}
    over, noisy, same_dev = [], [], []
    print(f"| fusion | base {a.key} | new {a.key} | new / base | samples | spread | |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted(set(base) | set(new)):
        b = [x for x in base.get(name, []) if x > 0]
        n = [x for x in new.get(name, []) if x > 0]
        if not b or not n:
            bs = f"{statistics.median(b):.2f}" if b else "—"
            ns = f"{statistics.median(n):.2f}" if n else "—"
            print(f"| {name} | {bs} | {ns} | — | {len(b)}/{len(n)} | — | |")
            continue
        mb, mn = statistics.median(b), statistics.median(n)
        ratio = mn / mb
        sp = max(spread(b), spread(n))
        if ratio > a.limit and ratio - 1 > sp:
            verdict = "SLOWER"
            over.append(name)
        elif ratio > a.limit:
            verdict = "within noise"
            noisy.append(f"{name} ({ratio:.3f}, spread {100 * sp:.1f}%)")
        else:
            verdict = ""
        if name in identical:
            verdict = "identical artifact" + (f"; {verdict}" if verdict else "")
            same_dev.append(abs(ratio - 1))
        print(f"| {name} | {mb:.2f} | {mn:.2f} | {ratio:.3f} | {len(b)}/{len(n)} | {100 * sp:.1f}% | {verdict} |")
    print()
    print(f"threshold: a fusion is SLOWER when new / base exceeds {a.limit:.2f} and its own measured spread "
          f"(the larger side's (max - min) / median over its samples): a difference inside the spread is not "
          f"distinguishable from noise")
    if identical:
        print(f"identical artifacts: {len(same_dev)} timed, largest |new / base - 1| "
              f"{100 * max(same_dev, default=0):.1f}% (noise on identical work)")
    print(f"within noise (over {a.limit:.2f}, inside the spread): {', '.join(noisy) if noisy else 'none'}")
    print(f"over the {a.limit:.2f} limit: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
