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

#endif /* LSK_SOA_SOA_H */
