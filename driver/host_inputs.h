/* host_inputs.h: a fusion's inputs made on the host from recipes (the
 * script's `inputs = [...]` block), with the seeded generator the reference
 * evaluator uses (docs/reference.md), in plain C so that the runtime-only
 * tools on the GPU machine make exactly the same inputs.
 *
 * Recipe text (artifact metadata "inputs"), one line per fusion argument:
 *   tensor <factory> <dtype> numel <n> sizes <a,b,..> strides <a,b,..> offset <k> [value <v>] [arange <start> <end> <step>] [range <low> <high>]
 *   scalar <dtype> <value>
 * factory: randn rand ones zeros empty full arange make_tensor randint
 * (torch.testing.make_tensor, torch.randint: `range` gives [low, high));
 * dtype: the runtime's
 * names (bf16 f16 f32 f64 bool i32 i64); numel: elements of the storage the
 * factory makes; sizes/strides/offset: the view of it the fusion receives. */
#ifndef FUSER_DRIVER_HOST_INPUTS_H
#define FUSER_DRIVER_HOST_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver/fuser_runtime.h"

typedef struct {
  bool tensor;
  char factory[16];
  int dtype; /* the runtime's fuser_data_type */
  int64_t numel;
  int rank;
  int64_t sizes[FUSER_TENSOR_MAX_RANK], strides[FUSER_TENSOR_MAX_RANK], offset;
  double value;              /* full's fill value; a scalar's value */
  bool is_int;               /* the value was an integer literal: exactly ivalue */
  int64_t ivalue;
  double start, end, step;   /* arange */
  double low, high;          /* make_tensor, randint: values in [low, high) */
} fuser_input_recipe;

/* Parses recipe text; returns the number of recipes or -1 (message in err). */
int fuser_recipes_parse(const char *text, fuser_input_recipe *out, int cap, fuser_error *err);

/* Fills `storage` (recipe->numel elements of recipe->dtype) for argument
 * `arg_index` with `seed`. Returns FUSER_OK or an error. */
int fuser_recipe_fill(const fuser_input_recipe *r, uint64_t seed, int arg_index, void *storage, fuser_error *err);

/* The generated-input cap: the most bytes one input's storage may take
 * (8 GiB, or the environment's FUSER_INPUT_MAX_BYTES), so that a script
 * asking for a 2^40-element input gets an error instead of exhausting the
 * machine. */
#define FUSER_INPUT_MAX_BYTES_DEFAULT (UINT64_C(1) << 33)
uint64_t fuser_input_max_bytes(void);

/* Bytes of a storage of `numel` elements of `elem_size` bytes plus `extra`
 * spare elements. Returns FUSER_OK, or FUSER_ERR_INVALID_ARGUMENT with a
 * message naming the count when it overflows or exceeds the cap. */
int fuser_input_storage_bytes(int64_t numel, int64_t extra, size_t elem_size, size_t *bytes, fuser_error *err);

/* Stores a double into element i of a buffer of `dtype`, rounding once. */
void fuser_host_store(void *data, int dtype, int64_t i, double v);
/* Stores an integer exactly into an integer or bool buffer (other dtypes:
 * through fuser_host_store). */
void fuser_host_store_i64(void *data, int dtype, int64_t i, int64_t v);
/* Reads element i as a double. */
double fuser_host_load(const void *data, int dtype, int64_t i);

#endif
