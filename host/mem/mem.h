/*
 * mem/mem.h: the mem layer's header (device-side memory: the pool and its
 * GC, chunked lists, the device vector), the top of the library's layers:
 * the layers below it (algo/algo.h brings launch, soa and core), and the
 * pool's handle type, the parent of its lists. The pool object is the
 * layer's own (mem/pool.h). Not installed.
 */
#ifndef LSK_MEM_MEM_H
#define LSK_MEM_MEM_H

#include "algo/algo.h"

extern const lsk__htype LSK__H_POOL;

#endif /* LSK_MEM_MEM_H */
