/*
 * layout.h: structure-of-arrays layouts, described once, with byte-exact
 * sizes (the rule of CMSSW's SoA templates), a CMSSW-style dump, and
 * generated OpenCL C and host C accessors.
 *
 * Byte rule, with alignment A (a power of two, default 128) and n elements,
 * align(x) = ceil(x / A) * A:
 *   column of T                 align(n * sizeof(T))
 *   matrix R x C of scalar T    R * C * align(n * sizeof(T)); component k
 *                               (k = row + col * R, column-major as Eigen)
 *                               of element i is at column + i + k * stride,
 *                               stride = align(n * sizeof(T)) / sizeof(T)
 *   scalar T                    align(sizeof(T)), whatever n
 * Members follow in declaration order; the layout's size is the sum.
 *
 * Stagger (lsk's own option, not CMSSW's; off by default): with stagger S
 * (a multiple of A), every column and every matrix component takes S more
 * bytes of padding after its data (align(n * sizeof(T)) + S; a matrix's
 * stride grows to match); scalars do not change. Column k then starts k * S
 * bytes later than under the byte rule above, so that columns are not a
 * power of two apart when n is one (docs/soa.md says what that costs).
 *
 * Types are OpenCL's names: char uchar short ushort int uint long ulong
 * float double, and their vectors (float2, double4, ..., n = 2, 3, 4, 8, 16;
 * a 3-vector takes the room of a 4-vector, as in OpenCL). Matrix members
 * take scalar types only.
 *
 * Layouts are plain host objects: no device, no context. Functions that
 * fail set the calling thread's message (lsk_context_errmsg(NULL)).
 */
#ifndef LSK_LAYOUT_H
#define LSK_LAYOUT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LSK_LAYOUT_DEFAULT_ALIGN 128

typedef struct lsk_layout lsk_layout;

typedef enum lsk_member_kind {
  LSK_MEMBER_COLUMN = 1,
  LSK_MEMBER_MATRIX,
  LSK_MEMBER_SCALAR
} lsk_member_kind;

/* What lsk_layout_member reports; offsets and sizes for a given n. */
typedef struct lsk_member_info {
  const char *name; /* owned by the layout */
  const char *type; /* OpenCL type name, owned by the layout */
  lsk_member_kind kind;
  unsigned rows, cols; /* 1 x 1 except for matrices (vectors: cols 1) */
  size_t type_size;    /* sizeof the type in bytes */
  size_t offset;       /* from the layout's start */
  size_t size;         /* bytes including padding */
  size_t padding;      /* of size: bytes after the data (per component) */
  size_t stride;       /* matrices: elements of T between components */
} lsk_member_info;

/* An empty layout called name (a C identifier, not an OpenCL keyword);
 * align 0 means 128. Errors: LSK_EINVAL (bad name, align not a power of
 * two), LSK_ENOMEM. */
int lsk_layout_create(const char *name, size_t align, lsk_layout **out /* OUT */);
void lsk_layout_destroy(lsk_layout *layout);

/* Adding members. Names must be C identifiers, not OpenCL keywords, and
 * unique in the layout; type an OpenCL scalar or vector name. Errors:
 * LSK_EINVAL with the member and the reason. */
int lsk_layout_add_column(lsk_layout *layout, const char *type, const char *name);
int lsk_layout_add_matrix(lsk_layout *layout, const char *type, unsigned rows, unsigned cols,
                          const char *name);
int lsk_layout_add_scalar(lsk_layout *layout, const char *type, const char *name);

/*
 * lsk_layout_parse: a layout from text, one member per line:
 *     layout NAME [align A] [stagger S]   (first; S: see Stagger above)
 *     column TYPE NAME
 *     matrix TYPE ROWS COLS NAME (COLS = 1: a vector)
 *     scalar TYPE NAME
 * with # comments and blank lines. file names the text in messages
 * ("file:line: ..."). lsk_layout_load reads a file (LSK_EIO).
 */
int lsk_layout_parse(const char *text, const char *file, lsk_layout **out /* OUT */);
int lsk_layout_load(const char *path, lsk_layout **out /* OUT */);

/* Changes the alignment (a power of two, at least the largest member type,
 * dividing the stagger; 0 means 128). LSK_EINVAL otherwise. */
int lsk_layout_set_align(lsk_layout *layout, size_t align);

/* Sets the stagger (see above): a multiple of the alignment, at most
 * LSK_LAYOUT_MAX_STAGGER; 0 (the default) is CMSSW's rule exactly.
 * LSK_EINVAL otherwise. lsk_layout_stagger reads it (0 for a bad layout). */
#define LSK_LAYOUT_MAX_STAGGER (1u << 24)
int lsk_layout_set_stagger(lsk_layout *layout, size_t stagger);
size_t lsk_layout_stagger(const lsk_layout *layout);

const char *lsk_layout_name(const lsk_layout *layout);
size_t lsk_layout_align(const lsk_layout *layout);
size_t lsk_layout_member_count(const lsk_layout *layout);

/* Member i (in declaration order) for n elements. LSK_ERANGE if i is out of
 * range or a size overflows size_t. */
int lsk_layout_member(const lsk_layout *layout, size_t i, size_t n, lsk_member_info *out /* OUT */);
/* Index of the member called name, or LSK_EINVAL. */
int lsk_layout_find(const lsk_layout *layout, const char *name, size_t *index /* OUT */);

/* Bytes for n elements; LSK_ERANGE (not a wrapped value) on overflow. */
int lsk_layout_size(const lsk_layout *layout, size_t n, size_t *bytes /* OUT */);
/* The largest n whose size fits in max_bytes (0: in size_t). */
size_t lsk_layout_max_elements(const lsk_layout *layout, size_t max_bytes);

/*
 * lsk_layout_describe: the CMSSW-style dump for n elements, e.g.
 *   Column x at offset 0 has size 256 and padding 0
 *   Eigen value a at offset 768 has dimension (3 x 1) and per column size 256 and padding 0
 *   Scalar description at offset 3776 has size 8 and padding 56
 *   Final offset = 3904 computeDataSize(...): 3904
 * *text is malloc'd; free it with lsk_free.
 */
int lsk_layout_describe(const lsk_layout *layout, size_t n, char **text /* OUT */);

/* Options of generated code; all zeros means the defaults. */
typedef struct lsk_emit_options {
  /* Members of a view of a subset, comma-separated ("x,y,cov"); NULL: all. */
  const char *members;
  /* Name of the generated view type and functions; NULL: the layout's. */
  const char *view_name;
} lsk_emit_options;

/*
 * lsk_layout_emit_cl: OpenCL C for kernels (see docs/soa.md): a mutable and
 * a const view type, parameters and view construction macros, accessor
 * functions, and the -D switches NAME_CHECK (range checking, default 0) and
 * NAME_RESTRICT (default 1). lsk_layout_emit_c: the host C equivalent,
 * with a const view (NAME_const_host, NAME_as_const, NAME_bind_const,
 * getters only).
 * *text is malloc'd; free it with lsk_free.
 */
int lsk_layout_emit_cl(const lsk_layout *layout, const lsk_emit_options *opt,
                       char **text /* OUT */);
int lsk_layout_emit_c(const lsk_layout *layout, const lsk_emit_options *opt, char **text /* OUT */);

/*
 * lsk_layout_emit_view_cl: one view over members of k layouts of the same
 * element count, laid out in one buffer (the parts of an lsk_soa): members[j]
 * selects layout j's members (comma-separated; NULL: all). Member names must
 * be unique across the layouts. The parameters take one byte offset per
 * layout (p_base_LAYOUT) and one count; lsk_soa_view_args fills them and
 * refuses parts of different lengths. For views over several allocations,
 * views of views, or columns bound one by one: lsk_view below.
 */
int lsk_layout_emit_view_cl(const char *view_name, size_t k, const lsk_layout *const *layouts,
                            const char *const *members, char **text /* OUT */);

/*
 * Views in CMSSW's sense (docs/soa.md, "Views"): a named list of columns,
 * each a member of one of the view's source layouts under the view's name
 * for it, made from layouts (CMSSW's SOA_VIEW_LAYOUT / SOA_VIEW_VALUE) or
 * from other views (a subset of a view, or a join of views of different
 * layouts or allocations). The generated device code takes each column as
 * its own pointer and byte offset (CMSSW's metarecords: one pointer per
 * column), so the columns of one view may live in different buffers;
 * lsk_view_args (soa.h) binds them column by column, lsk_view_args_soa
 * from parts of lsk_soa objects.
 *
 * Column lists are comma-separated names, each "member" or "local=member"
 * (CMSSW's SOA_VIEW_VALUE_RENAME); NULL selects every member. Column names
 * must be unique in a view. A view keeps pointers to its layouts (they must
 * outlive it) and copies what it takes from views (they may go first).
 * A view never changes once made: any number of threads may use one at
 * once (not while one destroys it); the names it returns are its own.
 */
typedef struct lsk_view lsk_view;

/* Options of a view; all zeros means CMSSW's defaults. */
typedef struct lsk_view_options {
  /* The alignment the view promises for every column: a power of two;
   * 0 means 128 (CMSSW's cache line, its VIEW_ALIGNMENT default). */
  size_t align;
  /* 0: relaxed (CMSSW's default): no check, and the generated code
   * assumes no more than each type's own alignment. 1: enforced: the host
   * refuses a column whose offset is not a multiple of align
   * (lsk_view_args), the generated constructor checks every column's
   * address on the device (a verify error naming the column) and tells
   * the compiler the alignment. */
  int enforce_align;
} lsk_view_options;

/* A view called name over members of layouts[0..k) (columns[j] selects
 * layout j's; columns NULL: all of every layout). Errors: LSK_EINVAL (bad
 * name, unknown or repeated member, duplicate column name, a view of no
 * column, bad options), LSK_ENOMEM. */
int lsk_view_create(const char *name, size_t k, const lsk_layout *const *layouts,
                    const char *const *columns, const lsk_view_options *opt,
                    lsk_view **out /* OUT */);
/* A view from the columns of views[0..k) (columns[j] selects, and may
 * rename, view j's columns by their names there; NULL: all). Its sources
 * are those of views[0], then views[1]'s, ...: a layout that two views
 * share is two sources, which lsk_view_args_soa may bind to different
 * allocations. k = 1 with a list is a subset of one view. Errors as above. */
int lsk_view_from_views(const char *name, size_t k, const lsk_view *const *views,
                        const char *const *columns, const lsk_view_options *opt,
                        lsk_view **out /* OUT */);
void lsk_view_destroy(lsk_view *view);

/* The view's name; its columns, in the order of its parameters and of
 * lsk_view_args' mem; the name of column i (NULL for a bad i); its number
 * of sources (the layouts lsk_view_args_soa binds, in order). */
const char *lsk_view_name(const lsk_view *view);
size_t lsk_view_column_count(const lsk_view *view);
const char *lsk_view_column_name(const lsk_view *view, size_t i);
size_t lsk_view_source_count(const lsk_view *view);

/*
 * lsk_view_emit_cl: OpenCL C for the view (docs/soa.md): NAME_PARAMS(p)
 * (per column: its pointer, a ulong byte offset p_off_C and, for a matrix,
 * a uint stride p_stride_C in elements; then the count p_n), NAME_VIEW(p),
 * the const forms, the accessors of lsk_layout_emit_cl under the columns'
 * names, NAME_CHECK and NAME_RESTRICT. *text is malloc'd (lsk_free).
 */
int lsk_view_emit_cl(const lsk_view *view, char **text /* OUT */);

/* Frees text returned by lsk. NULL is a no-op. */
void lsk_free(void *p);

#ifdef __cplusplus
}
#endif
#endif /* LSK_LAYOUT_H */
