"""Random layout fuzz cases for pointwise fusions: nvFuser FusionDefinition
scripts in the style of bench/layouts/more/gen.py, each valid for nvFuser.

  python3 gen_random.py SEED N OUTDIR [--large-every K]

writes OUTDIR/c<SEED+i>.py for i in 0..N-1 (case seed = SEED + i, so one
case regenerates alone: gen_random.py 1234 1 DIR). Every case is a tree of
values of one logical output shape built backwards from it: inputs (random
dtype, stride order, contiguity, odd storage offsets, padded row strides,
size-1 broadcast dims, static or symbolic extents), permutes of inputs and of
computed values, slices with odd starts, pads, cats, broadcast_in_dim,
reshapes, add/sub/mul/neg/abs/relu/cast, at most 3 inputs; outputs with or
without stride_order. Every K-th case (default 4) is large: 2^18 to 1.4 x
2^18 output points, and mostly transposes (the tile variant's range).
Standard library only; the first line of each script says its kind."""
import math
import os
import random
import sys

DT = {'bf16': ('BFloat16', 'torch.bfloat16', 2), 'f16': ('Half', 'torch.float16', 2),
      'f32': ('Float', 'torch.float32', 4)}
TILE_MIN = 1 << 18


def prod(xs):
    return math.prod(xs) if xs else 1


def promote(a, b):
    # nvFuser: arithmetic on bf16/f16 computes and returns Float; mixed -> Float
    return 'f32'


class Gen:
    def __init__(self, seed, large):
        self.r = random.Random(seed)
        self.seed = seed
        self.large = large
        self.inputs = []      # (define line, torch expr, shape, dtype, name)
        self.body = []
        self.n = 0
        self.ranks = {}       # value name -> rank, of values made by make()
        self.kinds = set()
        self.max_inputs = self.r.choice([1, 2, 2, 3, 3, 3, 3])
        self.dtype = self.r.choice(['bf16', 'f16', 'f32'])
        self.static = self.r.random() < 0.25   # whole case static extents
        self.ops_left = self.r.randint(1, 6) if not large else self.r.randint(1, 4)

    def name(self):
        self.n += 1
        return f'T{self.n}'

    def emit(self, line):
        self.body.append('    ' + line)

    # ---------------------------------------------------------------- inputs
    def leaf(self, shape, bcast_dims=(), expanded=False):
        """An input of logical `shape`; dims in bcast_dims are size-1 broadcasts
        (expanded: full-size stride-0 dims, contiguity None, nvFuser's expanded broadcast)."""
        r = self.r
        reuse = [x for x in self.inputs if x[2] == list(shape) and not bcast_dims]
        if reuse and (len(self.inputs) >= self.max_inputs or r.random() < 0.3):
            self.kinds.add('reuse')
            return reuse[0][4], reuse[0][3]
        if len(self.inputs) >= self.max_inputs:
            raise Budget()
        rank = len(shape)
        dt = self.dtype if r.random() < 0.75 else r.choice(list(DT))
        sizes = [1 if d in bcast_dims and not expanded else s for d, s in enumerate(shape)]
        # stride order: row-major, channels-last, or random
        u = r.random()
        if u < 0.45 or rank == 1:
            order = list(range(rank - 1, -1, -1))
        elif u < 0.6 and rank == 4:
            order = [3, 0, 2, 1]
            self.kinds.add('channels_last')
        else:
            order = list(range(rank))
            r.shuffle(order)
            order = [rank - 1 - o for o in order]
        if order != list(range(rank - 1, -1, -1)):
            self.kinds.add('in_stride_order')
        alloc = sorted(range(rank), key=lambda d: -order[d])  # outermost first
        strides = [0] * rank
        contig = {}
        st = 1
        inner_done = False
        padded = r.random() < 0.25
        inner_stride2 = r.random() < 0.04
        for k in range(rank - 1, -1, -1):
            d = alloc[k]
            if d in bcast_dims:
                strides[d] = 0 if expanded else r.choice([0, st, 1])
                contig[d] = None
                continue
            if not inner_done:
                s = 2 if inner_stride2 else 1
                strides[d] = s
                contig[d] = s == 1
                st = s * sizes[d]
                inner_done = True
                continue
            pad = r.choice([1, 3, 5]) if padded and r.random() < 0.6 else 0
            strides[d] = st + pad
            contig[d] = pad == 0
            st = strides[d] * sizes[d]
        if padded and any(c is False for c in contig.values()):
            self.kinds.add('padded_stride')
        if inner_stride2:
            self.kinds.add('inner_stride2')
        offset = r.choice([1, 3, 5, 7]) if r.random() < 0.2 else 0
        if offset:
            self.kinds.add('odd_offset')
        # contiguity listed in allocation order; sometimes weakened True -> False
        clist = []
        for d in alloc:
            c = contig[d]
            if c is True and r.random() < 0.05:
                c = False
                self.kinds.add('weak_contig')
            clist.append(c)
        static = self.static or r.random() < 0.1
        dshape = [1 if d in bcast_dims and not expanded else (s if static else -1) for d, s in enumerate(sizes)]
        if static:
            self.kinds.add('static')
        name = self.name()
        rm = list(range(rank - 1, -1, -1))
        so = '' if (order == rm and r.random() < 0.5) else f', stride_order={order}'
        line = (f'{name} = fd.define_tensor(shape={dshape}, contiguity={clist}, dtype=DataType.{DT[dt][0]}, '
                f'is_cpu=False{so})')
        plain = offset == 0 and all(v is True or v is None for v in contig.values()) and order == rm and \
            all(strides[d] != 0 for d in range(rank)) and not inner_stride2
        if plain and r.random() < 0.8:
            expr = f"torch.randn({tuple(sizes)}, dtype={DT[dt][1]}, device='cuda:0')"
        else:
            span = 1 + sum((s - 1) * t for s, t in zip(sizes, strides))
            extra = r.choice([0, 0, 1, 2])
            expr = (f"torch.randn(({offset + span + extra},), dtype={DT[dt][1]}, device='cuda:0')"
                    f".as_strided({tuple(sizes)}, {tuple(strides)}, {offset})")
        if bcast_dims:
            self.kinds.add('expanded_input' if expanded else 'bcast_input')
        self.inputs.append((line, expr, list(sizes), dt, name))
        return name, dt

    # ------------------------------------------------------------------ ops
    def make(self, shape, depth):
        """Returns (name, dtype) of a value of logical `shape`."""
        r = self.r
        rank = len(shape)
        if self.ops_left <= 0 or depth > 5:
            return self.leaf(shape)
        L = self.large
        choices = [('leaf', 2.5), ('permute', 4 if rank > 1 else 0), ('binary', 5), ('unary', 1.5),
                   ('slice', 1 if L else 2), ('pad', 0.3 if L else 1.2),
                   ('cat', 0.3 if L else 1.2), ('bcast', 1.5 if rank > 1 else 0),
                   ('reshape', 0.8 if L else 1.8), ('bcast_leaf', 1.2 if rank > 1 else 0),
                   ('layout', 0.5 if rank > 1 else 0)]
        tot = sum(w for _, w in choices)
        u = r.random() * tot
        for op, w in choices:
            u -= w
            if u < 0:
                break
        if op == 'leaf':
            return self.leaf(shape)
        self.ops_left -= 1
        res = getattr(self, 'op_' + op)(shape, depth)
        self.ranks[res[0]] = rank
        return res

    def op_permute(self, shape, depth):
        rank = len(shape)
        p = list(range(rank))
        while p == list(range(rank)):
            self.r.shuffle(p)
        sub = [0] * rank
        for i in range(rank):
            sub[p[i]] = shape[i]
        a, dt = self.make(sub, depth + 1)
        self.kinds.add('permute_input' if a in [x[4] for x in self.inputs] else 'permute_value')
        if p[-1] != rank - 1:
            self.kinds.add('true_transpose')
        n = self.name()
        self.emit(f'{n} = fd.ops.permute({a}, dims={p})')
        return n, dt

    def op_binary(self, shape, depth):
        a, da = self.make(shape, depth + 1)
        b, db = self.make(shape, depth + 1)
        op = self.r.choice(['add', 'add', 'mul', 'sub'])
        n = self.name()
        self.emit(f'{n} = fd.ops.{op}({a}, {b})')
        return n, 'f32'

    def op_bcast_leaf(self, shape, depth):
        """x + y where y has size-1 broadcast dims (define_tensor shape entry 1)."""
        rank = len(shape)
        k = self.r.randint(1, rank - 1)
        dims = tuple(sorted(self.r.sample(range(rank), k)))
        a, da = self.make(shape, depth + 1)
        b, db = self.leaf(shape, bcast_dims=dims, expanded=self.r.random() < 0.3)
        n = self.name()
        op = self.r.choice(['add', 'mul'])
        if self.r.random() < 0.5:
            a, b = b, a
        self.emit(f'{n} = fd.ops.{op}({a}, {b})')
        return n, 'f32'

    def op_unary(self, shape, depth):
        a, dt = self.make(shape, depth + 1)
        n = self.name()
        u = self.r.random()
        if u < 0.3:
            self.emit(f'{n} = fd.ops.neg({a})')
            return n, 'f32'
        if u < 0.45:
            self.emit(f'{n} = fd.ops.abs({a})')
            return n, 'f32'
        if u < 0.55:
            self.emit(f'{n} = fd.ops.relu({a})')
            return n, dt
        if u < 0.7:
            s = self.name().replace('T', 'S')
            self.emit(f'{s} = fd.define_scalar({self.r.choice([0.5, 2.0, -1.5, 3.0])}, dtype=DataType.Double)')
            self.emit(f'{n} = fd.ops.mul({a}, {s})')
            return n, 'f32'
        to = self.r.choice(list(DT))
        self.emit(f'{n} = fd.ops.cast({a}, dtype=DataType.{DT[to][0]})')
        return n, to

    def op_layout(self, shape, depth):
        """fd.ops.stride_order (a layout-only copy) or segment_set of a value."""
        a, dt = self.make(shape, depth + 1)
        n = self.name()
        if self.r.random() < 0.6:
            so = list(range(len(shape)))
            self.r.shuffle(so)
            self.kinds.add('stride_order_op')
            self.emit(f'{n} = fd.ops.stride_order({a}, stride_order={so})')
        else:
            self.kinds.add('segment_set')
            self.emit(f'{n} = fd.ops.segment_set({a})')
        return n, dt

    def op_slice(self, shape, depth):
        rank = len(shape)
        sub = list(shape)
        starts = [0] * rank
        dims = self.r.sample(range(rank), self.r.randint(1, rank))
        if rank - 1 not in dims and self.r.random() < 0.6:
            dims.append(rank - 1)
        for d in dims:
            extra = self.r.randint(1, 9)
            sub[d] = shape[d] + extra
            starts[d] = self.r.choice([1, 3, 5, 7, extra, 0, 2]) % (extra + 1)
        a, dt = self.make(sub, depth + 1)
        ends = [s + e for s, e in zip(starts, shape)]
        n = self.name()
        self.kinds.add('slice')
        if starts[-1] % 2:
            self.kinds.add('slice_odd_inner')
        st = '' if self.r.random() < 0.3 else f', strides={[1] * rank}'
        self.emit(f'{n} = fd.ops.slice({a}, start_indices={starts}, end_indices={ends}{st})')
        return n, dt

    def op_pad(self, shape, depth):
        rank = len(shape)
        k = self.r.randint(1, rank)  # pad the last k dims
        widths = []
        sub = list(shape)
        for j in range(k):
            d = rank - 1 - j
            lo = self.r.randint(0, max(0, min(3, shape[d] - 2)))
            hi = self.r.randint(0, max(0, min(3, shape[d] - 2 - lo)))
            sub[d] = shape[d] - lo - hi
            widths += [lo, hi]
        a, dt = self.make(sub, depth + 1)
        n = self.name()
        self.kinds.add('pad')
        if self.r.random() < 0.3:
            s = self.name().replace('T', 'S')
            self.emit(f'{s} = fd.define_scalar({self.r.choice([1.0, -2.0, 0.5])}, dtype=DataType.Double)')
            self.emit(f'{n} = fd.ops.pad({a}, {widths}, {s})')
        else:
            self.emit(f'{n} = fd.ops.pad({a}, {widths})')
        return n, dt

    def op_cat(self, shape, depth):
        rank = len(shape)
        cands = [d for d in range(rank) if shape[d] >= 4]
        if not cands:
            return self.leaf(shape)
        d = self.r.choice(cands)
        x = self.r.randint(2, shape[d] - 2)
        s1 = list(shape); s1[d] = x
        s2 = list(shape); s2[d] = shape[d] - x
        a, da = self.make(s1, depth + 1)
        b, db = self.make(s2, depth + 1)
        if da != db:
            c = self.name()
            self.emit(f'{c} = fd.ops.cast({b}, dtype=DataType.{DT[da][0]})')
            b = c
        n = self.name()
        self.kinds.add('cat')
        dim = d if self.r.random() < 0.7 else d - rank
        self.emit(f'{n} = fd.ops.cat([{a}, {b}], dim={dim})')
        return n, da

    def op_bcast(self, shape, depth):
        rank = len(shape)
        k = self.r.randint(1, rank - 1)
        kept = sorted(self.r.sample(range(rank), k))
        sub = [shape[d] for d in kept]
        a, dt = self.make(sub, depth + 1)
        n = self.name()
        self.kinds.add('broadcast')
        self.emit(f'{n} = fd.ops.broadcast_in_dim({a}, shape={list(shape)}, broadcast_dims={kept})')
        return n, dt

    def op_reshape(self, shape, depth):
        rank = len(shape)
        r = self.r
        # merge: shape[d] = x * y comes from (x, y); split: (shape[d], shape[d+1]) from their product
        splits = [d for d in range(rank) if shape[d] >= 4 and any(shape[d] % f == 0 for f in range(2, shape[d]))]
        if rank < 4 and splits and (rank == 1 or r.random() < 0.5):
            d = r.choice(splits)
            fs = [f for f in range(2, shape[d]) if shape[d] % f == 0]
            f = r.choice(fs)
            sub = shape[:d] + [shape[d] // f, f] + shape[d + 1:]
        elif rank >= 2:
            d = r.randrange(rank - 1)
            sub = shape[:d] + [shape[d] * shape[d + 1]] + shape[d + 2:]
        else:
            return self.leaf(shape)
        a, dt = self.make(sub, depth + 1)
        n = self.name()
        self.kinds.add('reshape')
        self.emit(f'{n} = fd.ops.reshape({a}, new_shape={list(shape)})')
        return n, dt


class Budget(Exception):
    pass


def factor_shape(r, rank, points):
    """A shape of `rank` dims with about `points` points: ragged, skinny or even."""
    style = r.choice(['ragged', 'ragged', 'even', 'even', 'mult8', 'mult8', 'skinny', 'square'])
    while True:
        if style == 'square' and rank >= 2:
            # two equal dims: x + permute(x) reads one input both ways
            dims = split_points(r, rank - 1, points, style=r.choice(['ragged', 'mult8', 'even']))
            side = max(2, int(math.sqrt(dims[0] * dims[-1])))
            dims = dims[1:-1] + [side, side] if rank > 2 else [side, side]
            dims = dims[:rank]
            while len(dims) < rank:
                dims.insert(0, 2)
            r.shuffle(dims)
            if all(d >= 2 for d in dims) and prod(dims) <= 2 * points:
                return dims, style
            style = 'ragged'
            continue
        if style == 'skinny' and rank >= 2:
            small = r.randint(3, 15)
            rest = max(2, points // small)
            dims = [small] + split_points(r, rank - 1, rest, style=r.choice(['ragged', 'mult8', 'even']))
            r.shuffle(dims)
        else:
            dims = split_points(r, rank, points, style=style)
        if all(d >= 2 for d in dims):
            return dims, style


def split_points(r, rank, points, style):
    ragged = style == 'ragged'
    dims = []
    left = points
    for k in range(rank, 1, -1):
        ideal = left ** (1.0 / k)
        d = max(2, int(ideal * r.uniform(0.4, 2.2)))
        if ragged:
            d = d | 1 if r.random() < 0.6 else d + r.choice([-1, 1, 0])
        elif style == 'mult8':
            d = max(8, d // 8 * 8)
        else:
            d = 1 << max(1, round(math.log2(max(2, d))))
        d = max(2, d)
        dims.append(d)
        left = max(2, left // d)
    last = left if ragged else max(8, left // 8 * 8) if style == 'mult8' else (1 << max(1, round(math.log2(max(2, left)))))
    if ragged and r.random() < 0.5:
        last |= 1
    dims.append(max(2, last))
    r.shuffle(dims)
    return dims


def gen_case(seed):
    large = seed % LARGE_EVERY == 0
    for attempt in range(200):
        r = random.Random(seed * 1000 + attempt)
        g = Gen(seed * 1000 + attempt, large)
        rank = r.choice([2, 2, 3, 3, 4]) if not large else r.choice([2, 2, 3, 4])
        if large:
            pts = int(TILE_MIN * r.uniform(1.0, 1.4))
        else:
            pts = int(math.exp(r.uniform(math.log(200), math.log(60000))))
        shape, style = factor_shape(r, rank, pts)
        if large and prod(shape) < TILE_MIN:
            continue
        if large:
            # transposes first: an input read across its rows beside the output's order
            g.ops_left = r.randint(1, 3)
        try:
            outs = []
            v, dt = g.make(shape, 0)
            if not g.inputs:
                continue
            if not any(f'fd.ops.{o}(' in l for l in g.body for o in ('add', 'sub', 'mul', 'neg', 'abs', 'relu', 'cast')):
                # only views of inputs: give it a computation
                n = g.name()
                g.emit(f'{n} = fd.ops.neg({v})')
                v, dt = n, 'f32'
            if r.random() < 0.6 and dt == 'f32' and g.dtype != 'f32':
                n = g.name()
                g.emit(f'{n} = fd.ops.cast({v}, dtype=DataType.{DT[g.dtype][0]})')
                v, dt = n, g.dtype
            out_shape = shape
            if rank > 1 and r.random() < 0.2:  # a final permute of the computed value
                p = list(range(rank))
                while p == list(range(rank)):
                    r.shuffle(p)
                n = g.name()
                g.emit(f'{n} = fd.ops.permute({v}, dims={p})')
                g.kinds.add('permute_value')
                v = n
            so = None
            if rank > 1 and r.random() < 0.35:
                so = list(range(rank))
                r.shuffle(so)
                g.kinds.add('out_stride_order')
            outs.append((v, so))
            if r.random() < 0.15 and len(g.body) >= 2:
                # a second output: an earlier computed value (not an input)
                line = r.choice(g.body[:-1]).strip()
                name = line.split(' = ')[0]
                if name in g.ranks:
                    so2 = None
                    if r.random() < 0.5 and g.ranks[name] > 1:
                        so2 = list(range(g.ranks[name]))
                        r.shuffle(so2)
                    outs.append((name, so2))
                    g.kinds.add('two_outputs')
        except Budget:
            continue
        if large and not ({'true_transpose', 'out_stride_order', 'in_stride_order'} & g.kinds) and attempt < 150:
            continue
        if any(len(x[2]) == 0 for x in g.inputs):
            continue
        return render(seed, g, outs, shape, style, large)
    raise SystemExit(f'seed {seed}: no case')


def render(seed, g, outs, shape, style, large):
    fn = f'fusion_c{seed}'
    kinds = sorted(g.kinds) + [style, 'large' if large else 'small', f'{len(g.inputs)}in']
    lines = ['import torch', 'from nvfuser import FusionDefinition, DataType', '',
             f'# fuzz case {seed}: shape {shape}, points {prod(shape)}; kinds: {" ".join(kinds)}',
             f'def {fn}(fd : FusionDefinition) -> None :']
    lines += ['    ' + x[0] for x in g.inputs]
    lines += g.body
    for v, so in outs:
        lines.append(f'    fd.add_output({v})' if so is None else f'    fd.add_output({v}, stride_order={so})')
    lines += ['', 'with FusionDefinition() as fd:', f'    {fn}(fd)', '', 'inputs = [']
    lines += [f'    {x[1]},' for x in g.inputs]
    lines += [']', 'fd.execute(inputs)', '']
    return '\n'.join(lines)


LARGE_EVERY = 4

if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    for a in sys.argv[1:]:
        if a.startswith('--large-every='):
            LARGE_EVERY = int(a.split('=')[1])
    seed0, n, out = int(args[0]), int(args[1]), args[2]
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        s = seed0 + i
        with open(os.path.join(out, f'c{s}.py'), 'w') as f:
            f.write(gen_case(s))
