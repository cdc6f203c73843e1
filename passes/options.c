/* Pass options: `pass{key=value key2=value2}` as MLIR spells them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/pass.h"

static int declared(const fuser_pass_info *info, const char *key, size_t len) {
  for (int i = 0; i < FUSER_PASS_MAX_OPTIONS && info->options[i].name; i++)
    if (strlen(info->options[i].name) == len && memcmp(info->options[i].name, key, len) == 0) return i;
  return -1;
}

bool fuser_pass_options_parse(const fuser_pass_info *info, const char *text, size_t len,
                              fuser_pass_options *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < FUSER_PASS_MAX_OPTIONS && info->options[i].name; i++) {
    out->entries[i].key = info->options[i].name;
    snprintf(out->entries[i].value, sizeof out->entries[i].value, "%s", info->options[i].default_value);
    out->count = i + 1;
  }
  size_t i = 0;
  while (i < len) {
    while (i < len && (isspace((unsigned char)text[i]) || text[i] == ',')) i++;
    if (i >= len) break;
    size_t k = i;
    while (i < len && text[i] != '=' && !isspace((unsigned char)text[i])) i++;
    size_t klen = i - k;
    if (i >= len || text[i] != '=') {
      snprintf(err, errlen, "option '%.*s' of pass '%s' needs a value (key=value)", (int)klen, text + k, info->argument);
      return false;
    }
    i++;
    size_t v = i;
    while (i < len && !isspace((unsigned char)text[i]) && text[i] != ',') i++;
    int slot = declared(info, text + k, klen);
    if (slot < 0) {
      snprintf(err, errlen, "pass '%s' has no option '%.*s'", info->argument, (int)klen, text + k);
      return false;
    }
    if (i - v >= sizeof out->entries[slot].value) {
      snprintf(err, errlen, "value of option '%.*s' is too long", (int)klen, text + k);
      return false;
    }
    memcpy(out->entries[slot].value, text + v, i - v);
    out->entries[slot].value[i - v] = 0;
  }
  return true;
}

const char *fuser_pass_option_str(const fuser_pass_options *o, const char *key) {
  for (int i = 0; i < o->count; i++)
    if (o->entries[i].key && strcmp(o->entries[i].key, key) == 0) return o->entries[i].value;
  return "";
}

int64_t fuser_pass_option_int(const fuser_pass_options *o, const char *key) {
  return strtoll(fuser_pass_option_str(o, key), NULL, 0);
}

bool fuser_pass_option_bool(const fuser_pass_options *o, const char *key) {
  const char *v = fuser_pass_option_str(o, key);
  return strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
}
