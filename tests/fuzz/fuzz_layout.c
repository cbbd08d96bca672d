/*
 * fuzz_layout.c: the layout file format (lsk_layout_parse), and on a layout
 * it accepts, everything computed from it: members, sizes, the description
 * and the generated OpenCL C and host C. Checks that an accepted layout is
 * consistent (members aligned, inside the total, in order).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void use_layout(const lsk_layout *l)
{
  size_t align = lsk_layout_align(l), count = lsk_layout_member_count(l);
  FUZZ_CHECK(align > 0 && (align & (align - 1)) == 0);
  static const size_t ns[] = {0, 1, 3, 1000, (size_t)1 << 40, SIZE_MAX / 2};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
    size_t total = 0;
    int rc = lsk_layout_size(l, ns[k], &total);
    FUZZ_CHECK(rc == LSK_OK || rc == LSK_ERANGE);
    size_t end = 0;
    for (size_t i = 0; i < count; ++i) {
      lsk_member_info m;
      int mrc = lsk_layout_member(l, i, ns[k], &m);
      if (rc == LSK_OK) {
        FUZZ_CHECK(mrc == LSK_OK);
        FUZZ_CHECK(m.offset % align == 0 && m.offset >= end);
        FUZZ_CHECK(m.size <= total && m.offset <= total - m.size);
        end = m.offset + m.size;
        size_t found = count;
        FUZZ_CHECK(lsk_layout_find(l, m.name, &found) == LSK_OK && found == i);
      }
    }
    if (rc == LSK_OK) {
      FUZZ_CHECK(end == total);
      FUZZ_CHECK(lsk_layout_max_elements(l, total) >= ns[k]);
    }
  }
  lsk_member_info m;
  FUZZ_CHECK(lsk_layout_member(l, count, 1, &m) == LSK_ERANGE);

  char *text = NULL;
  if (lsk_layout_describe(l, 100, &text) == LSK_OK)
    FUZZ_CHECK(text && strlen(text) > 0);
  lsk_free(text);
  text = NULL;
  if (lsk_layout_emit_cl(l, NULL, &text) == LSK_OK)
    FUZZ_CHECK(text && strstr(text, lsk_layout_name(l)));
  lsk_free(text);
  text = NULL;
  if (lsk_layout_emit_c(l, NULL, &text) == LSK_OK)
    FUZZ_CHECK(text && strstr(text, lsk_layout_name(l)));
  lsk_free(text);
  text = NULL;
  if (count > 0 && lsk_layout_member(l, count - 1, 1, &m) == LSK_OK) {
    /* A view of one member, under another name. */
    lsk_emit_options opt = {m.name, "fuzz_view"};
    if (lsk_layout_emit_cl(l, &opt, &text) == LSK_OK)
      FUZZ_CHECK(text && strstr(text, "fuzz_view"));
    lsk_free(text);
    text = NULL;
  }
  const lsk_layout *const one[1] = {l};
  if (lsk_layout_emit_view_cl("fuzz_parts", 1, one, NULL, &text) == LSK_OK)
    FUZZ_CHECK(text != NULL);
  lsk_free(text);
  text = NULL;
  /* An lsk_view of all members, enforced, and a view of it: every
   * column named in the generated code. */
  lsk_view *v = NULL, *w = NULL;
  if (lsk_view_create("fuzz_v", 1, one, NULL, &(lsk_view_options){.enforce_align = 1}, &v) ==
      LSK_OK) {
    FUZZ_CHECK(lsk_view_column_count(v) == count);
    const lsk_view *const vs[1] = {v};
    if (lsk_view_from_views("fuzz_w", 1, vs, NULL, NULL, &w) == LSK_OK &&
        lsk_view_emit_cl(w, &text) == LSK_OK)
      for (size_t i = 0; i < count; ++i)
        FUZZ_CHECK(strstr(text, lsk_view_column_name(w, i)) != NULL);
    lsk_free(text);
    lsk_view_destroy(w);
    lsk_view_destroy(v);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* The text ends at the first NUL, as a C string does (lsk_layout_load
   * refuses files with a NUL byte). */
  char *text = fuzz_text(data, size);
  if (!text)
    return 0;
  lsk_layout *l = (lsk_layout *)&l;
  int rc = lsk_layout_parse(text, "fuzz.layout", &l);
  if (rc == LSK_OK) {
    FUZZ_CHECK(l != NULL);
    use_layout(l);
    lsk_layout_destroy(l);
  } else {
    FUZZ_CHECK(l == NULL);
    FUZZ_CHECK(rc == LSK_EINVAL || rc == LSK_ENOMEM);
    FUZZ_CHECK(strstr(lsk_context_errmsg(NULL), "fuzz.layout") != NULL);
  }
  free(text);
  return 0;
}
