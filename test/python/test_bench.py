"""fuser.bench runs (on the CPU, a few calls) and says where fd.execute's
time goes: every step of the split is in its JSON line, and the C API
yardstick and the lookup loop ran on the fusion fd.execute uses. No time is
checked (benchmarks print numbers, tests do not assert them)."""
import contextlib
import io
import json

import common

common.need_torch()
from fuser import bench  # noqa: E402

check = common.check
out = io.StringIO()
with contextlib.redirect_stdout(out):
    bench.main(["--device", "cpu", "--iters", "20", "--repeats", "2"])
text = out.getvalue()
line = json.loads(text.strip().splitlines()[-1])
row = line["by_allocator"]["host"]
steps = ["arguments", "dlpack_inputs", "stream_query", "checks", "libfuser_execute", "output_alloc", "outputs",
         "output_release", "output_free"]
check(list(row["phases_ns"]) == steps, f"the split names every step in call order: {list(row['phases_ns'])}")
check(row["phases_ns"]["libfuser_execute"] > 0 and row["phases_ns"]["dlpack_inputs"] > 0, "the steps were timed")
check(row["c_api_ns"] > 0 and row["lookup_ns"] > 0, "the C API and the lookup loops ran")
check("signature + cache lookup" in text and "outside:" in text, "the table prints the lookup and what is outside")
common.finish()
