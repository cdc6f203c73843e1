#!/usr/bin/env python3
"""compare_base.py: per-fusion time of this tree against a baseline measured
in the same GPU command: two JSONL files of `fuser-run --bench` lines
(`--artifact F --bench N --name NAME`), or bench/gpu/ab_bench.py's samples
(several per fusion, one per round, tagged "round" and "proc").

    python3 bench/gpu/compare_base.py BASE.jsonl NEW.jsonl [--limit 1.03] [--key graph_us]
        [--identical FILE]

Prints a Markdown table: each fusion in either file, the median of its
samples in BASE and NEW (the CUDA-graph time per call by default; `--key us`
for the event time, `--key host_us` / `host_batch_us` for host time),
new / base, the interval the measurement allows, and the verdict. A fusion
missing from one file, or without a time (-1: no graph capture, e.g.
index_ops), is listed without a ratio.

new / base is the median of the paired ratios when the samples come in
pairs (the same round and process pair on both sides: ab_bench.py measures
the two one after the other, so slow drifts of the machine cancel), else the
ratio of the medians. The interval is how far that ratio is pinned down by
this very command: with 6 or more pairs, the distribution-free 95%
confidence interval of the median of the paired ratios (order statistics of
the binomial(n, 1/2)); with fewer, or unpaired samples, the range of the
ratios (each side's range around the other's median); one sample a side:
the ratio alone. The verdict uses the limit (default 1.03: "no fusion
slower than before by more than 3%") and that interval:
  SLOWER        the whole interval is above the limit;
  within noise  new / base is above the limit, the interval reaches below
                it (not shown either way: more rounds would tell);
  (empty)       new / base is within the limit.
`--identical FILE` names (one a line) the fusions whose base and new
artifacts are byte-identical (same kernels, same plan; ab_run.sh writes it):
they are marked "identical artifact" (the same rule still flags them: a
difference between them is the measurement's, or the runtime's when that
changed), and the largest |new / base - 1| among them is printed as the noise
seen on identical work. Exits 1 when some fusion is SLOWER, else 0."""
import argparse
import json
import math
import statistics
import sys


def load(path, key):
    """{case: [(pair key or None, value)]}; values <= 0 or missing are dropped."""
    rows = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if "case" not in r:
                continue
            v = r.get(key)
            pair = (r["round"], r.get("proc", 0)) if "round" in r else None
            rows.setdefault(r["case"], [])
            if isinstance(v, (int, float)) and v > 0:
                rows[r["case"]].append((pair, v))
    return rows


def median_interval(xs):
    """The ~95% distribution-free confidence interval of the median of xs
    (6 or more values), else the range."""
    xs = sorted(xs)
    n = len(xs)
    if n < 6:
        return xs[0], xs[-1]
    # the largest k with P(Binomial(n, 1/2) < k) <= 0.025: the interval is [x_(k), x_(n-k+1)]
    k, tail = 0, 0.0
    while True:
        p = math.comb(n, k) / 2**n
        if tail + p > 0.025:
            break
        tail += p
        k += 1
    k = max(k, 1)
    return xs[k - 1], xs[n - k]


def compare(b, n):
    """(ratio, low, high, how) for the samples of one fusion."""
    mb, mn = statistics.median(v for _, v in b), statistics.median(v for _, v in n)
    bp = {p: v for p, v in b if p is not None}
    pairs = [nv / bp[p] for p, nv in n if p is not None and p in bp]
    if len(pairs) >= 2:
        lo, hi = median_interval(pairs)
        return statistics.median(pairs), lo, hi, f"{len(pairs)} pairs"
    lo = min(v for _, v in n) / mb if len(n) > 1 else mn / max(v for _, v in b)
    hi = max(v for _, v in n) / mb if len(n) > 1 else mn / min(v for _, v in b)
    return mn / mb, min(lo, mn / mb), max(hi, mn / mb), f"{len(b)}/{len(n)}"


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
    over, noisy, same_dev, widths = [], [], [], []
    print(f"| fusion | base {a.key} | new {a.key} | new / base | interval | samples | |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted(set(base) | set(new)):
        b, n = base.get(name, []), new.get(name, [])
        if not b or not n:
            bs = f"{statistics.median(v for _, v in b):.2f}" if b else "—"
            ns = f"{statistics.median(v for _, v in n):.2f}" if n else "—"
            print(f"| {name} | {bs} | {ns} | — | — | {len(b)}/{len(n)} | |")
            continue
        ratio, lo, hi, how = compare(b, n)
        widths.append(hi - lo)
        if ratio > a.limit and lo > a.limit:
            verdict = "SLOWER"
            over.append(name)
        elif ratio > a.limit:
            verdict = "within noise"
            noisy.append(f"{name} ({ratio:.3f}, interval {lo:.3f}-{hi:.3f})")
        else:
            verdict = ""
        if name in identical:
            verdict = "identical artifact" + (f"; {verdict}" if verdict else "")
            same_dev.append(abs(ratio - 1))
        mb, mn = statistics.median(v for _, v in b), statistics.median(v for _, v in n)
        print(f"| {name} | {mb:.2f} | {mn:.2f} | {ratio:.3f} | {lo:.3f}-{hi:.3f} | {how} | {verdict} |")
    print()
    print(f"threshold: a fusion is SLOWER when the whole interval of its new / base lies above {a.limit:.2f}; "
          f"the interval is what this command's own repeats allow (95% of the median of the paired ratios with "
          f"6+ pairs, else their range): a difference inside it cannot be told from noise")
    if widths:
        print(f"interval widths: median {100 * statistics.median(widths):.1f}%, largest {100 * max(widths):.1f}%")
    if identical:
        print(f"identical artifacts: {len(same_dev)} timed, largest |new / base - 1| "
              f"{100 * max(same_dev, default=0):.1f}% (noise on identical work)")
    print(f"within noise (over {a.limit:.2f}, the interval reaching below): {', '.join(noisy) if noisy else 'none'}")
    print(f"over the {a.limit:.2f} limit: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
