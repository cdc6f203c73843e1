/* Input recipes and the seeded generator (host_inputs.h). The generator is
 * the reference evaluator's (docs/reference.md):
 *   mix(z)  = SplitMix64's finalizer
 *   key     = mix(seed + G * (arg_index + 1)),  G = 0x9E3779B97F4A7C15
 *   bits(j) = mix(key + G * (j + 1))             for storage element j
 *   rand    top m bits of bits(j) * 2^-m, m = the dtype's significand bits
 *   randn   Box-Muller in double on the pair (2p, 2p+1), rounded once.
 *   make_tensor, randint: u(j) = (bits(j) >> 11) * 2^-53 in [0, 1);
 *           make_tensor of a float dtype: low + (high - low) * u(j), rounded
 *           once; randint and make_tensor of an integer or bool dtype:
 *           low + floor((high - low) * u(j)), an integer in [low, high). */
#include "driver/host_inputs.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/checked_math.h"
#include "driver/error.h"
#include "driver/half.h"

#define GOLDEN 0x9E3779B97F4A7C15ULL

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static bool is_float(int dt) {
  return dt == FUSER_TYPE_BF16 || dt == FUSER_TYPE_F16 || dt == FUSER_TYPE_F32 || dt == FUSER_TYPE_F64;
}

static int significand_bits(int dt) {
  switch (dt) {
  case FUSER_TYPE_BF16: return 8;
  case FUSER_TYPE_F16: return 11;
  case FUSER_TYPE_F32: return 24;
  default: return 53;
  }
}

void fuser_host_store(void *data, int dtype, int64_t i, double v) {
  switch (dtype) {
  case FUSER_TYPE_BF16: ((uint16_t *)data)[i] = fuser_f64_to_bf16(v); break;
  case FUSER_TYPE_F16: ((uint16_t *)data)[i] = fuser_f64_to_f16(v); break;
  case FUSER_TYPE_F32: ((float *)data)[i] = (float)v; break;
  case FUSER_TYPE_F64: ((double *)data)[i] = v; break;
  case FUSER_TYPE_BOOL: ((uint8_t *)data)[i] = v != 0; break;
  /* saturating, NaN as 0: a double outside the range has no C conversion */
  case FUSER_TYPE_I32: ((int32_t *)data)[i] = v != v ? 0 : v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v; break;
  case FUSER_TYPE_I64:
    ((int64_t *)data)[i] = v != v ? 0 : v >= 9223372036854775808.0 ? INT64_MAX : v < -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
    break;
  default: break;
  }
}

void fuser_host_store_i64(void *data, int dtype, int64_t i, int64_t v) {
  switch (dtype) {
  case FUSER_TYPE_BOOL: ((uint8_t *)data)[i] = v != 0; break;
  case FUSER_TYPE_I32: ((int32_t *)data)[i] = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; break;
  case FUSER_TYPE_I64: ((int64_t *)data)[i] = v; break;
  default: fuser_host_store(data, dtype, i, (double)v); break;
  }
}

/* A recipe number: r->value, and r->ivalue exactly when it is an integer. */
static void parse_number(const char *s, fuser_input_recipe *r) {
  char *end;
  r->value = strtod(s, NULL);
  errno = 0;
  long long v = strtoll(s, &end, 10);
  r->is_int = end != s && !*end && errno == 0;
  r->ivalue = r->is_int ? v : 0;
}

double fuser_host_load(const void *data, int dtype, int64_t i) {
  switch (dtype) {
  case FUSER_TYPE_BF16: return fuser_bf16_to_f32(((const uint16_t *)data)[i]);
  case FUSER_TYPE_F16: return fuser_f16_to_f32(((const uint16_t *)data)[i]);
  case FUSER_TYPE_F32: return ((const float *)data)[i];
  case FUSER_TYPE_F64: return ((const double *)data)[i];
  case FUSER_TYPE_BOOL: return ((const uint8_t *)data)[i];
  case FUSER_TYPE_I32: return ((const int32_t *)data)[i];
  case FUSER_TYPE_I64: return (double)((const int64_t *)data)[i];
  default: return 0;
  }
}

uint64_t fuser_input_max_bytes(void) {
  const char *env = getenv("FUSER_INPUT_MAX_BYTES");
  if (env && *env) {
    char *end;
    unsigned long long v = strtoull(env, &end, 0);
    if (!*end && v > 0) return v;
  }
  return FUSER_INPUT_MAX_BYTES_DEFAULT;
}

int fuser_input_storage_bytes(int64_t numel, int64_t extra, size_t elem_size, size_t *bytes, fuser_error *err) {
  int64_t total;
  size_t b;
  if (numel < 0 || extra < 0 || !fuser_add_i64(numel, extra, &total) || !fuser_bytes_of(total, elem_size, &b)) {
    if (err) {
      err->code = FUSER_ERR_INVALID_ARGUMENT;
      snprintf(err->message, sizeof err->message, "a storage of %lld elements of %zu bytes does not fit in memory",
               (long long)numel, elem_size);
    }
    return FUSER_ERR_INVALID_ARGUMENT;
  }
  uint64_t cap = fuser_input_max_bytes();
  if ((uint64_t)b > cap) {
    if (err) {
      err->code = FUSER_ERR_INVALID_ARGUMENT;
      snprintf(err->message, sizeof err->message,
               "a storage of %lld elements (%llu bytes) exceeds the input cap of %llu bytes "
               "(FUSER_INPUT_MAX_BYTES raises it)",
               (long long)numel, (unsigned long long)b, (unsigned long long)cap);
    }
    return FUSER_ERR_INVALID_ARGUMENT;
  }
  *bytes = b;
  return FUSER_OK;
}

/* The generated values of one recipe over the element range [lo, hi):
 * every element (randn: every pair) is a function of its index alone, so
 * ranges fill independently and any split gives the same bits. */
typedef struct {
  const fuser_input_recipe *r;
  uint64_t key;
  void *storage;
  int64_t lo, hi;
} fill_range;

static void fill_rand(const fill_range *f) {
  const fuser_input_recipe *r = f->r;
  int m = significand_bits(r->dtype);
  for (int64_t j = f->lo; j < f->hi; j++)
    fuser_host_store(f->storage, r->dtype, j, ldexp((double)(mix(f->key + GOLDEN * (uint64_t)(j + 1)) >> (64 - m)), -m));
}

/* Box-Muller on the pairs (2p, 2p+1) whose first element lies in [lo, hi)
 * (lo even: the ranges split at pair boundaries). */
static void fill_randn(const fill_range *f) {
  const fuser_input_recipe *r = f->r;
  const double two_pi = 6.283185307179586476925286766559;
  for (int64_t p = f->lo / 2; 2 * p < f->hi; p++) {
    double u1 = ldexp((double)(mix(f->key + GOLDEN * (uint64_t)(2 * p + 1)) >> 11), -53);
    double u2 = ldexp((double)(mix(f->key + GOLDEN * (uint64_t)(2 * p + 2)) >> 11), -53);
    double rad = sqrt(-2.0 * log(1.0 - u1)), theta = two_pi * u2;
    fuser_host_store(f->storage, r->dtype, 2 * p, rad * cos(theta));
    if (2 * p + 1 < r->numel) fuser_host_store(f->storage, r->dtype, 2 * p + 1, rad * sin(theta));
  }
}

static void fill_uniform(const fill_range *f) {
  const fuser_input_recipe *r = f->r;
  bool integral = strcmp(r->factory, "randint") == 0 || !is_float(r->dtype);
  double width = r->high - r->low;
  for (int64_t j = f->lo; j < f->hi; j++) {
    double u = ldexp((double)(mix(f->key + GOLDEN * (uint64_t)(j + 1)) >> 11), -53);
    double v = integral ? r->low + floor(width * u) : r->low + width * u;
    fuser_host_store(f->storage, r->dtype, j, v);
  }
}

typedef void (*fill_fn)(const fill_range *);
typedef struct {
  fill_fn fn;
  fill_range range;
} fill_job;

static void *fill_thread(void *arg) {
  fill_job *j = arg;
  j->fn(&j->range);
  return NULL;
}

/* Below this many elements one thread fills (thread start-up would cost more). */
#define FILL_PARALLEL_MIN ((int64_t)1 << 20)
#define FILL_MAX_THREADS 32

/* Runs fn over [0, numel) on up to the online CPUs' threads: a 1 GB bf16
 * randn input took ~20 s on one core of the GPU machine (the row-length
 * sweep generates one per case). Falls back to fewer threads (down to the
 * calling one) when a thread cannot start. */
static void fill_parallel(fill_fn fn, const fuser_input_recipe *r, uint64_t key, void *storage) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int n = r->numel < FILL_PARALLEL_MIN || cpus < 2 ? 1 : cpus > FILL_MAX_THREADS ? FILL_MAX_THREADS : (int)cpus;
  fill_job jobs[FILL_MAX_THREADS];
  pthread_t tids[FILL_MAX_THREADS];
  bool started[FILL_MAX_THREADS] = {false};
  int64_t chunk = (r->numel / n + 1) & ~(int64_t)1; /* even: randn's pairs stay whole */
  for (int i = 0; i < n; i++) {
    int64_t lo = (int64_t)i * chunk, hi = i == n - 1 ? r->numel : lo + chunk;
    if (lo > r->numel) lo = r->numel;
    if (hi > r->numel) hi = r->numel;
    jobs[i] = (fill_job){fn, {r, key, storage, lo, hi}};
    started[i] = i > 0 && pthread_create(&tids[i], NULL, fill_thread, &jobs[i]) == 0;
  }
  for (int i = 0; i < n; i++)
    if (!started[i]) fn(&jobs[i].range);
  for (int i = 1; i < n; i++)
    if (started[i]) pthread_join(tids[i], NULL);
}

int fuser_recipe_fill(const fuser_input_recipe *r, uint64_t seed, int arg_index, void *storage, fuser_error *err) {
  const char *f = r->factory;
  bool normal = strcmp(f, "randn") == 0;
  uint64_t key = mix(seed + GOLDEN * (uint64_t)(arg_index + 1));
  if (normal || strcmp(f, "rand") == 0) {
    if (!is_float(r->dtype)) return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "torch.%s needs a floating dtype", f);
    fill_parallel(normal ? fill_randn : fill_rand, r, key, storage);
    return FUSER_OK;
  }
  if (strcmp(f, "make_tensor") == 0 || strcmp(f, "randint") == 0) {
    if (!(r->low < r->high) || !isfinite(r->low) || !isfinite(r->high))
      return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "torch.%s needs finite bounds low < high", f);
    fill_parallel(fill_uniform, r, key, storage);
    return FUSER_OK;
  }
  for (int64_t j = 0; j < r->numel; j++) {
    double v;
    if (strcmp(f, "ones") == 0) v = 1;
    else if (strcmp(f, "zeros") == 0 || strcmp(f, "empty") == 0) v = 0;
    else if (strcmp(f, "full") == 0 && r->is_int) {
      fuser_host_store_i64(storage, r->dtype, j, r->ivalue);
      continue;
    } else if (strcmp(f, "full") == 0) v = r->value;
    else if (strcmp(f, "arange") == 0) v = r->start + (double)j * r->step;
    else return fuser_set_error(err, FUSER_ERR_INVALID_ARGUMENT, "unknown input factory '%s'", f);
    fuser_host_store(storage, r->dtype, j, v);
  }
  return FUSER_OK;
}

static int dtype_named(const char *s) {
  for (int d = 1; d < FUSER_TYPE_COUNT_; d++) {
    const char *n = fuser_type_name(d);
    if (n && strcmp(n, s) == 0) return d;
  }
  return 0;
}

static int parse_list(const char *s, int64_t *out, int cap) {
  int n = 0;
  if (*s == '-' && s[1] == 0) return 0; /* "-": rank 0 */
  while (*s && n < cap) {
    char *end;
    out[n++] = strtoll(s, &end, 10);
    if (end == s) return -1;
    s = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return -1;
  }
  return n;
}

/* The first bytes of a recipe line for a message, non-printable bytes as
 * \xNN (a corrupted artifact must not write raw bytes to a terminal). */
static void printable(const char *line, size_t len, char *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < len && n + 5 < cap; i++) {
    unsigned char c = (unsigned char)line[i];
    if (c >= 0x20 && c < 0x7f) out[n++] = (char)c;
    else n += (size_t)snprintf(out + n, cap - n, "\\x%02x", c);
  }
  out[n] = 0;
}

int fuser_recipes_parse(const char *text, fuser_input_recipe *out, int cap, fuser_error *err) {
  int n = 0;
  const char *line = text;
  while (line && *line) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    char buf[1024];
    if (len >= sizeof buf) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "input recipe line too long"), -1;
    memcpy(buf, line, len);
    buf[len] = 0;
    char shown[200];
    printable(buf, len, shown, sizeof shown);
    line = eol ? eol + 1 : NULL;
    if (!buf[0]) continue;
    if (n == cap) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "too many input recipes"), -1;
    fuser_input_recipe *r = &out[n];
    memset(r, 0, sizeof *r);
    char *save = NULL, *tok = strtok_r(buf, " ", &save);
    if (tok && strcmp(tok, "scalar") == 0) {
      char *dt = strtok_r(NULL, " ", &save), *val = strtok_r(NULL, " ", &save);
      if (!dt || !val || !(r->dtype = dtype_named(dt)))
        return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "bad scalar recipe '%s'", shown), -1;
      parse_number(val, r);
      n++;
      continue;
    }
    if (!tok || strcmp(tok, "tensor") != 0) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "bad input recipe '%s'", shown), -1;
    r->tensor = true;
    char *factory = strtok_r(NULL, " ", &save), *dt = strtok_r(NULL, " ", &save);
    if (!factory || !dt || strlen(factory) >= sizeof r->factory || !(r->dtype = dtype_named(dt)))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "bad tensor recipe '%s'", shown), -1;
    strcpy(r->factory, factory);
    int nsizes = -1, nstrides = -1;
    for (char *key; (key = strtok_r(NULL, " ", &save));) {
      char *val = strtok_r(NULL, " ", &save);
      if (!val) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "recipe key without a value in '%s'", shown), -1;
      if (strcmp(key, "numel") == 0) r->numel = strtoll(val, NULL, 10);
      else if (strcmp(key, "sizes") == 0) nsizes = parse_list(val, r->sizes, FUSER_TENSOR_MAX_RANK);
      else if (strcmp(key, "strides") == 0) nstrides = parse_list(val, r->strides, FUSER_TENSOR_MAX_RANK);
      else if (strcmp(key, "offset") == 0) r->offset = strtoll(val, NULL, 10);
      else if (strcmp(key, "value") == 0) parse_number(val, r);
      else if (strcmp(key, "arange") == 0) {
        char *e2 = strtok_r(NULL, " ", &save), *e3 = strtok_r(NULL, " ", &save);
        if (!e2 || !e3) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "arange needs start end step"), -1;
        r->start = strtod(val, NULL), r->end = strtod(e2, NULL), r->step = strtod(e3, NULL);
      } else if (strcmp(key, "range") == 0) {
        char *hi = strtok_r(NULL, " ", &save);
        if (!hi) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "range needs low high"), -1;
        r->low = strtod(val, NULL), r->high = strtod(hi, NULL);
      } else return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "unknown recipe key in '%s'", shown), -1;
    }
    if (nsizes < 0 || nstrides != nsizes || r->numel < 0)
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "tensor recipe needs numel, sizes and strides of one rank"), -1;
    r->rank = nsizes;
    /* the view must stay inside the storage */
    int64_t lo, hi;
    bool empty;
    for (int d = 0; d < r->rank; d++)
      if (r->sizes[d] < 0 || r->strides[d] < 0) return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "negative size or stride"), -1;
    if (!fuser_view_span(r->offset, r->sizes, r->strides, r->rank, &lo, &hi, &empty))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "recipe view's extent overflows 64 bits"), -1;
    if (!empty && (r->offset < 0 || hi >= r->numel))
      return fuser_set_error(err, FUSER_ERR_ARTIFACT_FORMAT, "recipe view reaches outside its storage"), -1;
    n++;
  }
  return n;
}
