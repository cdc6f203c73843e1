"""Checks that the dialect's tests cover it (used by coverage.test):
  - every op of dialects/ops.def has a round trip in test/dialect/ops_*.mlir;
  - every error message of the C verifier (dialects/infer.c, verify.c) is
    matched by an `expected-error` in test/dialect/invalid_*.mlir or by a
    check_message(...) in test/dialect/unit_verify.c.
Prints what is missing and exits 1, or prints a summary and exits 0."""
import glob
import os
import re
import sys

src = sys.argv[1]
test = os.path.join(src, "test", "dialect")
missing = []

ops = re.findall(r"^FUSER_OP\((\w+),", open(os.path.join(src, "dialects", "ops.def")).read(), re.M)
round_trips = "".join(open(f).read() for f in glob.glob(os.path.join(test, "ops_*.mlir")))
for op in ops:
    if f'"fuser.{op}"(' not in round_trips:
        missing.append(f"op '{op}' has no round-trip test in test/dialect/ops_*.mlir")

expected = []
for f in glob.glob(os.path.join(test, "invalid_*.mlir")):
    expected += re.findall(r"expected-error(?:@\S+)?\s*\{\{(.*?)\}\}", open(f).read())
expected += re.findall(r'check_message\(.*?,\s*"((?:[^"\\]|\\.)*)"\);', open(os.path.join(test, "unit_verify.c")).read())

messages = []
for name in ("infer.c", "verify.c"):
    text = open(os.path.join(src, "dialects", name)).read()
    for call in re.finditer(r'(?:fail\(&?s,|snprintf\(err, errlen,)\s*"((?:[^"\\]|\\.)*)"', text):
        messages.append((name, call.group(1)))
# Messages no input can produce, and why.
unreachable = {
    "%s": "the text comes from fuser_promote, whose messages are tested through it",
    "unknown op kind": "the switch over fuser_op_kind covers every kind",
}
checked = 0
for name, fmt in messages:
    if fmt in unreachable:
        continue
    parts = re.split(r"%(?:l{0,2}d|zu|s|ld)", fmt.replace('\\"', '"'))
    pattern = ".*?".join(re.escape(p) for p in parts)
    checked += 1
    if not any(re.search(pattern, e) for e in expected):
        missing.append(f"{name}: no negative test for \"{fmt}\"")

for m in missing:
    print(m)
print(f"{len(ops)} ops, {checked} verifier messages, {len(expected)} expectations; {len(missing)} missing")
sys.exit(1 if missing else 0)
