#!/usr/bin/env python3
"""fusion_body.py: a fusion's computation with its argument list factored out.

Reads fuser-opt's output (generic op syntax, one fusion `func.func` per
module, one op per line) and prints what must be identical between two
forms of the same computation that differ only in how their inputs are
passed (nvFuser #2613: seed id1 slices/permutes qkv inside the fusion, seed
id0 receives the same views as as_strided inputs):

- The argument list is factored out: the function's arguments, the
  `fuser.view` ops, and the i64 host scalars (`fuser.size`, `fuser.stride`,
  `fuser.scalar`, arithmetic) that only feed views.
- Every tensor the computation reads from memory, a block argument or a view
  result, is named by its layout: `%in<SIZES:STRIDES>#K`. A block argument's
  layout is its example input's (`fuser.inputs`: sizes and strides, i.e. the
  as_strided layout); a view's is its result shape and `static_strides`. K
  numbers the tensors of one layout in order of first use, so two distinct
  inputs of the same layout stay distinct. Offsets are not in the name: id0's
  inputs are separate buffers, id1's views offsets into one.
- Every other SSA value is renamed in order of definition (%0, %1, ...).
- Kept textually: every other op with its attributes (fuser.stride_order
  included), operand and result types, in order; the return; the function's
  result types and result attributes.

Usage: fusion_body.py FILE.mlir  (prints the normalized body to stdout; exit 1
with a message on input it cannot read).
"""
import re
import sys

VALUE = re.compile(r"%[A-Za-z0-9_.$-]+")


def fail(msg):
    sys.stderr.write("fusion_body.py: error: %s\n" % msg)
    sys.exit(1)


def i64_array(text, key):
    m = re.search(re.escape(key) + r" = array<i64(?:: ([-0-9, ]*))?>", text)
    if not m:
        return None
    return [int(x) for x in m.group(1).split(",")] if m.group(1) else []


def input_layouts(func_line):
    """The layout of each example input (`fuser.inputs`), in argument order."""
    m = re.search(r"fuser\.inputs = \[(.*)\]", func_line)
    if not m:
        fail("the fusion has no fuser.inputs (example input layouts)")
    layouts = []
    for entry in re.findall(r"\{([^{}]*)\}", m.group(1)):
        sizes, strides = i64_array(entry, "sizes"), i64_array(entry, "strides")
        layouts.append(None if sizes is None else (sizes, strides))
    return layouts


def layout_key(sizes, strides):
    return "%s:%s" % ("x".join(map(str, sizes)), ",".join(map(str, strides)))


def main():
    if len(sys.argv) != 2:
        fail("usage: fusion_body.py FILE.mlir")
    lines = [l.strip() for l in open(sys.argv[1]).read().splitlines()]
    funcs = [i for i, l in enumerate(lines) if l.startswith("func.func")]
    if len(funcs) != 1:
        fail("expected one func.func, found %d" % len(funcs))
    head = lines[funcs[0]]
    body = []
    for l in lines[funcs[0] + 1:]:
        if l == "}":
            break
        body.append(l)
    if not body or not body[-1].startswith("return"):
        fail("the fusion body does not end in a return")

    # The signature: argument names, then result types and attributes.
    m = re.match(r"func\.func @[^(]+\((.*?)\) -> (.*?) attributes \{", head)
    if not m:
        fail("cannot read the func.func signature")
    args = re.findall(r"(%arg\d+): ", m.group(1))
    results = m.group(2)
    layouts = input_layouts(head)
    if len(layouts) != len(args):
        fail("%d arguments but %d example inputs" % (len(args), len(layouts)))

    # Ops: (results, op text). Views and the scalars feeding only views are
    # the argument list.
    ops = []
    for l in body:
        lhs, sep, rhs = l.partition(" = ")
        if sep and lhs.startswith("%"):
            ops.append(([v.strip() for v in lhs.split(",")], rhs))
        else:
            ops.append(([], l))
    tensor_layout = {}  # value -> layout key of a memory read
    for a, lay in zip(args, layouts):
        if lay is not None:
            tensor_layout[a] = layout_key(*lay)
    dropped = set()
    for i, (res, text) in enumerate(ops):
        if text.startswith('"fuser.view"'):
            shape = re.search(r"-> tensor<([^<>]*)>$", text)
            strides = i64_array(text, "static_strides")
            dims = shape.group(1).split("x")[:-1] if shape else ["?"]  # the last part is the dtype
            if not all(d.isdigit() for d in dims) or strides is None or any(s < 0 for s in strides):
                fail("a view without static sizes and strides: " + text)
            sizes = [int(d) for d in dims]
            tensor_layout[res[0]] = layout_key(sizes, strides)
            dropped.add(i)
    # Host scalars whose every use is dropped: dropped too (to a fixpoint).
    changed = True
    while changed:
        changed = False
        for i, (res, text) in enumerate(ops):
            if i in dropped or not res or not text.endswith("-> i64"):
                continue
            users = [j for j, (_, t) in enumerate(ops) if any(v in VALUE.findall(t.split(" : ")[0]) for v in res)]
            if users and all(j in dropped for j in users):
                dropped.add(i)
                changed = True

    # Rename: memory reads by layout and first use, the rest by definition order.
    names, per_layout, next_value = {}, {}, 0
    out = []

    def rename(v):
        if v in names:
            return names[v]
        if v in tensor_layout:
            key = tensor_layout[v]
            k = per_layout.get(key, 0)
            per_layout[key] = k + 1
            names[v] = "%%in<%s>#%d" % (key, k)
            return names[v]
        fail("use of %s, which is neither an input, a view nor defined before" % v)

    for i, (res, text) in enumerate(ops):
        if i in dropped:
            continue
        text = VALUE.sub(lambda m: rename(m.group(0)), text)
        for r in res:
            names[r] = "%%%d" % next_value
            next_value += 1
        out.append((", ".join(names[r] for r in res) + " = " if res else "") + text)
    print("results: " + results)
    for l in out:
        print(l)


if __name__ == "__main__":
    main()
