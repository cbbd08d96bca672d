/*
 * soa/layout.h: the layout object, shared by layout.c, layout_parse.c,
 * layout_emit.c, soa.c and the views (view.c, view_emit.c, view_args.c).
 * Private to the soa layer.
 */
#ifndef LSK_SOA_LAYOUT_H
#define LSK_SOA_LAYOUT_H

#include "lsk/soa.h"
#include "soa/soa.h"

typedef struct lsk__member {
  char *name;
  char *type;
  lsk_member_kind kind;
  unsigned rows, cols;
  size_t type_size;
  int scalar_type;
} lsk__member;

struct lsk_layout {
  lsk__handle h;
  char *name;
  size_t align;
  /* lsk's own, not CMSSW's: bytes added after every column and matrix
   * component (a multiple of align; 0, the default, is the byte rule). */
  size_t stagger;
  lsk__member *members;
  size_t count;
};

/* A view (view.c): columns over sources. Each column is member `member`
 * of source `src`'s layout, called `name` in the view. */
typedef struct lsk__vcol {
  size_t src, member;
  char *name;
} lsk__vcol;

struct lsk_view {
  lsk__handle h;
  char *name;
  size_t align;
  int enforce;
  const lsk_layout **src; /* the caller's layouts: they outlive the view */
  size_t nsrc;
  lsk__vcol *cols;
  size_t ncol;
};
extern const lsk__htype LSK__H_VIEW;

/* soa.c: part j's layout (NULL for a bad j; s checked by the caller). */
const lsk_layout *lsk__soa_layout(const lsk_soa *s, size_t j);

/* layout_emit.c: member m's device accessors, called N in view V (upper
 * case U; suffix "" or "_const", cq "" or "const"); what is what a failed
 * range check names. Layout views and lsk_view views share them. */
void lsk__emit_accessors(lsk__sb *sb, const lsk__member *m, const char *V, const char *U,
                         const char *suffix, const char *cq, const char *N, const char *what);
/* layout_emit.c: a generated view's NAME_CHECK and NAME_RESTRICT switches
 * (U: the view's name in upper case). */
void lsk__emit_switches(lsk__sb *sb, const char *U);

#endif /* LSK_SOA_LAYOUT_H */
