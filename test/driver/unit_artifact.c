/* unit_artifact.c: artifacts built through the builder API: write/read round
 * trip (bytes and dump identical), the dump's content, builder errors, and a
 * hostile-file sweep: every truncation, every flipped byte (caught by the
 * checksum), and flipped bytes with the checksum repaired (caught by the
 * structural reader or the plan validator) must give an error code and a
 * message, never a crash (run it under ASan/UBSan: FUSER_SANITIZE=ON). */
#include "example_artifact.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *describe(const fuser_artifact *a) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  fuser_artifact_describe(a, f);
  fclose(f);
  return text;
}

static void test_round_trip(void) {
  fuser_error err;
  fuser_artifact *a = example_add_artifact(1, &err);
  CHECK(a != NULL);
  if (!a) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  void *bytes;
  size_t size;
  CHECK_EQ_INT(fuser_artifact_write_bytes(a, &bytes, &size, &err), FUSER_OK);
  CHECK(size > 32 && memcmp(bytes, "FUSERART", 8) == 0);
  size_t msize;
  const char *fusion = fuser_artifact_metadata(a, "fusion", &msize);
  CHECK(fusion && msize == 8 && strcmp(fusion, "add_test") == 0);
  CHECK(fuser_artifact_metadata(a, "missing", &msize) == NULL && msize == 0);
  fuser_artifact *b = NULL;
  CHECK_EQ_INT(fuser_artifact_read_bytes(bytes, size, &b, &err), FUSER_OK);
  void *bytes2;
  size_t size2;
  CHECK_EQ_INT(fuser_artifact_write_bytes(b, &bytes2, &size2, &err), FUSER_OK);
  CHECK_EQ_INT(size2, size);
  CHECK(memcmp(bytes, bytes2, size) == 0);
  const uint8_t *blob = fuser_artifact_metadata(b, "blob", &msize);
  CHECK(blob && msize == 4 && blob[0] == 0 && blob[3] == 0xff && blob[4] == 0);
  char *da = describe(a), *db = describe(b);
  CHECK(strcmp(da, db) == 0);
  CHECK(unit_contains(da, "fuser artifact: 1 modules, 3 inputs, 2 outputs, 0 temps, 1 kernels, 2 metadata"));
  CHECK(unit_contains(da, "input 0 T0: tensor f32 rank 2 sizes [-1, -1] contiguity [True, True] stride_order [1, 0]"));
  CHECK(unit_contains(da, "input 2 S2: scalar i64"));
  CHECK(unit_contains(da, "output 1: f32 rank 1 alias of input 0 offset scalar(2)"));
  CHECK(unit_contains(da, "param 3: i64 size(0, 0) * size(0, 1)"));
  CHECK(unit_contains(da, "variant 0: module 0 entry add_vec4 grid (ceildiv((size(0, 0) * size(0, 1)) / 4, 256), 1, 1) block (256, 1, 1)"));
  CHECK(unit_contains(da, "    when (addr(1) % 16) == 0\n"));
  CHECK(unit_contains(da, "variant 1: module 0 entry add_scalar"));
  CHECK(unit_contains(da, "    when always\n"));
  CHECK(unit_contains(da, "metadata fusion: \"add_test\"\nmetadata blob: 4 bytes\n"));
  free(da);
  free(db);

  /* the file path */
  const char *path = "unit_artifact_roundtrip.fart";
  CHECK_EQ_INT(fuser_artifact_write_file(a, path, &err), FUSER_OK);
  fuser_artifact *c = NULL;
  CHECK_EQ_INT(fuser_artifact_read_file(path, &c, &err), FUSER_OK);
  CHECK_EQ_INT(fuser_artifact_num_inputs(c), 3);
  CHECK_EQ_INT(fuser_artifact_num_outputs(c), 2);
  CHECK_EQ_INT(fuser_artifact_num_kernels(c), 1);
  remove(path);
  fuser_artifact *missing = (fuser_artifact *)1;
  CHECK_EQ_INT(fuser_artifact_read_file("/nonexistent/x.fart", &missing, &err), FUSER_ERR_IO);
  CHECK(missing == NULL);
  CHECK(unit_contains(err.message, "/nonexistent/x.fart: cannot open"));

  /* reference counting: the retained artifact survives one release */
  fuser_artifact_retain(b);
  fuser_artifact_release(b);
  CHECK_EQ_INT(fuser_artifact_num_kernels(b), 1);
  fuser_artifact_release(b);
  fuser_artifact_release(c);
  fuser_artifact_release(a);
  free(bytes);
  free(bytes2);
}

static uint64_t fnv1a64(const uint8_t *p, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}

static void fix_checksum(uint8_t *p, size_t size) {
  uint64_t h = fnv1a64(p + 32, size - 32);
  for (int i = 0; i < 8; i++) p[24 + i] = (uint8_t)(h >> (8 * i));
}

static void test_corrupt(void) {
  fuser_error err;
  fuser_artifact *a = example_add_artifact(1, &err);
  void *bytes;
  size_t size;
  fuser_artifact_write_bytes(a, &bytes, &size, &err);
  fuser_artifact_release(a);
  uint8_t *copy = malloc(size);
  fuser_artifact *b;

  /* every truncation */
  int all_errors = 1;
  for (size_t len = 0; len < size; len++) {
    int rc = fuser_artifact_read_bytes(bytes, len, &b, &err);
    if (rc == FUSER_OK || b != NULL || err.message[0] == 0) all_errors = 0;
  }
  CHECK(all_errors);
  fuser_artifact_read_bytes(bytes, 10, &b, &err);
  CHECK_EQ_INT(err.code, FUSER_ERR_ARTIFACT_FORMAT);
  CHECK(unit_contains(err.message, "shorter than the 32-byte header"));
  fuser_artifact_read_bytes(bytes, size - 1, &b, &err);
  CHECK(unit_contains(err.message, "truncated or padded"));

  /* every flipped byte: header fields or the checksum catch each */
  all_errors = 1;
  int checksum_msgs = 0;
  for (size_t i = 0; i < size; i++) {
    memcpy(copy, bytes, size);
    copy[i] ^= 0x5a;
    int rc = fuser_artifact_read_bytes(copy, size, &b, &err);
    if (rc == FUSER_OK) all_errors = 0;
    if (strstr(err.message, "checksum mismatch")) checksum_msgs++;
  }
  CHECK(all_errors);
  CHECK_EQ_INT(checksum_msgs, (long long)size - 24);

  /* flipped bytes behind a repaired checksum: the structural reader and the
   * validator must answer (an error, or a valid artifact when the flip hit
   * e.g. PTX text); never a crash. Several patterns per byte. */
  int errors = 0, accepted = 0, bad_codes = 0;
  int64_t shape[2] = {8, 16};
  DLTensor t0 = example_tensor((void *)(uintptr_t)0x1000, 2, shape, NULL);
  DLTensor t1 = example_tensor((void *)(uintptr_t)0x2000, 2, shape, NULL);
  fuser_arg args[3] = {fuser_arg_tensor(&t0), fuser_arg_tensor(&t1), fuser_arg_int(3)};
  static const uint8_t patterns[] = {0x01, 0x80, 0xff, 0x5a};
  for (size_t i = 32; i < size; i++) {
    for (size_t k = 0; k < sizeof patterns; k++) {
      memcpy(copy, bytes, size);
      copy[i] ^= patterns[k];
      fix_checksum(copy, size);
      int rc = fuser_artifact_read_bytes(copy, size, &b, &err);
      if (rc == FUSER_OK) {
        accepted++;
        /* an accepted plan must also describe and check inputs safely */
        free(describe(b));
        fuser_artifact_check_inputs(b, args, 3, NULL, &err);
        fuser_artifact_release(b);
      } else {
        errors++;
        if (rc != FUSER_ERR_ARTIFACT_FORMAT && rc != FUSER_ERR_ARTIFACT_INVALID) bad_codes++;
        if (!err.message[0]) bad_codes++;
      }
    }
  }
  CHECK(errors > (int)size); /* most flips break something */
  CHECK_EQ_INT(bad_codes, 0);
  printf("repaired-checksum flips: %d rejected, %d accepted\n", errors, accepted);

  /* a NULL fuser_error is allowed everywhere: codes still come back */
  CHECK_EQ_INT(fuser_artifact_read_bytes(bytes, size / 2, &b, NULL), FUSER_ERR_ARTIFACT_FORMAT);
  memcpy(copy, bytes, size);
  copy[size - 1] ^= 0x10;
  fix_checksum(copy, size);
  int null_rc = fuser_artifact_read_bytes(copy, size, &b, NULL);
  CHECK(null_rc == FUSER_OK || null_rc == FUSER_ERR_ARTIFACT_FORMAT || null_rc == FUSER_ERR_ARTIFACT_INVALID);
  if (null_rc == FUSER_OK) fuser_artifact_release(b);

  /* specific header errors */
  memcpy(copy, bytes, size);
  copy[0] = 'X';
  CHECK_EQ_INT(fuser_artifact_read_bytes(copy, size, &b, &err), FUSER_ERR_ARTIFACT_FORMAT);
  CHECK(unit_contains(err.message, "bad magic"));
  memcpy(copy, bytes, size);
  copy[8] = 4;
  CHECK_EQ_INT(fuser_artifact_read_bytes(copy, size, &b, &err), FUSER_ERR_ARTIFACT_VERSION);
  CHECK(unit_contains(err.message, "format version 4; this runtime reads versions 1 to 3"));
  memcpy(copy, bytes, size);
  copy[8] = 0;
  CHECK_EQ_INT(fuser_artifact_read_bytes(copy, size, &b, &err), FUSER_ERR_ARTIFACT_VERSION);
  /* a huge count behind a valid checksum is refused before allocating */
  memcpy(copy, bytes, size);
  copy[32] = 0xff, copy[33] = 0xff, copy[34] = 0xff, copy[35] = 0x7f;
  fix_checksum(copy, size);
  CHECK_EQ_INT(fuser_artifact_read_bytes(copy, size, &b, &err), FUSER_ERR_ARTIFACT_FORMAT);
  CHECK(unit_contains(err.message, "module count"));
  /* trailing garbage covered by the checksum */
  uint8_t *longer = malloc(size + 3);
  memcpy(longer, bytes, size);
  memset(longer + size, 7, 3);
  uint64_t payload = size + 3 - 32;
  for (int i = 0; i < 8; i++) longer[16 + i] = (uint8_t)(payload >> (8 * i));
  fix_checksum(longer, size + 3);
  CHECK_EQ_INT(fuser_artifact_read_bytes(longer, size + 3, &b, &err), FUSER_ERR_ARTIFACT_FORMAT);
  CHECK(unit_contains(err.message, "3 unexpected bytes after the plan"));
  free(longer);
  free(copy);
  free(bytes);
}

/* Builds with one bad call; finish must report `want`. */
static void builder_error(const char *want, void (*mutate)(fuser_builder *)) {
  fuser_builder *b = fuser_builder_create();
  int64_t sizes[2] = {-1, 4}, contig[2] = {1, 1};
  fuser_builder_add_module(b, FUSER_MODULE_PTX, example_ptx, strlen(example_ptx));
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_BF16, 2, sizes, contig, NULL);
  fuser_builder_add_scalar_input(b, "S1", FUSER_TYPE_F64);
  mutate(b);
  fuser_artifact *a = (fuser_artifact *)1;
  fuser_error err;
  int rc = fuser_builder_finish(b, &a, &err);
  CHECK(rc != FUSER_OK);
  CHECK(a == NULL);
  CHECK(unit_contains(err.message, want));
}

static void bad_expression(fuser_builder *b) {
  const char *sz[1] = {"size(0, 0) +"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, sz, NULL);
}
static void bad_dim(fuser_builder *b) {
  const char *sz[1] = {"size(0, 2)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, sz, NULL);
}
static void bad_input_ref(fuser_builder *b) {
  const char *sz[1] = {"size(5, 0)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, sz, NULL);
}
static void scalar_of_float(fuser_builder *b) {
  const char *sz[1] = {"scalar(1)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, sz, NULL);
}
static void size_of_scalar(fuser_builder *b) {
  const char *sz[1] = {"size(1, 0)"};
  fuser_builder_add_output(b, FUSER_TYPE_F32, 1, sz, NULL);
}
static void bad_stride_order(fuser_builder *b) {
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1}, order[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "T2", FUSER_TYPE_F32, 2, sizes, contig, order);
}
static void bad_contiguity(fuser_builder *b) {
  int64_t sizes[1] = {-1}, contig[1] = {2};
  fuser_builder_add_tensor_input(b, "T2", FUSER_TYPE_F32, 1, sizes, contig, NULL);
}
static void bad_rank(fuser_builder *b) {
  int64_t sizes[20] = {0}, contig[20] = {0};
  fuser_builder_add_tensor_input(b, "T2", FUSER_TYPE_F32, 20, sizes, contig, NULL);
}
static void bad_module_index(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_add_variant(b, k, 3, "entry", "1", 128, 0, NULL);
}
static void no_variant(fuser_builder *b) { fuser_builder_add_kernel(b, "lonely"); }
static void bad_buffer_index(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_OUTPUT, 0, "0");
  fuser_builder_add_variant(b, k, 0, "entry", "1", 128, 0, NULL);
}
static void pointer_to_scalar(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_pointer(b, k, FUSER_BUFFER_INPUT, 1, "0");
  fuser_builder_add_variant(b, k, 0, "entry", "1", 128, 0, NULL);
}
static void big_block(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_add_variant(b, k, 0, "entry", "1", 2048, 0, NULL);
}
static void bad_condition(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  const char *c[1] = {"addr(1) % 16 == 0"};
  fuser_builder_add_variant(b, k, 0, "entry", "1", 128, 1, c);
}
static void alias_of_scalar(fuser_builder *b) {
  const char *sz[1] = {"1"}, *st[1] = {"1"};
  fuser_builder_add_alias_output(b, 1, 1, "0", sz, st);
}
static void bad_kernel_index(fuser_builder *b) { fuser_builder_param_value(b, 7, FUSER_PARAM_I64, "1"); }
static void bad_scalar_param(fuser_builder *b) {
  int k = fuser_builder_add_kernel(b, "k");
  fuser_builder_param_scalar(b, k, FUSER_PARAM_F64, 0);
  fuser_builder_add_variant(b, k, 0, "entry", "1", 128, 0, NULL);
}

static void bad_metadata_key(fuser_builder *b) { fuser_builder_set_metadata(b, "", "x", 1); }
static void null_metadata(fuser_builder *b) { fuser_builder_set_metadata(b, "k", NULL, 3); }

static void bad_check(fuser_builder *b) { fuser_builder_add_check(b, "size(0, 2) == 1", "m"); }

static void test_builder_errors(void) {
  builder_error("check 0: dim 2 of input 0 (rank 2) does not exist", bad_check);
  builder_error("metadata: missing or too long key", bad_metadata_key);
  builder_error("metadata k: NULL value", null_metadata);
  builder_error("output 0 size of dim 0: in 'size(0, 0) +': column 13: unexpected end of expression", bad_expression);
  builder_error("output 0 size of dim 0: dim 2 of input 0 (rank 2) does not exist", bad_dim);
  builder_error("output 0 size of dim 0: refers to input 5 of 2", bad_input_ref);
  builder_error("scalar(1) needs an integer or bool scalar input", scalar_of_float);
  builder_error("input 1 is not a tensor", size_of_scalar);
  builder_error("input 2: stride_order is not a permutation of 0..1", bad_stride_order);
  builder_error("input 2: contiguity[0] = 2 (use 1, 0 or -1)", bad_contiguity);
  builder_error("input 2: rank 20 outside 0..16", bad_rank);
  builder_error("kernel 0 (k) variant 0: module 3 of 1", bad_module_index);
  builder_error("kernel 0 (lonely): 0 variants, need 1..16", no_variant);
  builder_error("kernel 0 (k) parameter 0: buffer index 0 of 0", bad_buffer_index);
  builder_error("kernel 0 (k) parameter 0: input 1 is not a tensor", pointer_to_scalar);
  builder_error("kernel 0 (k) variant 0: block of 2048 threads, at most 1024", big_block);
  builder_error("kernel 0 (k) variant 0 condition 0: input 1 is not a tensor", bad_condition);
  builder_error("output 0: aliases input 1, which is not a tensor input", alias_of_scalar);
  builder_error("kernel 7 does not exist (0 kernels)", bad_kernel_index);
  builder_error("kernel 0 (k) parameter 0: input 0 is not a scalar input", bad_scalar_param);
}

/* Deterministic random multi-byte mutations (overwrite, insert, delete) of
 * the payload behind a repaired header: never a crash. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A view of T0's two `?` dims as 32 elements, no kernels, and the call's
 * check that it has 32: format version 3. */
static fuser_artifact *checked_view_artifact(fuser_error *err) {
  fuser_builder *b = fuser_builder_create();
  int64_t sizes[2] = {-1, -1}, contig[2] = {1, 1};
  fuser_builder_add_tensor_input(b, "T0", FUSER_TYPE_F32, 2, sizes, contig, NULL);
  const char *vsz[1] = {"32"}, *vst[1] = {"1"};
  fuser_builder_add_alias_output(b, 0, 1, "0", vsz, vst);
  fuser_builder_add_check(b, "size(0, 0) * size(0, 1) == 32", "v.py:3:10: reshape keeps the element count");
  fuser_builder_add_check(b, "size(0, 1) >= 2", NULL);
  fuser_artifact *a = NULL;
  fuser_builder_finish(b, &a, err);
  return a;
}

/* The call's checks survive the file (version 3, read back equal); every
 * truncation is refused; an artifact without checks stays version 1. */
static void test_checks_format(void) {
  fuser_error err;
  fuser_artifact *a = checked_view_artifact(&err);
  CHECK(a != NULL);
  if (!a) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  CHECK_EQ_INT(fuser_artifact_num_kernels(a), 0);
  void *bytes;
  size_t size;
  CHECK_EQ_INT(fuser_artifact_write_bytes(a, &bytes, &size, &err), FUSER_OK);
  CHECK(((uint8_t *)bytes)[8] == 3);
  fuser_artifact *b = NULL;
  CHECK_EQ_INT(fuser_artifact_read_bytes(bytes, size, &b, &err), FUSER_OK);
  char *da = describe(a), *db = b ? describe(b) : NULL;
  CHECK(db && strcmp(da, db) == 0);
  CHECK(unit_contains(da, "check 0: `(size(0, 0) * size(0, 1)) == 32` v.py:3:10: reshape keeps the element count"));
  CHECK(unit_contains(da, "check 1: `size(0, 1) >= 2`\n"));
  free(da), free(db);
  fuser_artifact_release(b);
  int refused = 0;
  for (size_t len = 0; len < size; len++) {
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    uint64_t payload = len > 32 ? len - 32 : 0;
    if (len >= 32) {
      for (int i = 0; i < 8; i++) copy[16 + i] = (uint8_t)(payload >> (8 * i));
      fix_checksum(copy, len);
    }
    refused += fuser_artifact_read_bytes(copy, len, &b, &err) != FUSER_OK;
    free(copy);
  }
  CHECK_EQ_INT(refused, (int)size);
  free(bytes);
  fuser_artifact_release(a);
  a = example_add_artifact(1, &err);
  CHECK_EQ_INT(fuser_artifact_write_bytes(a, &bytes, &size, &err), FUSER_OK);
  CHECK(((uint8_t *)bytes)[8] == 1);
  free(bytes);
  fuser_artifact_release(a);
}

static void test_random_mutations(fuser_artifact *(*make)(fuser_error *)) {
  fuser_error err;
  fuser_artifact *a = make(&err);
  void *bytes;
  size_t size;
  fuser_artifact_write_bytes(a, &bytes, &size, &err);
  fuser_artifact_release(a);
  uint8_t *buf = malloc(size + 64);
  int rejected = 0, bad_messages = 0;
  for (int iter = 0; iter < 20000; iter++) {
    size_t len = size;
    memcpy(buf, bytes, size);
    int edits = 1 + (int)(rng() % 4);
    for (int e = 0; e < edits; e++) {
      size_t at = 32 + rng() % (len - 32);
      switch (rng() % 3) {
      case 0: buf[at] = (uint8_t)rng(); break;
      case 1: /* insert one byte */
        if (len < size + 64) {
          memmove(buf + at + 1, buf + at, len - at);
          buf[at] = (uint8_t)rng();
          len++;
        }
        break;
      default: /* delete one byte */
        if (len > 33) {
          memmove(buf + at, buf + at + 1, len - at - 1);
          len--;
        }
      }
    }
    uint64_t payload = len - 32;
    for (int i = 0; i < 8; i++) buf[16 + i] = (uint8_t)(payload >> (8 * i));
    fix_checksum(buf, len);
    fuser_artifact *b = NULL;
    if (fuser_artifact_read_bytes(buf, len, &b, &err) == FUSER_OK) {
      free(describe(b));
      fuser_artifact_release(b);
    } else {
      rejected++;
      if (!err.message[0]) bad_messages++;
    }
  }
  CHECK(rejected > 1000);
  CHECK_EQ_INT(bad_messages, 0);
  free(buf);
  free(bytes);
}

static fuser_artifact *add_with_fallback(fuser_error *err) { return example_add_artifact(1, err); }

int main(void) {
  test_round_trip();
  test_checks_format();
  test_random_mutations(add_with_fallback);
  test_random_mutations(checked_view_artifact);
  test_corrupt();
  test_builder_errors();
  UNIT_MAIN_END();
}
