/*
 * soa_args.c: the expansion of an LSK_ARG_SOA argument into the plain
 * arguments of its part's view, for the launch layer's lsk__args_plain
 * (which cannot call the soa layer: lsk_soa_create hands it this function).
 */
#include <stdio.h>

#include "launch/launch.h"
#include "soa/soa.h"
#include "lsk/soa.h"

/* Most arguments one part gives: a layout of up to 255 members. */
#define SOA_ARGS_MAX 256

int lsk__soa_expand_one(lsk_context *ctx, const void *soa, size_t part, lsk_arg *args, size_t cap,
                        size_t *count, const char *fn, size_t index)
{
  char what[64];
  snprintf(what, sizeof what, "argument %zu: LSK_ARG_SOA", index);
  int rc = lsk__handle_check(ctx, soa, &LSK__H_SOA, fn, what);
  if (rc)
    return rc;
  const lsk_soa *s = soa;
  if (part >= lsk_soa_parts(s))
    return lsk__fail(ctx, LSK_EINVAL, "%s: argument %zu: LSK_ARG_SOA part %zu: the soa has %zu", fn,
                     index, part, lsk_soa_parts(s));
  lsk_arg tmp[SOA_ARGS_MAX];
  size_t n = 0;
  rc = lsk_soa_args(s, part, NULL, tmp, SOA_ARGS_MAX, &n);
  if (rc)
    return lsk__fail(ctx, rc,
                     "%s: argument %zu: LSK_ARG_SOA part %zu needs %zu arguments; %d at most", fn,
                     index, part, n, SOA_ARGS_MAX);
  for (size_t i = 0; i < n && i < cap; ++i)
    args[i] = tmp[i];
  *count = n;
  return LSK_OK;
}
