/* unit_definition.c: the definition API (include/fuser/definition.h),
 * which the Python binding drives: recording calls with located errors,
 * both define_tensor forms, aliases, the hash (equal for the recorded and
 * the imported script), and a CPU run of the resulting libfuser fusion
 * (no driver). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libfuser/definition.h"
#include "unit.h"

#define N(a) (sizeof(a) / sizeof *(a))

static int64_t call1(fuser_definition *d, const char *method, const fuser_def_arg *a, size_t n, int line) {
  int64_t id = -1;
  size_t nres = 0;
  fuser_error err;
  int rc = fuser_definition_call(d, method, a, n, "x.py", line, 1, &id, 1, &nres, &err);
  if (rc != FUSER_OK) fprintf(stderr, "%s: %s\n", method, err.message);
  CHECK_EQ_INT(rc, FUSER_OK);
  return id;
}

/* x: [-1, -1] f32 (shape/contiguity form), y: [3, 1]-strided f32 (sizes/strides form); out = x * 2 + y */
static fuser_definition *record_example(int line0) {
  fuser_definition *d;
  fuser_error err;
  CHECK_EQ_INT(fuser_definition_create("example", &d, &err), FUSER_OK);
  fuser_def_arg shape[2] = {fuser_def_int(-1), fuser_def_int(-1)};
  fuser_def_arg contig[2] = {fuser_def_bool(1), fuser_def_bool(1)};
  fuser_def_arg a0[3] = {fuser_def_list(shape, 2), fuser_def_list(contig, 2), fuser_def_kw("dtype", fuser_def_dtype("Float"))};
  int64_t x = call1(d, "define_tensor", a0, 3, line0);
  fuser_def_arg sizes[2] = {fuser_def_int(2), fuser_def_int(3)};
  fuser_def_arg strides[2] = {fuser_def_int(3), fuser_def_int(1)};
  fuser_def_arg a1[3] = {fuser_def_kw("sizes", fuser_def_list(sizes, 2)), fuser_def_kw("strides", fuser_def_list(strides, 2)),
                         fuser_def_kw("dtype", fuser_def_dtype("Float"))};
  int64_t y = call1(d, "define_tensor", a1, 3, line0 + 1);
  fuser_def_arg a2[2] = {fuser_def_value(x), fuser_def_float(2.0)};
  int64_t t = call1(d, "ops.mul", a2, 2, line0 + 2);
  fuser_def_arg a3[2] = {fuser_def_value(t), fuser_def_value(y)};
  int64_t o = call1(d, "ops.add", a3, 2, line0 + 3);
  fuser_def_arg a4[1] = {fuser_def_value(o)};
  size_t n;
  CHECK_EQ_INT(fuser_definition_call(d, "add_output", a4, 1, "x.py", line0 + 4, 1, NULL, 0, &n, &err), FUSER_OK);
  CHECK_EQ_INT(n, 0);
  return d;
}

static const char script[] =
    "import torch\n"
    "from nvfuser import FusionDefinition, DataType\n"
    "def nvfuser_fusion_id1(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)\n"
    "    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, stride_order=[1, 0])\n"
    "    T2 = fd.ops.mul(T0, 2.0)\n"
    "    T3 = fd.ops.add(T2, T1)\n"
    "    fd.add_output(T3)\n";

static void test_record_and_hash(void) {
  fuser_definition *d = record_example(10);
  fuser_def_value_info info;
  CHECK_EQ_INT(fuser_definition_value(d, 0, &info), FUSER_OK);
  CHECK_EQ_INT(info.kind, 1);
  CHECK_EQ_INT(info.rank, 2);
  CHECK_EQ_INT(info.dtype, FUSER_TYPE_F32);
  CHECK(strcmp(info.name, "T0") == 0);
  CHECK_EQ_INT(fuser_definition_value(d, 99, &info), FUSER_ERR_INVALID_ARGUMENT);
  fuser_error err;
  CHECK_EQ_INT(fuser_definition_finish(d, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_definition_num_inputs(d), 2);
  CHECK_EQ_INT(fuser_definition_num_outputs(d), 1);
  CHECK_EQ_INT(fuser_definition_output_alias(d, 0), -1);
  char *ir = fuser_definition_ir(d, 0);
  CHECK(ir && strstr(ir, "fuser.mul") && strstr(ir, "fuser.add"));
  free(ir);
  char *located = fuser_definition_ir(d, 1);
  CHECK(located && strstr(located, "x.py\":12"));
  free(located);
  /* no calls after finish */
  fuser_def_arg a[1] = {fuser_def_value(0)};
  CHECK_EQ_INT(fuser_definition_call(d, "ops.neg", a, 1, "x.py", 1, 1, NULL, 0, NULL, &err), FUSER_ERR_INVALID_ARGUMENT);

  /* recorded elsewhere: the same hash; imported from its script: the same hash */
  fuser_definition *d2 = record_example(40);
  CHECK_EQ_INT(fuser_definition_finish(d2, &err), FUSER_OK);
  CHECK(fuser_definition_hash(d) == fuser_definition_hash(d2));
  fuser_definition *imp;
  CHECK_EQ_INT(fuser_definition_import(script, strlen(script), "s.py", &imp, &err), FUSER_OK);
  CHECK(imp && fuser_definition_hash(imp) == fuser_definition_hash(d));
  fuser_definition_destroy(imp);
  CHECK_EQ_INT(fuser_definition_import("x = 1\n", 6, "bad.py", &imp, &err), FUSER_ERR_COMPILE);
  CHECK(imp == NULL && strstr(err.message, "bad.py:1:1: error:"));

  /* a CPU run through libfuser without a runtime */
  fuser_fusion *f;
  CHECK_EQ_INT(fuser_fusion_create_definition(NULL, d, NULL, &f, &err), FUSER_OK);
  fuser_definition_destroy(d); /* the fusion has its own copy */
  float xs[6] = {1, 2, 3, 4, 5, 6}, ys[6] = {10, 20, 30, 40, 50, 60};
  int64_t sh[2] = {2, 3};
  DLTensor tx = {xs, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, sh, NULL, 0}, ty = tx;
  ty.data = ys;
  fuser_arg args[2] = {fuser_arg_tensor(&tx), fuser_arg_tensor(&ty)};
  fuser_output out[1];
  CHECK_EQ_INT(fuser_fusion_execute_cpu(f, FUSER_BACKEND_AUTO, args, 2, out, 1, &err), FUSER_OK);
  const float *r = out[0].tensor.data;
  int good = 1;
  for (int i = 0; i < 6; i++) good &= r[i] == xs[i] * 2 + ys[i];
  CHECK(good);
  fuser_output_release(NULL, &out[0]);
  fuser_fusion_destroy(f);
  fuser_definition_destroy(d2);
}

static void test_errors(void) {
  fuser_definition *d;
  fuser_error err;
  CHECK_EQ_INT(fuser_definition_create(NULL, &d, &err), FUSER_OK);
  fuser_def_arg shape[1] = {fuser_def_int(-1)};
  fuser_def_arg contig[1] = {fuser_def_bool(1)};
  fuser_def_arg a0[2] = {fuser_def_list(shape, 1), fuser_def_list(contig, 1)};
  int64_t x = call1(d, "define_tensor", a0, 2, 3);
  /* a value id it never made */
  fuser_def_arg bad[1] = {fuser_def_value(42)};
  int64_t id;
  size_t n;
  CHECK_EQ_INT(fuser_definition_call(d, "ops.neg", bad, 1, "x.py", 7, 1, &id, 1, &n, &err), FUSER_ERR_COMPILE);
  CHECK(strstr(err.message, "x.py:7:1: error:") && strstr(err.message, "value 42"));
  /* the definition stays failed */
  fuser_def_arg ok[1] = {fuser_def_value(x)};
  CHECK_EQ_INT(fuser_definition_call(d, "ops.neg", ok, 1, "x.py", 8, 1, &id, 1, &n, &err), FUSER_ERR_COMPILE);
  CHECK(strstr(err.message, "failed earlier"));
  CHECK_EQ_INT(fuser_definition_finish(d, &err), FUSER_ERR_COMPILE);
  fuser_definition_destroy(d);

  /* the importer's own rules and messages, located at the call */
  CHECK_EQ_INT(fuser_definition_create(NULL, &d, &err), FUSER_OK);
  x = call1(d, "define_tensor", a0, 2, 3);
  fuser_def_arg dims[1] = {fuser_def_int(3)};
  fuser_def_arg a1[2] = {fuser_def_value(x), fuser_def_kw("dims", fuser_def_list(dims, 1))};
  CHECK_EQ_INT(fuser_definition_call(d, "ops.sum", a1, 2, "m.py", 12, 1, &id, 1, &n, &err), FUSER_ERR_COMPILE);
  CHECK(strstr(err.message, "m.py:12:1: error: fd.ops.sum") && strstr(err.message, "out of range"));
  fuser_definition_destroy(d);

  /* alias_input: a define_tensor input; anything else is refused */
  CHECK_EQ_INT(fuser_definition_create(NULL, &d, &err), FUSER_OK);
  x = call1(d, "define_tensor", a0, 2, 3);
  int64_t y = call1(d, "define_tensor", a0, 2, 4);
  fuser_def_arg a2[2] = {fuser_def_value(x), fuser_def_value(y)};
  int64_t s = call1(d, "ops.add", a2, 2, 5);
  fuser_def_arg a3[2] = {fuser_def_value(s), fuser_def_kw("alias_input", fuser_def_value(x))};
  CHECK_EQ_INT(fuser_definition_call(d, "add_output", a3, 2, "x.py", 6, 1, NULL, 0, &n, &err), FUSER_OK);
  fuser_def_arg a4[1] = {fuser_def_value(s)};
  CHECK_EQ_INT(fuser_definition_call(d, "add_output", a4, 1, "x.py", 7, 1, NULL, 0, &n, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_definition_finish(d, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_definition_num_outputs(d), 2);
  CHECK_EQ_INT(fuser_definition_output_alias(d, 0), 0);
  CHECK_EQ_INT(fuser_definition_output_alias(d, 1), -1);
  fuser_definition_destroy(d);

  CHECK_EQ_INT(fuser_definition_create(NULL, &d, &err), FUSER_OK);
  x = call1(d, "define_tensor", a0, 2, 3);
  fuser_def_arg a5[1] = {fuser_def_value(x)};
  s = call1(d, "ops.neg", a5, 1, 4);
  fuser_def_arg a6[2] = {fuser_def_value(x), fuser_def_value(s)}; /* positional alias: not an input */
  CHECK_EQ_INT(fuser_definition_call(d, "add_output", a6, 2, "x.py", 5, 1, NULL, 0, &n, &err), FUSER_ERR_COMPILE);
  CHECK(strstr(err.message, "alias_input must be a tensor defined by fd.define_tensor"));
  fuser_definition_destroy(d);

  /* the op list: every op fd.ops spells, none of the plan-level ones */
  int has_add = 0, has_view = 0;
  for (size_t i = 0; fuser_definition_op_name(i); i++) {
    has_add |= strcmp(fuser_definition_op_name(i), "add") == 0;
    has_view |= strcmp(fuser_definition_op_name(i), "view") == 0;
  }
  CHECK(has_add && !has_view);
}

int main(void) {
  test_record_and_hash();
  test_errors();
  UNIT_MAIN_END();
}
