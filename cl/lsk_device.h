/*
 * lsk_device.h: the lsk device library, for reading and for offline use
 * (-I with this directory). The host embeds the same files, in this order,
 * in front of every program, so lsk kernels need no #include.
 *
 * This list is the only one: CMake reads the #include lines below to embed
 * the files (cmake/embed.cmake), in this order, and fails the build if a
 * header of this directory is missing here or comes before one it
 * includes. The embedded text has no file system, so the embedding drops
 * each file's #include "lsk_*.h" lines; the order stands in for them.
 * Templates (lsk_*_t.h: the block collectives of each type) are not in
 * the list: their text comes in place of each #include of them.
 * lsk_barrier_guards.h comes last: its macros must not touch the library's
 * own function bodies (lsk_foreach.h says why they exist).
 */
#ifndef LSK_CL_DEVICE_H
#define LSK_CL_DEVICE_H
#include "lsk_shared.h"
#include "lsk_config.h"
#include "lsk_idx.h"
#include "lsk_foreach.h"
#include "lsk_var.h"
#include "lsk_verify.h"
#include "lsk_atomic.h"
#include "lsk_type.h"
#include "lsk_block_define.h"
#include "lsk_block.h"
#include "lsk_vector.h"
#include "lsk_pool.h"
#include "lsk_list.h"
#include "lsk_sparse.h"
#include "lsk_assoc.h"
#include "lsk_soa.h"
#include "lsk_random.h"
#include "lsk_barrier_guards.h"
#endif /* LSK_CL_DEVICE_H */
