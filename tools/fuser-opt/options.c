/* fuser-opt's command line (options.h). Options are spelled as mlir-opt
 * spells them, with one or two dashes, `--opt=value` or `--opt value`. A
 * flag that is no option names a pass (fuser or upstream) and is added to
 * the pipeline in order, as mlir-opt's pass flags are. */
#include "tools/fuser-opt/options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Pass.h"
#include "passes/named_pipeline.h"
#include "passes/pass.h"
#include "support/mlir_print.h"
/* upstream_passes and upstream_dialects, from mlir-opt --help (cmake/upstream_lists.cmake) */
#include "upstream_lists.inc"

void fuser_opt_usage(FILE *f) {
  fputs("usage: fuser-opt [options] [input.mlir|script.py|-]\n"
        "  --pass-pipeline=<text>, -p <text>  builtin.module(...) of fuser and upstream passes\n"
        "  --<pass>[=<options>]               append a pass (fuser or upstream) to the pipeline, in order\n"
        "  -o <file>, -o=<file>               output file (default stdout)\n"
        "  --split-input-file[=<marker>]      process each chunk between '// -----' (or <marker>) lines\n"
        "  --output-split-marker=<marker>     printed between the chunks' outputs (default '// -----')\n"
        "  --verify-diagnostics               check expected-error/warning/note/remark comments\n"
        "  --allow-unregistered-dialect       accept ops of dialects that are not registered\n"
        "  --emit-bytecode                    write MLIR bytecode instead of text\n"
        "  --mlir-print-op-generic            print ops in generic form\n"
        "  --mlir-print-debuginfo             print locations\n"
        "  --mlir-print-local-scope           print types and attributes inline, without aliases\n"
        "  --mlir-print-ir-before-all         print the IR before every pass\n"
        "  --mlir-print-ir-after-all          print the IR after every pass\n"
        "  --mlir-print-ir-after-change       with after-all: only when the pass changed the IR\n"
        "  --mlir-print-ir-after-failure      print the IR after a pass that failed\n"
        "  --mlir-print-ir-module-scope       print the whole module, not just the pass's op\n"
        "  --mlir-print-ir-tree-dir=<dir>     write those dumps into a file tree under <dir>\n"
        "  --mlir-disable-threading           run passes on one thread\n"
        "  --mlir-timing                      report pass timing\n"
        "  --mlir-pass-statistics             report pass statistics\n"
        "  --mlir-pass-statistics-display=list|pipeline\n"
        "  --dump-pass-pipeline               print the pipeline to stderr before running it\n"
        "  --verify-each[=true|false]         verify the IR after every pass (default true)\n"
        "  --list-passes                      list the fuser passes, pipelines and their options\n"
        "  --fuser-report                     after the pipeline, print each fusion's kernels (ops,\n"
        "                                     globals, strides, vector width, why each boundary exists)\n"
        "  --show-dialects                    list the dialects and exit\n"
        "  --version                          print the version and exit\n"
        "  --help, -h                         this text, the fuser passes and the upstream passes\n",
        f);
}

static bool needs_value(const char *opt) {
  fprintf(stderr, "fuser-opt: error: option '%s' needs a value\n", opt);
  return false;
}

/* `--name=value` or `--name value`: the value, or NULL when `a` is not the
 * option `name` (a is argv[i] with its leading dashes reduced to one). */
static const char *value_of(const char *a, const char *name, int argc, char **argv, int *i, bool *missing) {
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0) return NULL;
  if (a[n] == '=') return a + n + 1;
  if (a[n] != 0) return NULL;
  if (*i + 1 < argc) return argv[++*i];
  *missing = true;
  return NULL;
}

static bool parse_bool(const char *v, bool *out) {
  if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0) *out = true;
  else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0) *out = false;
  else return false;
  return true;
}

bool fuser_opt_parse_args(int argc, char **argv, fuser_opt_options *o) {
  o->verify_each = true;
  o->output_split_marker = "// -----";
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *a = arg, *v;
    bool missing = false;
    if (a[0] == '-' && a[1] == '-' && a[2]) a++; /* accept -x and --x alike */
    if (a[0] != '-' || !a[1]) {
      if (o->input && strcmp(o->input, "-") != 0) {
        fprintf(stderr, "fuser-opt: error: more than one input ('%s' and '%s')\n", o->input, a);
        return false;
      }
      o->input = a;
      continue;
    }
    /* simple flags */
    static const struct { const char *name; size_t offset; } flags[] = {
#define F(n, field) {n, offsetof(fuser_opt_options, field)}
        F("-verify-diagnostics", verify_diagnostics), F("-mlir-print-ir-before-all", print_before),
        F("-mlir-print-ir-after-all", print_after), F("-mlir-print-ir-after-change", print_after_change),
        F("-mlir-print-ir-after-failure", print_after_failure), F("-mlir-print-ir-module-scope", print_module_scope),
        F("-mlir-timing", timing), F("-mlir-pass-statistics", statistics), F("-dump-pass-pipeline", dump_pipeline),
        F("-mlir-print-debuginfo", debug_info), F("-mlir-print-op-generic", generic),
        F("-mlir-print-local-scope", local_scope), F("-emit-bytecode", emit_bytecode),
        F("-allow-unregistered-dialect", allow_unregistered), F("-mlir-disable-threading", disable_threading),
        F("-list-passes", list_passes), F("-fuser-report", report), F("-show-dialects", show_dialects),
        F("-version", version), F("-help", help), F("-h", help),
#undef F
    };
    bool done = false;
    for (size_t k = 0; k < sizeof flags / sizeof flags[0] && !done; k++)
      if (strcmp(a, flags[k].name) == 0) *(bool *)((char *)o + flags[k].offset) = done = true;
    if (done) continue;
    if (strcmp(a, "-split-input-file") == 0) o->split_marker = "// -----";
    else if (strncmp(a, "-split-input-file=", 18) == 0) o->split_marker = a + 18;
    else if (strncmp(a, "-verify-each=", 13) == 0) {
      if (!parse_bool(a + 13, &o->verify_each)) {
        fprintf(stderr, "fuser-opt: error: --verify-each wants true or false, got '%s'\n", a + 13);
        return false;
      }
    } else if (strcmp(a, "-verify-each") == 0) o->verify_each = true;
    else if ((v = value_of(a, "-pass-pipeline", argc, argv, &i, &missing)) ||
             (v = value_of(arg, "-p", argc, argv, &i, &missing)))
      o->pipeline = v;
    else if ((v = value_of(arg, "-o", argc, argv, &i, &missing))) o->output = v;
    else if ((v = value_of(a, "-output-split-marker", argc, argv, &i, &missing))) o->output_split_marker = v;
    else if ((v = value_of(a, "-mlir-print-ir-tree-dir", argc, argv, &i, &missing))) o->print_tree_dir = v;
    else if ((v = value_of(a, "-mlir-pass-statistics-display", argc, argv, &i, &missing))) {
      if (strcmp(v, "list") != 0 && strcmp(v, "pipeline") != 0) {
        fprintf(stderr, "fuser-opt: error: --mlir-pass-statistics-display wants list or pipeline, got '%s'\n", v);
        return false;
      }
      o->statistics_pipeline = strcmp(v, "pipeline") == 0;
    } else if (missing) {
      return needs_value(arg);
    } else if (o->npass_flags < FUSER_OPT_MAX_PASS_FLAGS) {
      /* a pass flag: checked against the registries once there is a context */
      const char *name = a + 1, *eq = strchr(name, '=');
      o->pass_flags[o->npass_flags++] =
          (fuser_opt_pass_flag){name, eq ? (size_t)(eq - name) : strlen(name), eq ? eq + 1 : NULL, arg};
    } else {
      fprintf(stderr, "fuser-opt: error: more than %d pass flags\n", FUSER_OPT_MAX_PASS_FLAGS);
      return false;
    }
  }
  if (!o->input) o->input = "-";
  if (o->pipeline && o->npass_flags) {
    fprintf(stderr, "fuser-opt: error: --pass-pipeline cannot be combined with pass flags such as '%s'\n",
            o->pass_flags[0].spelled);
    return false;
  }
  return true;
}

/* Whether MLIR's registry knows `name` as a pass or pass pipeline: it is
 * added to a scratch pass manager; only "does not refer to a registered
 * pass" counts as unknown (a pass on another anchor still is a pass). When
 * the pass is restricted to one op (func.func), its name goes to `anchor`
 * (mlir-opt nests such pass flags implicitly). */
static bool upstream_knows_anchored(MlirContext ctx, const char *name, size_t len, char *anchor, size_t anchor_len) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  strbuf err = {0};
  bool ok = mlirLogicalResultIsSuccess(
      mlirOpPassManagerAddPipeline(mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreate(name, len), fuser_print_to_strbuf, &err));
  if (anchor) anchor[0] = 0;
  if (!ok) ok = !err.data || !strstr(err.data, "does not refer to a registered pass");
  const char *restricted = err.data ? strstr(err.data, "restricted to '") : NULL;
  if (ok && restricted && anchor) {
    restricted += strlen("restricted to '");
    size_t n = strcspn(restricted, "'");
    if (n < anchor_len) snprintf(anchor, anchor_len, "%.*s", (int)n, restricted);
  }
  sb_free(&err);
  mlirPassManagerDestroy(pm);
  return ok;
}

static bool upstream_knows(MlirContext ctx, const char *name, size_t len) {
  return upstream_knows_anchored(ctx, name, len, NULL, 0);
}

bool fuser_opt_pipeline_text(MlirContext ctx, const fuser_opt_options *o, char **pipeline) {
  *pipeline = NULL;
  if (o->pipeline) {
    *pipeline = strdup(o->pipeline);
    return true;
  }
  if (!o->npass_flags) return true;
  strbuf t = {0};
  sb_append(&t, "builtin.module(");
  for (int i = 0; i < o->npass_flags; i++) {
    const fuser_opt_pass_flag *f = &o->pass_flags[i];
    bool ours = fuser_pass_lookup(f->name, f->name_len) || fuser_named_pipeline_lookup(f->name, f->name_len);
    char anchor[128] = "";
    if (!ours && !upstream_knows_anchored(ctx, f->name, f->name_len, anchor, sizeof anchor)) {
      fprintf(stderr, "fuser-opt: error: unknown option '%s' (neither an option nor a pass; see --help)\n", f->spelled);
      fuser_opt_usage(stderr);
      sb_free(&t);
      return false;
    }
    if (i) sb_append(&t, ", ");
    if (anchor[0]) {
      sb_append(&t, anchor);
      sb_append(&t, "(");
    }
    sb_append_n(&t, f->name, f->name_len);
    if (f->options) {
      sb_append(&t, "{");
      sb_append(&t, f->options);
      sb_append(&t, "}");
    }
    if (anchor[0]) sb_append(&t, ")");
  }
  sb_append(&t, ")");
  *pipeline = t.data;
  return true;
}

void fuser_opt_print_help(MlirContext ctx) {
  fuser_opt_usage(stdout);
  printf("\nfuser passes (options: fuser-opt --list-passes, docs/passes.md):\n");
  for (int i = 0; i < fuser_pass_count(); i++)
    printf("  --%-34s %s\n", fuser_pass_at(i)->argument, fuser_pass_at(i)->description);
  printf("\nfuser pass pipelines:\n");
  for (int i = 0; i < fuser_named_pipeline_count(); i++)
    printf("  --%-34s %s\n", fuser_named_pipeline_at(i)->argument, fuser_named_pipeline_at(i)->description);
  printf("\nupstream MLIR passes and pipelines (options: mlir-opt --help):\n");
  for (int i = 0; upstream_passes[i][0]; i++)
    if (strncmp(upstream_passes[i][0], "test-", 5) != 0 &&
        upstream_knows(ctx, upstream_passes[i][0], strlen(upstream_passes[i][0])))
      printf("  --%-34s %s\n", upstream_passes[i][0], upstream_passes[i][1]);
}

void fuser_opt_show_dialects(MlirContext ctx) {
  /* the registered ones, in mlir-opt's order, with fuser (IRDL) in its place */
  printf("Available Dialects: ");
  bool first = true, fuser_shown = false;
  for (int i = 0; upstream_dialects[i]; i++) {
    const char *d = upstream_dialects[i];
    if (!fuser_shown && strcmp(d, "fuser") > 0) {
      printf("%sfuser", first ? "" : ", ");
      first = false;
      fuser_shown = true;
    }
    if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString(d)))) continue;
    printf("%s%s", first ? "" : ", ", d);
    first = false;
  }
  printf("%s\n", fuser_shown ? "" : first ? "fuser" : ", fuser");
}
