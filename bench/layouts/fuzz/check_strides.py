"""check_strides.py S.py REF.txt: the outputs' strides that fuser-run --cpu
printed (REF.txt) against the script's add_output(..., stride_order=[..]):
nvFuser allocates such an output dense in that order (stride_order[i] =
stride rank of dim i, 0 the fastest). Prints one line per violation and
exits 1 when there is one. Outputs without stride_order are not checked."""
import ast
import re
import sys

script, ref = sys.argv[1], sys.argv[2]
orders = []
for line in open(script):
    m = re.match(r'\s*fd\.add_output\((\w+)(?:, stride_order=(\[[^\]]*\]))?\)', line)
    if m:
        orders.append(ast.literal_eval(m.group(2)) if m.group(2) else None)
outs = []
for line in open(ref):
    m = re.match(r'output #(\d+): \S+ shape \[([^\]]*)\] strides \[([^\]]*)\]', line)
    if m:
        sh = [int(x) for x in m.group(2).split(',') if x.strip()]
        st = [int(x) for x in m.group(3).split(',') if x.strip()]
        outs.append((sh, st))
bad = 0
if len(outs) != len(orders):
    print(f'strides: {len(orders)} add_output lines but {len(outs)} outputs printed')
    sys.exit(1)
for i, (so, (sh, st)) in enumerate(zip(orders, outs)):
    if so is None:
        continue
    want = [0] * len(sh)
    acc = 1
    for d in sorted(range(len(sh)), key=lambda d: so[d]):
        want[d] = acc
        acc *= sh[d]
    # size-1 dims may have any stride
    if any(w != g and s != 1 for w, g, s in zip(want, st, sh)):
        print(f'strides: output {i} shape {sh} stride_order {so}: strides {st}, nvFuser allocates {want}')
        bad = 1
sys.exit(bad)
