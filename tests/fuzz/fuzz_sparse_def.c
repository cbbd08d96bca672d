/*
 * fuzz_sparse_def.c: the sparse definition format (lsk_sparse_def_parse),
 * and on a definition it accepts, everything computed from it without a
 * device: nodes, fields, extents, the description and the generated
 * OpenCL C. Checks that an accepted definition keeps the rules the parser
 * promises (sizes powers of two, axes in order, extents at most 2^31, a
 * dynamic node last on an axis of its own, fields placed) and that a refusal names the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int pow2(uint64_t v) { return v && (v & (v - 1)) == 0; }

static void use_def(const lsk_sparse_def *d)
{
  unsigned nodes = lsk_sparse_def_nodes(d), fields = lsk_sparse_def_fields(d);
  unsigned axes = lsk_sparse_def_axes(d);
  FUZZ_CHECK(lsk_sparse_def_name(d) != NULL);
  FUZZ_CHECK(nodes >= 1 && nodes <= LSK_SPARSE_MAX_NODES);
  FUZZ_CHECK(axes >= 1 && axes <= LSK_SPARSE_MAX_AXES);
  FUZZ_CHECK(fields <= LSK_SPARSE_MAX_FIELDS);
  uint64_t prod[LSK_SPARSE_MAX_AXES] = {1, 1, 1};
  unsigned used = 0, divided = 0;
  for (unsigned i = 0; i < nodes; ++i) {
    lsk_snode n;
    FUZZ_CHECK(lsk_sparse_def_node(d, i, &n) == LSK_OK);
    FUZZ_CHECK(n.name && n.axes && n.axes[0]);
    size_t na = strlen(n.axes);
    FUZZ_CHECK(na <= LSK_SPARSE_MAX_AXES);
    for (size_t k = 0; k < na; ++k) {
      FUZZ_CHECK(n.axes[k] >= 'i' && n.axes[k] <= 'k');
      FUZZ_CHECK(k == 0 || n.axes[k] > n.axes[k - 1]);
      unsigned a = (unsigned)(n.axes[k] - 'i');
      if (n.kind == LSK_SNODE_DYNAMIC) {
        FUZZ_CHECK(na == 1 && i == nodes - 1 && !(divided & (1u << a)));
        FUZZ_CHECK(n.sizes[0] > 0 && pow2(n.chunk));
      } else {
        FUZZ_CHECK(pow2(n.sizes[k]));
      }
      used |= 1u << a;
      divided |= (n.sizes[k] > 1 && n.kind != LSK_SNODE_DYNAMIC ? 1u : 0u) << a;
      prod[a] *= n.sizes[k];
    }
  }
  /* (An axis no node divides is the structure's refusal, lsk_sparse_create's.) */
  FUZZ_CHECK(used >> axes == 0 && (used >> (axes - 1) & 1u));
  uint64_t ext[LSK_SPARSE_MAX_AXES];
  FUZZ_CHECK(lsk_sparse_def_extent(d, ext) == LSK_OK);
  for (int a = 0; a < LSK_SPARSE_MAX_AXES; ++a) {
    FUZZ_CHECK(ext[a] == prod[a]);
    FUZZ_CHECK(ext[a] <= (UINT64_C(1) << 31));
  }
  lsk_snode n;
  FUZZ_CHECK(lsk_sparse_def_node(d, nodes, &n) == LSK_ERANGE);
  for (unsigned i = 0; i < fields; ++i) {
    const char *t = NULL, *nm = NULL;
    FUZZ_CHECK(lsk_sparse_def_field(d, i, &t, &nm) == LSK_OK && t && nm);
    static const char *const scalars[] = {"char", "uchar", "short", "ushort", "int",
                                          "uint", "long",  "ulong", "float",  "double"};
    int known = 0;
    for (size_t k = 0; k < sizeof scalars / sizeof *scalars; ++k)
      known |= strcmp(t, scalars[k]) == 0;
    FUZZ_CHECK(known);
  }
  char *text = NULL;
  if (lsk_sparse_def_describe(d, &text) == LSK_OK)
    FUZZ_CHECK(text && strlen(text) > 0);
  lsk_free(text);
  text = NULL;
  if (fields > 0) {
    FUZZ_CHECK(lsk_sparse_def_emit_cl(d, &text) == LSK_OK);
    FUZZ_CHECK(text && strstr(text, lsk_sparse_def_name(d)));
  }
  lsk_free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (!text)
    return 0;
  lsk_sparse_def *d = (lsk_sparse_def *)&d;
  int rc = lsk_sparse_def_parse(text, "fuzz.sparse", &d);
  if (rc == LSK_OK) {
    FUZZ_CHECK(d != NULL);
    use_def(d);
    lsk_sparse_def_destroy(d);
  } else {
    FUZZ_CHECK(d == NULL);
    FUZZ_CHECK(rc == LSK_EINVAL || rc == LSK_ENOMEM);
    FUZZ_CHECK(strstr(lsk_context_errmsg(NULL), "fuzz.sparse") != NULL);
  }
  free(text);
  return 0;
}
