/*
 * soa/soa.h: what the soa layer gives the layers above it (algo, mem):
 * the handle types of layouts and SoA objects, which their calls check.
 * The layout and the SoA object are the layer's own (soa/layout.h,
 * soa.c); above, they are used through include/lsk/layout.h and soa.h.
 * Not installed.
 */
#ifndef LSK_SOA_SOA_H
#define LSK_SOA_SOA_H

#include "core/core.h"

extern const lsk__htype LSK__H_LAYOUT, LSK__H_SOA;

/* soa_args.c: one LSK_ARG_SOA expanded (launch/launch.h's
 * lsk__soa_expand_fn, which lsk_soa_create installs). */
int lsk__soa_expand_one(lsk_context *ctx, const void *soa, size_t part, lsk_arg *args, size_t cap,
                        size_t *count, const char *fn, size_t index);

#endif /* LSK_SOA_SOA_H */
