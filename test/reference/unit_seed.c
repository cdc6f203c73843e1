/* The two fusions of nvFuser issue #2613 compute the same RoPE: id1 takes
 * the fused qkv tensor and reshapes, permutes and slices it inside the
 * fusion; id0 takes those slices as strided inputs. Given the same
 * underlying data they must give bit-identical outputs.
 *
 *   unit_reference_seed <id0 fusion> <id1 fusion>   (.mlir, or .py through the importer)
 *
 * id1's inputs come from its fuser.inputs block (seeded); id0's are views
 * of id1's qkv storage (2, 1024, 576), strides (589824, 576, 1). Following
 * id1's chain: reshape to (2, 1024, 1, 18, 32) gives strides
 * (589824, 576, 576, 32, 1); permute [0, 2, 3, 1, 4] gives (2, 1, 18, 1024, 32)
 * with strides (589824, 576, 32, 576, 1); slicing heads 0:16 and dropping the
 * size-1 dim gives T17 = (2, 16, 1024, 32), strides (589824, 32, 576, 1),
 * offset 0. Then T18 = T17[..., 0:16] (offset 0), T19 = T17[..., 16:32]
 * (offset 16), T20 = T17[..., 0:0]. id0's arguments are (cos, sin, T18, T19,
 * T20, T17): T2 is `x1`, T3 the half that is negated, T5 the whole head. */
#include <stdlib.h>

#include "harness.h"
#include "frontend/nvfuser_import.h"

static MlirModule load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return (MlirModule){NULL};
  }
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  size_t len = strlen(path);
  if (len > 3 && strcmp(path + len - 3, ".py") == 0) {
    return fuser_import_nvfuser(test_ctx, text, n, path);
  }
  return mlirModuleCreateParse(test_ctx, mlirStringRefCreate(text, n));
}

static MlirOperation fusion_of(MlirModule m) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString("fuser.fusion"))))
      return op;
  return (MlirOperation){NULL};
}

static bool same_layout(const DLTensor *a, const DLTensor *b) {
  if (a->ndim != b->ndim || a->byte_offset != b->byte_offset) return false;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d])) return false;
  return true;
}

static void compare_outputs(const fuser_ref_outputs *a, const fuser_ref_outputs *b) {
  CHECK_EQ_INT(a->count, 1);
  CHECK_EQ_INT(b->count, 1);
  if (a->count != 1 || b->count != 1) return;
  const DLTensor *x = a->values[0].tensor, *y = b->values[0].tensor;
  CHECK_EQ_INT(x->ndim, 4);
  CHECK_EQ_INT(y->ndim, 4);
  for (int d = 0; d < 4 && d < x->ndim && d < y->ndim; d++) CHECK_EQ_INT(x->shape[d], y->shape[d]);
  int64_t n = fuser_ref_tensor_numel(x);
  CHECK_EQ_INT(n, 2 * 16 * 1024 * 32);
  CHECK(n == fuser_ref_tensor_numel(y) &&
        memcmp(x->data, y->data, (size_t)n * (x->dtype.bits / 8)) == 0);
  CHECK_EQ_INT(fuser_ref_checksum_fnv1a(x), fuser_ref_checksum_fnv1a(y));
  CHECK(fuser_ref_checksum_sum(x) != 0); /* not trivially equal */
  printf("outputs: %lld elements, fnv1a %016llx, sum %.17g\n", (long long)n,
         (unsigned long long)fuser_ref_checksum_fnv1a(x), fuser_ref_checksum_sum(x));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <seed_fusion_id0> <seed_fusion_id1>\n", argv[0]);
    return 2;
  }
  test_ctx = fuser_context_create();
  MlirModule m0 = load(argv[1]), m1 = load(argv[2]);
  CHECK(!mlirModuleIsNull(m0) && !mlirModuleIsNull(m1));
  if (mlirModuleIsNull(m0) || mlirModuleIsNull(m1)) UNIT_MAIN_END();
  MlirOperation f0 = fusion_of(m0), f1 = fusion_of(m1);
  fuser_ref_inputs in1, in0;
  fuser_ref_error err;
  CHECK_EQ_INT(fuser_ref_make_inputs(f1, 2613, &in1, &err), FUSER_REF_OK);
  CHECK_EQ_INT(fuser_ref_make_inputs(f0, 2613, &in0, &err), FUSER_REF_OK); /* for its layouts */
  CHECK_EQ_INT(in1.count, 3);
  CHECK_EQ_INT(in0.count, 6);
  if (in1.count != 3 || in0.count != 6) UNIT_MAIN_END();
  void *qkv = in1.storages[2];
  int64_t head[4] = {2, 16, 1024, 32}, half[4] = {2, 16, 1024, 16}, none[4] = {2, 16, 1024, 0};
  int64_t strides[4] = {589824, 32, 576, 1};
  DLTensor *t18 = fuser_ref_tensor_view(qkv, FUSER_DTYPE_BF16, 4, half, strides, 0);
  DLTensor *t19 = fuser_ref_tensor_view(qkv, FUSER_DTYPE_BF16, 4, half, strides, 16);
  DLTensor *t20 = fuser_ref_tensor_view(qkv, FUSER_DTYPE_BF16, 4, none, strides, 0);
  DLTensor *t17 = fuser_ref_tensor_view(qkv, FUSER_DTYPE_BF16, 4, head, strides, 0);
  /* id0's own inputs block describes exactly these layouts (offset 0 in
   * their own storages; the x2 half sits 16 elements further in qkv) */
  CHECK(same_layout(in0.values[2].tensor, t18));
  CHECK(same_layout(in0.values[4].tensor, t20));
  CHECK(same_layout(in0.values[5].tensor, t17));
  fuser_ref_value args0[6] = {in1.values[0], in1.values[1], tensor_arg(t18), tensor_arg(t19), tensor_arg(t20),
                              tensor_arg(t17)};
  for (int f64 = 0; f64 <= 1; f64++) {
    fuser_ref_options opt = {.f64 = f64};
    fuser_ref_outputs out0, out1;
    CHECK_EQ_INT(fuser_ref_run(f0, args0, 6, &opt, &out0, &err), FUSER_REF_OK);
    CHECK_EQ_INT(fuser_ref_run(f1, in1.values, 3, &opt, &out1, &err), FUSER_REF_OK);
    printf("%s: ", f64 ? "float64 mode" : "nvFuser precision");
    compare_outputs(&out0, &out1);
    fuser_ref_outputs_free(&out0);
    fuser_ref_outputs_free(&out1);
  }
  DLTensor *views[] = {t17, t18, t19, t20};
  for (int i = 0; i < 4; i++) fuser_ref_tensor_free(views[i]);
  fuser_ref_inputs_free(&in0);
  fuser_ref_inputs_free(&in1);
  mlirModuleDestroy(m0);
  mlirModuleDestroy(m1);
  mlirContextDestroy(test_ctx);
  UNIT_MAIN_END();
}
