/* call_memo.c: the memo of fuser_execute's last few plans, keyed by the
 * call's signature (call_memo.h says what the signature holds and why that
 * is exact). A key is a flat int64 array whose layout the artifact fixes:
 *   tensor input of rank r: tag (dtype, NULL strides, NULL data), device,
 *                           address part, sizes[r], strides[r] (when given)
 *   scalar input:           kind, integer value (0 for doubles)
 * Lookup compares the call against it in place (no key is built on a hit);
 * store writes it. */
#include "driver/call_memo.h"

#include <stdlib.h>
#include <string.h>

#define SAFE_LOW (UINT64_C(1) << 32)
#define SAFE_HIGH ((UINT64_C(1) << 63) - (UINT64_C(1) << 32))
#define OFFSET_LIMIT (INT64_C(1) << 32)

/* ---- which part of each input's address the expressions see ------------ */

enum { SYM_OTHER, SYM_CONST, SYM_ADDR };

typedef struct sym {
  int kind;
  uint32_t input; /* SYM_ADDR */
  int64_t c;      /* SYM_CONST: the value; SYM_ADDR: the constant added to the address */
} sym;

static void escape(const sym *s, uint8_t *addr_use) {
  if (s->kind == SYM_ADDR) addr_use[s->input] = FUSER_ADDR_WHOLE;
}

/* x op y on constants with the evaluator's own semantics (wrapping, errors). */
static int fold(uint8_t op, int64_t x, int64_t y, int64_t *out) {
  fuser_insn code[3] = {{FUSER_OP_CONST, 0, x}, {FUSER_OP_CONST, 0, y}, {op, 0, 0}};
  fuser_expr e = {.n = 3, .code = code};
  return fuser_expr_eval(&e, NULL, 0, out) == FUSER_EXPR_OK;
}

static int small(int64_t c) { return c > -OFFSET_LIMIT && c < OFFSET_LIMIT; }

/* Symbolic evaluation of e: constants fold, `addr(i) + c` is tracked, and
 * `(addr(i) + c) % C` records C; any other use of an address makes the
 * whole address part of the signature. */
static void analyse_expr(const fuser_expr *e, uint8_t *addr_use, uint64_t *addr_modulus) {
  sym st[FUSER_EXPR_MAX_STACK];
  int sp = 0;
  for (uint32_t i = 0; i < e->n; i++) {
    const fuser_insn *in = &e->code[i];
    if (in->op == FUSER_OP_CONST || in->op == FUSER_OP_IN_ADDR || in->op == FUSER_OP_IN_SIZE ||
        in->op == FUSER_OP_IN_STRIDE || in->op == FUSER_OP_SCALAR) {
      if (sp == FUSER_EXPR_MAX_STACK) return; /* checked programs never do this */
      sym s = {SYM_OTHER, 0, 0};
      if (in->op == FUSER_OP_CONST) s = (sym){SYM_CONST, 0, in->b};
      else if (in->op == FUSER_OP_IN_ADDR) s = (sym){SYM_ADDR, in->a, 0};
      st[sp++] = s;
      continue;
    }
    if (in->op == FUSER_OP_NOT) {
      if (sp < 1) return;
      escape(&st[sp - 1], addr_use);
      st[sp - 1] = st[sp - 1].kind == SYM_CONST ? (sym){SYM_CONST, 0, !st[sp - 1].c} : (sym){SYM_OTHER, 0, 0};
      continue;
    }
    if (sp < 2) return;
    sym y = st[--sp], x = st[--sp], r = {SYM_OTHER, 0, 0};
    int64_t v;
    if (x.kind == SYM_CONST && y.kind == SYM_CONST) {
      if (fold(in->op, x.c, y.c, &v)) r = (sym){SYM_CONST, 0, v};
    } else if ((in->op == FUSER_OP_ADD || in->op == FUSER_OP_SUB) && x.kind == SYM_ADDR && y.kind == SYM_CONST &&
               small(y.c) && small(v = in->op == FUSER_OP_ADD ? x.c + y.c : x.c - y.c)) {
      r = (sym){SYM_ADDR, x.input, v};
    } else if (in->op == FUSER_OP_ADD && x.kind == SYM_CONST && y.kind == SYM_ADDR && small(x.c) &&
               small(v = x.c + y.c)) {
      r = (sym){SYM_ADDR, y.input, v};
    } else if (in->op == FUSER_OP_MOD && x.kind == SYM_ADDR && y.kind == SYM_CONST && y.c > 0 &&
               y.c <= OFFSET_LIMIT && (y.c & (y.c - 1)) == 0) {
      if (addr_use[x.input] == FUSER_ADDR_UNUSED) addr_use[x.input] = FUSER_ADDR_MODULO;
      if ((uint64_t)y.c > addr_modulus[x.input]) addr_modulus[x.input] = (uint64_t)y.c;
    } else {
      escape(&x, addr_use);
      escape(&y, addr_use);
    }
    st[sp++] = r;
  }
  for (int s = 0; s < sp; s++) escape(&st[s], addr_use);
}

void fuser_call_memo_analyse(const fuser_artifact *a, uint8_t *addr_use, uint64_t *addr_modulus) {
  memset(addr_use, FUSER_ADDR_UNUSED, a->ninputs);
  memset(addr_modulus, 0, a->ninputs * sizeof *addr_modulus);
  for (size_t k = 0; k < a->nkernels; k++) {
    const fuser_kernel *kn = &a->kernels[k];
    for (size_t p = 0; p < kn->nparams; p++)
      if (kn->params[p].expr.n) analyse_expr(&kn->params[p].expr, addr_use, addr_modulus);
    for (size_t v = 0; v < kn->nvariants; v++) {
      const fuser_variant *va = &kn->variants[v];
      for (int g = 0; g < 3; g++) analyse_expr(&va->grid[g], addr_use, addr_modulus);
      for (size_t c = 0; c < va->nconditions; c++) analyse_expr(&va->conditions[c], addr_use, addr_modulus);
    }
  }
  for (size_t i = 0; i < a->noutputs; i++) {
    const fuser_output_desc *o = &a->outputs[i];
    for (int d = 0; d < o->rank; d++) analyse_expr(&o->sizes[d], addr_use, addr_modulus);
    if (o->kind == FUSER_OUTPUT_ALIAS) {
      analyse_expr(&o->offset, addr_use, addr_modulus);
      for (int d = 0; d < o->rank; d++) analyse_expr(&o->strides[d], addr_use, addr_modulus);
    }
  }
  for (size_t t = 0; t < a->ntemps; t++) analyse_expr(&a->temps[t].bytes, addr_use, addr_modulus);
  for (size_t c = 0; c < a->nchecks; c++) analyse_expr(&a->checks[c].cond, addr_use, addr_modulus);
}

/* ---- set-up ------------------------------------------------------------ */

static void free_entry(fuser_memo_entry *e) {
  free(e->key);
  free(e->chosen);
  free(e->grid);
  free(e->slots);
  free(e->temp_bytes);
  free(e->out_dims);
  free(e->out_bytes);
  free(e->alias_delta);
}

void fuser_call_memo_free(fuser_call_memo *m) {
  if (m->entries)
    for (int e = 0; e < m->nentries; e++) free_entry(&m->entries[e]);
  free(m->entries);
  free(m->addr_use);
  free(m->addr_modulus);
  memset(m, 0, sizeof *m);
}

static int alloc_entry(fuser_memo_entry *e, const fuser_artifact *a, size_t key_len, size_t nslots,
                       size_t out_len) {
  e->key = calloc(key_len + 1, sizeof *e->key);
  e->chosen = calloc(a->nkernels + 1, sizeof *e->chosen);
  e->grid = calloc(a->nkernels + 1, sizeof *e->grid);
  e->slots = calloc(nslots + 1, sizeof *e->slots);
  e->temp_bytes = calloc(a->ntemps + 1, sizeof *e->temp_bytes);
  e->out_dims = calloc(out_len + 1, sizeof *e->out_dims);
  e->out_bytes = calloc(a->noutputs + 1, sizeof *e->out_bytes);
  e->alias_delta = calloc(a->noutputs + 1, sizeof *e->alias_delta);
  return e->key && e->chosen && e->grid && e->slots && e->temp_bytes && e->out_dims && e->out_bytes &&
         e->alias_delta;
}

int fuser_call_memo_init(fuser_call_memo *m, const fuser_artifact *a) {
  memset(m, 0, sizeof *m);
  atomic_flag_clear(&m->busy);
  int nentries = FUSER_MEMO_DEFAULT_ENTRIES;
  const char *env = getenv("FUSER_EXECUTE_MEMO");
  if (env && *env) {
    char *end;
    long n = strtol(env, &end, 10);
    if (!*end && n >= 0) nentries = n > FUSER_MEMO_MAX_ENTRIES ? FUSER_MEMO_MAX_ENTRIES : (int)n;
  }
  if (nentries == 0) return 0;
  size_t key_len = 0, out_len = 0, nslots = 0;
  for (size_t i = 0; i < a->ninputs; i++)
    key_len += a->inputs[i].kind == FUSER_INPUT_TENSOR ? 3 + 2 * (size_t)a->inputs[i].rank : 2;
  for (size_t i = 0; i < a->noutputs; i++) out_len += 2 * (size_t)a->outputs[i].rank;
  for (size_t k = 0; k < a->nkernels; k++) nslots += a->kernels[k].nparams;
  m->key_len = key_len;
  m->nslots = nslots;
  m->addr_use = calloc(a->ninputs + 1, sizeof *m->addr_use);
  m->addr_modulus = calloc(a->ninputs + 1, sizeof *m->addr_modulus);
  m->entries = calloc((size_t)nentries, sizeof *m->entries);
  m->nentries = nentries; /* so that free releases what was allocated */
  int ok = m->addr_use && m->addr_modulus && m->entries;
  for (int e = 0; ok && e < nentries; e++) ok = alloc_entry(&m->entries[e], a, key_len, nslots, out_len);
  if (!ok) {
    fuser_call_memo_free(m);
    return -1;
  }
  fuser_call_memo_analyse(a, m->addr_use, m->addr_modulus);
  return 0;
}

/* ---- the signature ----------------------------------------------------- */

/* A tensor input's first three key values; 0 if the call cannot be memoised
 * (wrong rank or missing shape: the checks will say; or an address outside
 * the range where its residue decides every expression). */
static int tensor_head(const fuser_call_memo *m, size_t i, int rank, const DLTensor *t, int64_t head[3]) {
  if (!t || t->ndim != rank || (rank && !t->shape)) return 0;
  head[0] = (int64_t)((uint64_t)t->dtype.code | (uint64_t)t->dtype.bits << 8 | (uint64_t)t->dtype.lanes << 16 |
                      (uint64_t)(t->strides == NULL) << 32 | (uint64_t)(t->data == NULL) << 33);
  head[1] = (int64_t)((uint64_t)(uint32_t)t->device.device_type | (uint64_t)(uint32_t)t->device.device_id << 32);
  uint64_t addr = (uint64_t)(uintptr_t)t->data + t->byte_offset;
  switch (m->addr_use[i]) {
  case FUSER_ADDR_MODULO:
    if (addr < SAFE_LOW || addr >= SAFE_HIGH) return 0;
    head[2] = (int64_t)(addr & (m->addr_modulus[i] - 1));
    break;
  case FUSER_ADDR_WHOLE: head[2] = (int64_t)addr; break;
  default: head[2] = 0; break;
  }
  return 1;
}

static int scalar_key(const fuser_arg *arg, int64_t key[2]) {
  if (arg->kind != FUSER_ARG_INT && arg->kind != FUSER_ARG_DOUBLE) return 0;
  key[0] = arg->kind;
  key[1] = arg->kind == FUSER_ARG_INT ? arg->i : 0; /* doubles reach only F32/F64 parameters, set per call */
  return 1;
}

static int signature_equal(const fuser_call_memo *m, const int64_t *k, const fuser_artifact *a,
                           const fuser_arg *args) {
  for (size_t i = 0; i < a->ninputs; i++) {
    const fuser_input *in = &a->inputs[i];
    const fuser_arg *arg = &args[i];
    if (in->kind != FUSER_INPUT_TENSOR) {
      int64_t s[2];
      if (!scalar_key(arg, s) || s[0] != k[0] || s[1] != k[1]) return 0;
      k += 2;
      continue;
    }
    int64_t head[3];
    if (arg->kind != FUSER_ARG_TENSOR || !tensor_head(m, i, in->rank, arg->tensor, head) || head[0] != k[0] ||
        head[1] != k[1] || head[2] != k[2])
      return 0;
    const DLTensor *t = arg->tensor;
    size_t dims = (size_t)in->rank * sizeof(int64_t);
    if (dims && memcmp(t->shape, k + 3, dims)) return 0;
    if (dims && t->strides && memcmp(t->strides, k + 3 + in->rank, dims)) return 0;
    k += 3 + 2 * (size_t)in->rank;
  }
  return 1;
}

/* Writes the key; 0 if the call cannot be memoised. */
static int signature_write(const fuser_call_memo *m, const fuser_artifact *a, const fuser_arg *args, int64_t *k) {
  for (size_t i = 0; i < a->ninputs; i++) {
    const fuser_input *in = &a->inputs[i];
    if (in->kind != FUSER_INPUT_TENSOR) {
      if (!scalar_key(&args[i], k)) return 0;
      k += 2;
      continue;
    }
    const DLTensor *t = args[i].tensor;
    if (args[i].kind != FUSER_ARG_TENSOR || !tensor_head(m, i, in->rank, t, k)) return 0;
    size_t dims = (size_t)in->rank * sizeof(int64_t);
    if (dims) memcpy(k + 3, t->shape, dims);
    if (dims && t->strides) memcpy(k + 3 + in->rank, t->strides, dims);
    else memset(k + 3 + in->rank, 0, dims);
    k += 3 + 2 * (size_t)in->rank;
  }
  return 1;
}

/* ---- lookup and store ------------------------------------------------------ */

static int try_take(fuser_call_memo *m) { return !atomic_flag_test_and_set_explicit(&m->busy, memory_order_acquire); }
static void give(fuser_call_memo *m) { atomic_flag_clear_explicit(&m->busy, memory_order_release); }

int fuser_call_memo_lookup(fuser_call_memo *m, const fuser_artifact *a, const fuser_arg *args,
                           fuser_call_plan *plan, fuser_output *outputs) {
  if (!m->nentries || !try_take(m)) return 0;
  /* the entry used last first: one signature called over and over costs
   * one comparison */
  fuser_memo_entry *e = NULL;
  for (int i = 0; i < m->nentries && !e; i++) {
    fuser_memo_entry *c = &m->entries[(m->last + i) % m->nentries];
    if (c->valid && signature_equal(m, c->key, a, args)) e = c;
  }
  if (!e) {
    give(m);
    return 0;
  }
  memcpy(plan->chosen, e->chosen, a->nkernels * sizeof *plan->chosen);
  memcpy(plan->grid, e->grid, a->nkernels * sizeof *plan->grid);
  memcpy(plan->slots, e->slots, m->nslots * sizeof *plan->slots);
  memcpy(plan->temp_bytes, e->temp_bytes, a->ntemps * sizeof *plan->temp_bytes);
  const int64_t *dims = e->out_dims;
  int hit = 1;
  for (size_t i = 0; i < a->noutputs; i++) {
    const fuser_output_desc *o = &a->outputs[i];
    fuser_output *out = &outputs[i];
    memset(&out->tensor, 0, sizeof out->tensor);
    out->tensor.ndim = o->rank;
    out->tensor.dtype = fuser_type_to_dlpack(o->dtype);
    out->tensor.shape = out->shape;
    out->tensor.strides = out->strides;
    memcpy(out->shape, dims, (size_t)o->rank * sizeof *dims);
    memcpy(out->strides, dims + o->rank, (size_t)o->rank * sizeof *dims);
    dims += 2 * (size_t)o->rank;
    out->allocation = NULL;
    out->allocated_by = 0;
    out->alias_of = -1;
    out->bytes = e->out_bytes[i];
    if (o->kind == FUSER_OUTPUT_ALIAS) {
      /* the input's byte_offset is not in the signature (only the address
       * part is); an offset before its data is the slow path's error */
      const DLTensor *in = args[o->input].tensor;
      int64_t byte_offset = (int64_t)((uint64_t)in->byte_offset + (uint64_t)e->alias_delta[i]);
      if (byte_offset < 0) hit = 0;
      out->tensor.data = in->data;
      out->tensor.byte_offset = (uint64_t)byte_offset;
      out->tensor.device = in->device;
      out->alias_of = o->input;
    }
  }
  if (hit) {
    e->used = ++m->clock;
    m->last = (int)(e - m->entries);
    m->hits++;
  }
  give(m);
  return hit;
}

void fuser_call_memo_store(fuser_call_memo *m, const fuser_artifact *a, const fuser_arg *args,
                           const fuser_call_plan *plan, const fuser_output *outputs) {
  if (!m->nentries || !try_take(m)) return;
  fuser_memo_entry *e = &m->entries[0];
  for (int i = 1; i < m->nentries && e->valid; i++) /* an empty entry, else the least recently used */
    if (!m->entries[i].valid || m->entries[i].used < e->used) e = &m->entries[i];
  e->valid = signature_write(m, a, args, e->key);
  if (e->valid) {
    e->used = ++m->clock;
    m->last = (int)(e - m->entries);
    m->stores++;
    memcpy(e->chosen, plan->chosen, a->nkernels * sizeof *plan->chosen);
    memcpy(e->grid, plan->grid, a->nkernels * sizeof *plan->grid);
    memcpy(e->slots, plan->slots, m->nslots * sizeof *plan->slots);
    memcpy(e->temp_bytes, plan->temp_bytes, a->ntemps * sizeof *plan->temp_bytes);
    int64_t *dims = e->out_dims;
    for (size_t i = 0; i < a->noutputs; i++) {
      const fuser_output_desc *o = &a->outputs[i];
      const fuser_output *out = &outputs[i];
      memcpy(dims, out->shape, (size_t)o->rank * sizeof *dims);
      memcpy(dims + o->rank, out->strides, (size_t)o->rank * sizeof *dims);
      dims += 2 * (size_t)o->rank;
      e->out_bytes[i] = out->bytes;
      e->alias_delta[i] = o->kind == FUSER_OUTPUT_ALIAS
                              ? (int64_t)(out->tensor.byte_offset - args[o->input].tensor->byte_offset)
                              : 0;
    }
  }
  give(m);
}
