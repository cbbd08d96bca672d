/*
 * lsk_block_ops_t.h: the built-in collectives of one type, LSK__BTYPE
 * (defined by the includer, lsk_block.h, once per type; #undef'd here):
 * add, min and max (lsk_block_t.h, once each, with the type's add and
 * identities from lsk_type.h) and the broadcast. A template: no include
 * guard; cmake/embed.cmake puts its text, and lsk_block_t.h's, at every
 * #include, behind #line markers.
 */
#define LSK__BT LSK__BTYPE
#define LSK__BSUFFIX LSK__PASTE(add_, LSK__BTYPE)
#define LSK__BOP LSK__ADD(LSK__BTYPE)
#define LSK__BID 0
#define LSK__BCOMMUTES 1
#define LSK__BENTRY 0
#include "lsk_block_t.h"

#define LSK__BT LSK__BTYPE
#define LSK__BSUFFIX LSK__PASTE(min_, LSK__BTYPE)
#define LSK__BOP lsk__op_min
#define LSK__BID LSK__MIN_ID(LSK__BTYPE)
#define LSK__BCOMMUTES 1
#define LSK__BENTRY 1
#include "lsk_block_t.h"

#define LSK__BT LSK__BTYPE
#define LSK__BSUFFIX LSK__PASTE(max_, LSK__BTYPE)
#define LSK__BOP lsk__op_max
#define LSK__BID LSK__MAX_ID(LSK__BTYPE)
#define LSK__BCOMMUTES 1
#define LSK__BENTRY 1
#include "lsk_block_t.h"

/* The master's v, to every worker. */
LSK_COLLECTIVE LSK__BTYPE LSK__PASTE(lsk_block_bcast_, LSK__BTYPE)(__local LSK__BTYPE *s,
                                                                   LSK__BTYPE v)
{
  if (lsk_worker() == 0)
    s[0] = v;
  lsk_sync_local();
  LSK__BTYPE r = s[0];
  lsk_sync_local();
  return r;
}

#undef LSK__BTYPE
