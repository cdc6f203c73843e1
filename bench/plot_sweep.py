"""Plots the row-length sweep (bench/gpu/reductions.sh: sweep.jsonl from
fuser-run --bench, sweep_peers.jsonl from peers.py) as a PNG: GB/s against
the row length (log2 axis, 256 to 262144 columns), one line per series, the
copy bandwidth dashed. Pure Python (zlib + struct): no plotting package is
installed here or on the GPU machine.

Usage: python3 bench/plot_sweep.py OUT.png SWEEP.jsonl [SWEEP_PEERS.jsonl]
Prints the table it plotted (markdown) and the colour of each series:
  fuser rmsnorm  blue      fuser softmax  red
  torch.compile rmsnorm  light blue   torch.compile softmax  orange
  copy bandwidth  grey, dashed
Axes: x from 2^8 to 2^18 columns (a tick per power of 4), y from 0 to
5000 GB/s (a tick per 1000)."""
import json
import math
import re
import struct
import sys
import zlib

W, H, M = 800, 500, 50
COLORS = {
    ("fuser", "rmsnorm"): (31, 90, 200),
    ("fuser", "softmax"): (210, 40, 40),
    ("torch.compile", "rmsnorm"): (120, 180, 240),
    ("torch.compile", "softmax"): (245, 160, 60),
}
YMAX = 5000.0


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def parse_case(name):
    m = re.match(r"(rmsnorm|softmax)_n(\d+)", name)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def series(ours, peers):
    s, copy = {}, []
    for r in ours:
        op, n = parse_case(r.get("case", ""))
        if op and "graph_us" in r:
            s.setdefault(("fuser", op), {})[n] = r["MB"] * 1e6 / (r["graph_us"] * 1e-6) / 1e9
            copy.append(r.get("copy_GBps", 0))
    for r in peers:
        op, n = parse_case(r.get("case", "").replace(".py", ""))
        if op and r.get("compile_graph_us"):
            mb = r["in_MB"] + r["out_MB"]
            s.setdefault(("torch.compile", op), {})[n] = mb * 1e6 / (r["compile_graph_us"] * 1e-6) / 1e9
    return s, (sum(copy) / len(copy) if copy else None)


class Canvas:
    def __init__(self):
        self.px = bytearray(b"\xff" * (W * H * 3))

    def dot(self, x, y, c, r=1):
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                xx, yy = int(x) + dx, int(y) + dy
                if 0 <= xx < W and 0 <= yy < H:
                    i = (yy * W + xx) * 3
                    self.px[i:i + 3] = bytes(c)

    def line(self, x0, y0, x1, y1, c, dash=0, r=1):
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for k in range(n + 1):
            if dash and (k // dash) % 2:
                continue
            t = k / n
            self.dot(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, c, r)

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[y * W * 3:(y + 1) * W * 3]) for y in range(H))
        def chunk(tag, data):
            return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def xpos(n):
    return M + (math.log2(n) - 8) / 10 * (W - 2 * M)


def ypos(gbps):
    return H - M - min(gbps, YMAX) / YMAX * (H - 2 * M)


def main():
    out, ours = sys.argv[1], load(sys.argv[2])
    peers = load(sys.argv[3]) if len(sys.argv) > 3 else []
    s, copy = series(ours, peers)
    c = Canvas()
    grey = (120, 120, 120)
    c.line(M, H - M, W - M, H - M, (0, 0, 0))
    c.line(M, M, M, H - M, (0, 0, 0))
    for e in range(8, 19, 2):
        c.line(xpos(2 ** e), H - M, xpos(2 ** e), H - M + 6, (0, 0, 0))
    for g in range(1000, int(YMAX) + 1, 1000):
        c.line(M - 6, ypos(g), M, ypos(g), (0, 0, 0))
        c.line(M, ypos(g), W - M, ypos(g), (230, 230, 230), dash=3, r=0)
    if copy:
        c.line(M, ypos(copy), W - M, ypos(copy), grey, dash=6)
    for key, pts in s.items():
        col = COLORS.get(key, (0, 0, 0))
        ns = sorted(pts)
        for a, b in zip(ns, ns[1:]):
            c.line(xpos(a), ypos(pts[a]), xpos(b), ypos(pts[b]), col, r=1)
        for n in ns:
            c.dot(xpos(n), ypos(pts[n]), col, r=4)
    c.png(out)
    lengths = sorted({n for pts in s.values() for n in pts})
    keys = sorted(s)
    print("| row length | " + " | ".join(f"{k[0]} {k[1]} GB/s" for k in keys) +
          (" | copy GB/s |" if copy else " |"))
    print("|---" * (len(keys) + 1 + (1 if copy else 0)) + "|")
    for n in lengths:
        cells = []
        for k in keys:
            v = s[k].get(n)
            cells.append(f"{v:.0f} ({100 * v / copy:.0f}%)" if v and copy else (f"{v:.0f}" if v else "—"))
        print(f"| {n} | " + " | ".join(cells) + (f" | {copy:.0f} |" if copy else " |"))


if __name__ == "__main__":
    main()
