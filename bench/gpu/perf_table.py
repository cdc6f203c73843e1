#!/usr/bin/env python3
"""perf_table.py: the docs/PERFORMANCE.md table from one GPU run's results.

    python3 bench/gpu/perf_table.py OURS.jsonl PEERS.jsonl

OURS.jsonl: `fuser-run --artifact F --bench N --name NAME` lines (one per
fusion; the last line of a name wins). PEERS.jsonl: ../shared/bench/peers.py
output from the same command. Prints a Markdown table: kernels, fuser's time
per call in a replayed CUDA graph and with events around each call, the
host time of the execute call, GB/s and % of the copy bandwidth measured by
fuser-run in the same process, and the peers' graph times and roofline."""
import json
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def main():
    ours = {r["case"]: r for r in load(sys.argv[1])}
    peers = {r["case"].removesuffix(".py"): r for r in load(sys.argv[2]) if "case" in r}
    order = ["seed_fusion_id0", "seed_fusion_id1"] + sorted(n for n in ours if not n.startswith("seed"))
    print("| fusion | kernels | fuser µs (graph) | fuser µs (events) | host µs | GB/s | % of copy "
          "| eager µs (graph) | torch.compile µs (graph) | roofline µs |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in order:
        o = ours.get(name)
        if not o:
            continue
        p = peers.get(name, {})
        fmt = lambda v: f"{v:.2f}" if isinstance(v, (int, float)) else "—"
        print(f"| {name} | {o['kernels']} | {o['graph_us']:.2f} | {o['us']:.2f} | {o['host_us']:.2f} | "
              f"{o['GBps']:.0f} | {o['pct_copy']:.1f}% | {fmt(p.get('eager_graph_us'))} | "
              f"{fmt(p.get('compile_graph_us'))} | {fmt(p.get('roofline_us'))} |")


if __name__ == "__main__":
    main()
