/*
 * soa/layout.h: the layout object, shared by layout.c, layout_parse.c,
 * layout_emit.c and soa.c. Private to the soa layer.
 */
#ifndef LSK_SOA_LAYOUT_H
#define LSK_SOA_LAYOUT_H

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

#endif /* LSK_SOA_LAYOUT_H */
