/*
 * sparse/sparse.h: the sparse layer's header (sparse fields, after Taichi's
 * SNodes), the top of the library's layers: the layers below it (mem/mem.h
 * brings them all) and the handle types of its two objects, whose structs
 * are the layer's own (sparse/def.h, sparse/structure.h). Not installed.
 */
#ifndef LSK_SPARSE_SPARSE_H
#define LSK_SPARSE_SPARSE_H

#include "lsk/sparse.h"
#include "mem/mem.h"

extern const lsk__htype LSK__H_SPARSE_DEF, LSK__H_SPARSE;

#endif /* LSK_SPARSE_SPARSE_H */
