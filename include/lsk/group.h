/*
 * group.h: several devices in one process (docs/devices.md).
 *
 * A group is an lsk_context per member device, each an ordinary context
 * (every lsk call works on it, with its own default queue and any others
 * made with lsk_queue_create). The members of one platform are made on one
 * shared OpenCL context, so that a buffer of one can be used by the others
 * (lsk_group_share); members of different platforms (PoCL and Mesa's
 * rusticl, say) have contexts of their own and exchange data through the
 * host. A member may be a whole device or a sub-device: with
 * lsk_group_options.partition, each selected device is split into equal
 * sub-devices (clCreateSubDevices), each a member.
 *
 * Work is spread over the members by splitting a 1-D range by weights
 * (lsk_group_split): weights given by the caller, or measured once per
 * group with a short triad on each member (lsk_group_weights).
 *
 * Messages: every function here reports to the calling thread's message
 * (lsk_context_errmsg(NULL)), naming the function, the member and its
 * device; a member's own calls report on its context as always.
 *
 * Thread-safety: different members may be driven by different threads at
 * once (they are different contexts, docs/threads.md). lsk_group_size,
 * _context, _share, _weights, _split and _finish may be called from several
 * threads (the measurement is made once, under the group's lock); create
 * and destroy from one thread, never racing with a use of the group or of
 * its members.
 */
#ifndef LSK_GROUP_H
#define LSK_GROUP_H

#include "buffer.h"
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most members of a group. */
#define LSK_GROUP_MAX 64u

typedef struct lsk_group lsk_group;

/* All zeros means the defaults. */
typedef struct lsk_group_options {
  /* 0: each selected device is a member. k from 2 to LSK_GROUP_MAX: each
   * selected device is split into k sub-devices of equal compute units
   * (clCreateSubDevices, CL_DEVICE_PARTITION_EQUALLY with compute_units / k
   * each: units left over stay unused), each a member, one after the
   * other. The device must support it (PoCL's CPU device does, GPUs
   * generally do not): LSK_EINVAL naming the device otherwise. A
   * sub-device's lsk_device_info.partition says what it is, and its tune
   * choices (tune.h) are its own, not its parent's. */
  unsigned partition;
  /* Every member's context options (cache, profiling, tune directory,
   * trace, buffer cache: context.h); .device must be NULL: the selector
   * names the devices. */
  lsk_context_options context;
} lsk_group_options;

/*
 * lsk_group_create: a group of the devices that selector names: a
 * comma-separated list of device selectors (device.h: an index, "P:D", a
 * text, "*"), each naming every device it matches, not only the first:
 * "pthread" is every device whose name holds "pthread", "0,2" devices 0
 * and 2, "pocl,llvmpipe" PoCL's devices and then rusticl's, "*" every
 * device. Members come in the list's order, each part's devices in the
 * order of lsk_device_list; a device named twice is one member. NULL or
 * "": LSK_DEVICE read the same way, else the one device that
 * lsk_device_select(NULL) picks (a group of one). opt may be NULL.
 * Errors: LSK_EINVAL (out NULL, an empty part, opt->partition 1 or above
 * LSK_GROUP_MAX, a device that cannot be partitioned so, more than
 * LSK_GROUP_MAX members, opt->context.device set), LSK_ENODEV (a part
 * that matches no device: the message lists the devices), LSK_ENOMEM,
 * OpenCL codes. On failure *out is NULL and nothing is left behind.
 */
int lsk_group_create(const char *selector, const lsk_group_options *opt, lsk_group **out /* OUT */);

/* lsk_group_destroy: destroys every member's context (lsk_context_destroy:
 * it waits for their queues; destroy what was made on them first). NULL
 * is a no-op; a handle that is not live is left alone (thread message). */
void lsk_group_destroy(lsk_group *g);

/* lsk_group_size: the number of members; 0 for a bad g. */
unsigned lsk_group_size(const lsk_group *g);

/* lsk_group_context: member's context, owned by the group (do not
 * destroy it); NULL for a bad g or a member out of range. Two members
 * share an OpenCL context where lsk_context_cl gives the same for both. */
lsk_context *lsk_group_context(const lsk_group *g, unsigned member);

/*
 * lsk_group_share: buf (a buffer of lsk_buffer_create on a member's
 * context) as a buffer of member's context too: another handle of the
 * same memory, which member's kernels and transfers may use (destroy it
 * with lsk_buffer_destroy; the memory lives until both handles are gone).
 * The two members must share an OpenCL context (the same platform).
 * Commands of different members on one buffer are ordered only by the
 * host waiting (lsk_context_finish, lsk_group_finish) between them.
 * Errors: LSK_EINVAL (a NULL, buf of no member, a buffer of the buffer
 * cache, member out of range, members on different OpenCL contexts),
 * LSK_ERANGE (its bytes with what member's context holds exceed the
 * device's memory), LSK_ENOMEM, OpenCL codes.
 */
int lsk_group_share(lsk_group *g, lsk_buffer *buf, unsigned member, lsk_buffer **out /* OUT */);

/* lsk_group_finish: lsk_context_finish on every member, each waited for
 * even after a failure; the first failure (by member) is returned, its
 * message naming the member. */
int lsk_group_finish(lsk_group *g);

/*
 * lsk_group_weights: each member's bandwidth on a short triad
 * (a[i] = b[i] + s c[i] over floats, from 1 Mi elements, four times more
 * while a run takes under a millisecond, up to 16 Mi), in GB/s (10^9 bytes
 * read and written per second), each member alone: after a run that
 * builds, three rounds of one run on each member in turn, the best of
 * each (docs/devices.md). Measured at the first call (or the first
 * lsk_group_split without weights) and kept: later calls return the same.
 * weights gets lsk_group_size(g) values. Members that share a memory (the
 * sub-devices of one CPU) each measure it alone: use the weights for how
 * the members compare, not as what they reach together.
 * Errors: LSK_EINVAL (a NULL), and those of the triad's build and launch
 * on a member (the message names it).
 */
int lsk_group_weights(lsk_group *g, double *weights /* OUT */);

/*
 * lsk_group_split: splits the range [0, n) over the members by weights
 * (lsk_group_size(g) of them; NULL: lsk_group_weights'): member i gets
 * [first[i], first[i + 1]); first gets lsk_group_size(g) + 1 values. The
 * rule is lsk_split_range's. Errors: those of lsk_split_range and, for
 * weights NULL, of lsk_group_weights.
 */
int lsk_group_split(lsk_group *g, size_t n, const double *weights, size_t *first /* OUT */);

/*
 * lsk_split_range: splits [0, n) into parts consecutive ranges by
 * weights[0..parts): part i is [first[i], first[i + 1]), first[0] = 0,
 * first[parts] = n, first never decreasing: every element is in exactly
 * one part. The rule: first[i] is the nearest integer to
 * n * (weights[0] + ... + weights[i - 1]) / (the sum of all weights),
 * halves rounded up; so each part is within one element of its exact
 * share. Worked: n = 10 over weights 1, 1, 1 gives first = 0, 3, 7, 10
 * (3.33 rounds to 3, 6.67 to 7); n = 3 over 1, 1 gives 0, 2, 3 (1.5 rounds
 * up); n = 2 over four equal weights gives 0, 1, 1, 2, 2 (parts of 1, 0,
 * 1, 0 elements). The sums are taken in double: exact as above for n below
 * 2^52 and weights whose sums double represents. To split in units of g
 * elements (blocks, events), split ceil(n / g) units and multiply.
 * Errors: LSK_EINVAL (weights or first NULL, parts 0, a weight not
 * positive or not finite: 0, negative, NaN, infinite; the weights' sum
 * not finite), the message naming the weight and its value.
 */
int lsk_split_range(size_t n, const double *weights, unsigned parts, size_t *first /* OUT */);

#ifdef __cplusplus
}
#endif
#endif /* LSK_GROUP_H */
