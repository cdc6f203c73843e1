#!/usr/bin/env python3
"""compare_base.py: per-fusion time of this tree against a baseline measured
in the same GPU command (session_run.sh's `base` and `corpus` steps, or any
two `fuser-run --artifact F --bench N --name NAME` JSONL files).

    python3 bench/gpu/compare_base.py BASE.jsonl NEW.jsonl [--limit 1.03] [--key graph_us]

Prints a Markdown table: each fusion in either file, its time in BASE and
NEW (the CUDA-graph time per call by default; `--key us` for the event
time), new / base, and `SLOWER` where the ratio exceeds the limit (default
1.03: the acceptance bound of "no fusion slower than before by more than
3%"). A fusion missing from one file, or without a time (-1: no graph
capture, e.g. index_ops), is listed without a ratio. The last line of a
name wins. Exits 1 when some fusion is over the limit, else 0."""
import argparse
import json
import sys


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                if "case" in r:
                    rows[r["case"]] = r
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--limit", type=float, default=1.03)
    ap.add_argument("--key", default="graph_us")
    a = ap.parse_args()
    base, new = load(a.base), load(a.new)
    over = []
    print(f"| fusion | base {a.key} | new {a.key} | new / base | |")
    print("|---|---|---|---|---|")
    for name in sorted(set(base) | set(new)):
        b = base.get(name, {}).get(a.key, -1)
        n = new.get(name, {}).get(a.key, -1)
        if b is None or n is None or b <= 0 or n <= 0:
            print(f"| {name} | {b if b and b > 0 else '—'} | {n if n and n > 0 else '—'} | — | |")
            continue
        ratio = n / b
        flag = "SLOWER" if ratio > a.limit else ""
        if flag:
            over.append(name)
        print(f"| {name} | {b:.2f} | {n:.2f} | {ratio:.3f} | {flag} |")
    print()
    print(f"over the {a.limit:.2f} limit: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
