/*
 * lsk.h: the one header users include. It only includes the others.
 */
#ifndef LSK_H
#define LSK_H

#include "lsk/version.h"
#include "lsk/status.h"
#include "lsk/device.h"
#include "lsk/context.h"
#include "lsk/queue.h"
#include "lsk/handle.h"
#include "lsk/buffer.h"
#include "lsk/pinned.h"
#include "lsk/trace.h"
#include "lsk/program.h"
#include "lsk/tune.h"
#include "lsk/layout.h"
#include "lsk/soa.h"
#include "lsk/algo.h"
#include "lsk/reduce.h"
#include "lsk/scan.h"
#include "lsk/compact.h"
#include "lsk/vector.h"
#include "lsk/pool.h"
#include "lsk/chunklist.h"
#include "lsk/assoc.h"
#include "lsk/random.h"
#include "lsk/histogram.h"
#include "lsk/grid.h"
#include "lsk/group.h"
#include "lsk/sort.h"
#include "lsk/sparse.h"

#endif /* LSK_H */
