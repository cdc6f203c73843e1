#!/usr/bin/env python3
"""small_ab_table.py: the medians of bench/gpu/small_ab.sh's rounds.

    python3 bench/gpu/small_ab_table.py OUT_DIR

Reads OUT_DIR/base.jsonl and new.jsonl (one line per round and fusion,
fuser-run --bench's JSON) and peers.jsonl (peers.py, one or more runs) and
prints a Markdown table: each fusion's median CUDA-graph time per call in
base and new with every round's value, new / base, torch.compile's median
graph time and new / torch.compile."""
import json
import os
import statistics
import sys


def rows(path, key):
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        v = r.get(key)
        if "case" in r and isinstance(v, (int, float)) and v > 0:
            out.setdefault(r["case"].removesuffix(".py"), []).append(v)
    return out


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x):
    return f"{x:.2f}" if x else "—"


def main():
    d = sys.argv[1]
    base, new = rows(os.path.join(d, "base.jsonl"), "graph_us"), rows(os.path.join(d, "new.jsonl"), "graph_us")
    tc = rows(os.path.join(d, "peers.jsonl"), "compile_graph_us")
    print("| fusion | base µs (median; rounds) | new µs (median; rounds) | new / base | torch.compile µs | new / torch.compile |")
    print("|---|---|---|---|---|---|")
    for n in sorted(set(base) | set(new)):
        b, w, t = med(base.get(n, [])), med(new.get(n, [])), med(tc.get(n, []))
        rb = " ".join(f"{x:.2f}" for x in base.get(n, []))
        rn = " ".join(f"{x:.2f}" for x in new.get(n, []))
        ratio = f"{w / b:.3f}" if b and w else "—"
        vs = f"{w / t:.3f}" if t and w else "—"
        print(f"| {n} | {fmt(b)} ({rb}) | {fmt(w)} ({rn}) | {ratio} | {fmt(t)} | {vs} |")


if __name__ == "__main__":
    main()
