/*
 * mpi.c: lsk_mpi (include/lsk/mpi.h): a rank's device and context, the
 * agreement on failure, and reductions over the ranks in rank order.
 * Built on liblsk's public API only, like any code on lsk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

const lsk_handle_type lsk__mpi_type = {"lsk_mpi", NULL, 0};

/* The mark of a message older than the thread's latest liblsk call. */
#define EARLIER "(earlier) "

/* The longest message passed on by lsk_mpi_agree. */
#define MSG_MAX 1024

int lsk__mpi_fail(lsk_context *ctx, int status, const char *fmt, ...)
{
  char text[MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return lsk_context_set_error(ctx, status, "%s", text);
}

int lsk__mpi_return(lsk_context *ctx, int rc)
{
  const char *e = lsk_errmsg();
  if (rc && strncmp(e, EARLIER, strlen(EARLIER)) == 0)
    lsk_context_set_error(ctx, rc, "%s", e + strlen(EARLIER));
  return rc;
}

int lsk__mpi_check(lsk_context *ctx, int mrc, const char *fn, const char *call)
{
  if (mrc == MPI_SUCCESS)
    return LSK_OK;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(mrc, text, &len) != MPI_SUCCESS)
    snprintf(text, sizeof text, "MPI error %d", mrc);
  return lsk__mpi_fail(ctx, LSK_ECOMM, "%s: %s failed: %s", fn, call, text);
}

/* The devices the ranks of a node share out: those the selector list
 * names (lsk_device_select_all), or, with neither a selector nor
 * LSK_DEVICE, every GPU (the first device where there is none). */
static int match_devices(const char *sel, unsigned *idx, size_t cap, size_t *count)
{
  if ((sel && *sel) || getenv("LSK_DEVICE"))
    return lsk_device_select_all(sel, idx, cap, count);
  lsk_device_info *list;
  size_t n;
  int rc = lsk_device_list(&list, &n);
  if (rc)
    return rc;
  *count = 0;
  for (size_t i = 0; i < n && *count < cap; ++i)
    if (list[i].is_gpu)
      idx[(*count)++] = (unsigned)i;
  lsk_device_list_free(list);
  return *count ? LSK_OK : lsk_device_select_all(NULL, idx, cap, count);
}

/* The status of every rank combined: the lowest failing rank's status
 * and message. fn names the caller for MPI's own failures. */
static int agree(MPI_Comm comm, int rank, int size, lsk_context *ctx, int status, const char *fn)
{
  int me = status ? rank : size, first = size;
  int mrc = MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm);
  if (mrc != MPI_SUCCESS)
    return lsk__mpi_check(ctx, mrc, fn, "MPI_Allreduce");
  if (first == size)
    return LSK_OK;
  struct {
    int status;
    char text[MSG_MAX];
  } m = {status, ""};
  if (rank == first) {
    /* The rank's last failure, marked or not: the caller's cleanup may
     * have come between (lsk__mpi_return). */
    const char *t = lsk_context_errmsg(ctx);
    snprintf(m.text, sizeof m.text, "%s",
             strncmp(t, EARLIER, strlen(EARLIER)) ? t : t + strlen(EARLIER));
  }
  mrc = MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, comm);
  if (mrc != MPI_SUCCESS)
    return lsk__mpi_check(ctx, mrc, fn, "MPI_Bcast");
  m.text[sizeof m.text - 1] = 0;
  return lsk__mpi_fail(ctx, m.status, "%s: rank %d: %s", fn, first, m.text);
}

int lsk__mpi_agree(lsk_mpi *m, int status, const char *fn)
{
  return agree(m->comm, m->rank, m->size, m->ctx, status, fn);
}

int lsk_mpi_create(const lsk_mpi_options *opt, lsk_mpi **out)
{
  if (out)
    *out = NULL;
  int init = 0;
  MPI_Initialized(&init);
  if (!init)
    return lsk__mpi_fail(NULL, LSK_EINVAL, "%s: MPI is not initialized (call MPI_Init first)",
                         __func__);
  MPI_Comm user = opt && opt->comm ? *opt->comm : MPI_COMM_WORLD;
  lsk_mpi *m = calloc(1, sizeof *m);
  if (!m)
    return lsk__mpi_fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
  m->comm = m->node = MPI_COMM_NULL;
  int rc = lsk__mpi_check(NULL, MPI_Comm_dup(user, &m->comm), __func__, "MPI_Comm_dup");
  if (rc) {
    free(m);
    return rc; /* a bad communicator: MPI's own handler has spoken */
  }
  MPI_Comm_rank(m->comm, &m->rank);
  MPI_Comm_size(m->comm, &m->size);
  rc = lsk__mpi_check(
      NULL, MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &m->node),
      __func__, "MPI_Comm_split_type");
  if (!rc)
    MPI_Comm_rank(m->node, &m->node_rank);
  if (!rc && !out)
    rc = lsk__mpi_fail(NULL, LSK_EINVAL, "%s: out is NULL", __func__);
  m->device = -1;
  if (!rc) {
    const char *sel = opt && opt->devices ? opt->devices : getenv("LSK_DEVICE");
    unsigned *idx = NULL;
    lsk_device_info *list;
    size_t n = 0, count = 0;
    if ((rc = lsk_device_list(&list, &n)) == LSK_OK) {
      lsk_device_list_free(list);
      idx = malloc(n * sizeof *idx + 1);
      rc = idx ? match_devices(sel, idx, n ? n : 1, &count)
               : lsk__mpi_fail(NULL, LSK_ENOMEM, "%s: out of memory", __func__);
    }
    if (!rc) {
      m->device = (int)idx[(size_t)m->node_rank % count];
      char dev[16];
      snprintf(dev, sizeof dev, "%d", m->device);
      lsk_context_options co = opt && opt->context ? *opt->context : (lsk_context_options){0};
      co.device = dev;
      rc = lsk_context_create(&co, &m->ctx);
    }
    free(idx);
  }
  if (!rc)
    rc = lsk_handle_add(m, &lsk__mpi_type, NULL);
  /* Agreed through the thread's message where there is no context yet. */
  int any = agree(m->comm, m->rank, m->size, m->ctx, rc, __func__);
  if (any) {
    if (m->ctx) /* the message outlives the context: the thread's */
      lsk__mpi_fail(NULL, any, "%s", lsk_context_errmsg(m->ctx));
    if (!rc)
      lsk_handle_remove(m, &lsk__mpi_type, __func__);
    lsk_context_destroy(m->ctx);
    MPI_Comm_free(&m->node);
    MPI_Comm_free(&m->comm);
    free(m);
    return lsk__mpi_return(NULL, any);
  }
  *out = m;
  return LSK_OK;
}

void lsk_mpi_destroy(lsk_mpi *m)
{
  if (!m || lsk_handle_remove(m, &lsk__mpi_type, __func__))
    return;
  lsk_context_destroy(m->ctx);
  if (m->node != MPI_COMM_NULL)
    MPI_Comm_free(&m->node);
  MPI_Comm_free(&m->comm);
  free(m);
}

#define LIVE_OR(val, m, fn)                                                                        \
  do {                                                                                             \
    if (!(m) || lsk_handle_check(NULL, (m), &lsk__mpi_type, (fn), "m"))                            \
      return val;                                                                                  \
  } while (0)

lsk_context *lsk_mpi_context(const lsk_mpi *m)
{
  LIVE_OR(NULL, m, __func__);
  return m->ctx;
}

MPI_Comm lsk_mpi_comm(const lsk_mpi *m)
{
  LIVE_OR(MPI_COMM_NULL, m, __func__);
  return m->comm;
}

int lsk_mpi_rank(const lsk_mpi *m)
{
  LIVE_OR(-1, m, __func__);
  return m->rank;
}

int lsk_mpi_size(const lsk_mpi *m)
{
  LIVE_OR(-1, m, __func__);
  return m->size;
}

int lsk_mpi_node_rank(const lsk_mpi *m)
{
  LIVE_OR(-1, m, __func__);
  return m->node_rank;
}

int lsk_mpi_device(const lsk_mpi *m)
{
  LIVE_OR(-1, m, __func__);
  return m->device;
}

int lsk_mpi_agree(lsk_mpi *m, int status)
{
  int rc = lsk_handle_check(NULL, m, &lsk__mpi_type, __func__, "m");
  if (rc)
    return rc;
  return lsk__mpi_agree(m, status, __func__);
}

/* One element of type: combine b into a (op), NaN ignored by min/max. */
static void combine(lsk_type type, lsk_op op, void *a, const void *b)
{
#define COMBINE(T)                                                                                 \
  {                                                                                                \
    T x, y;                                                                                        \
    memcpy(&x, a, sizeof x);                                                                       \
    memcpy(&y, b, sizeof y);                                                                       \
    if (op == LSK_OP_SUM)                                                                          \
      x = x + y;                                                                                   \
    else if (y != y)                                                                               \
      ; /* NaN: ignored */                                                                         \
    else if (x != x || (op == LSK_OP_MIN ? y < x : y > x))                                         \
      x = y;                                                                                       \
    memcpy(a, &x, sizeof x);                                                                       \
    break;                                                                                         \
  }
  switch (type) {
  case LSK_TYPE_INT: { /* wraps around, as on the device */
    uint32_t x, y;
    int32_t sx, sy;
    memcpy(&sx, a, 4);
    memcpy(&sy, b, 4);
    if (op == LSK_OP_SUM) {
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      x += y;
      memcpy(a, &x, 4);
    } else if (op == LSK_OP_MIN ? sy < sx : sy > sx) {
      memcpy(a, b, 4);
    }
    break;
  }
  case LSK_TYPE_LONG: {
    uint64_t x, y;
    int64_t sx, sy;
    memcpy(&sx, a, 8);
    memcpy(&sy, b, 8);
    if (op == LSK_OP_SUM) {
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      x += y;
      memcpy(a, &x, 8);
    } else if (op == LSK_OP_MIN ? sy < sx : sy > sx) {
      memcpy(a, b, 8);
    }
    break;
  }
  case LSK_TYPE_UINT: COMBINE(uint32_t)
  case LSK_TYPE_ULONG: COMBINE(uint64_t)
  case LSK_TYPE_FLOAT: COMBINE(float)
  case LSK_TYPE_DOUBLE: COMBINE(double)
  }
#undef COMBINE
}

static int check_type_op(lsk_context *ctx, const char *fn, lsk_type type, lsk_op op)
{
  if (!lsk_type_size(type))
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: type %d is not an lsk_type", fn, (int)type);
  if (op != LSK_OP_SUM && op != LSK_OP_MIN && op != LSK_OP_MAX)
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: op %d is not an lsk_op", fn, (int)op);
  return LSK_OK;
}

/* A host value's size against the type's (lsk_reduce's message). */
static int check_size(lsk_context *ctx, const char *fn, const char *what, lsk_type type,
                      size_t size)
{
  static const char *const upper[] = {"?", "INT", "UINT", "LONG", "ULONG", "FLOAT", "DOUBLE"};
  if (size != lsk_type_size(type))
    return lsk__mpi_fail(ctx, LSK_EINVAL, "%s: %s %zu does not match LSK_TYPE_%s (%zu bytes)", fn,
                         what, size, upper[lsk_type_size(type) ? type : 0], lsk_type_size(type));
  return LSK_OK;
}

/* Every rank's value gathered and combined from rank 0 up, after the
 * agreement on rc (the arguments' check): no rank enters the gather alone,
 * and every rank has its buffer before it does. */
static int allreduce(lsk_mpi *m, const char *fn, int rc, lsk_type type, lsk_op op,
                     const void *local, void *result)
{
  size_t es = lsk_type_size(type);
  unsigned char *all = NULL;
  if (!rc && !(all = malloc(es * (size_t)m->size)))
    rc = lsk__mpi_fail(m->ctx, LSK_ENOMEM, "%s: out of memory", fn);
  if ((rc = lsk__mpi_agree(m, rc, fn))) {
    free(all);
    return rc;
  }
  unsigned char acc[8] = {0};
  memcpy(acc, local, es);
  rc =
      lsk__mpi_check(m->ctx, MPI_Allgather(acc, (int)es, MPI_BYTE, all, (int)es, MPI_BYTE, m->comm),
                     fn, "MPI_Allgather");
  if (!rc) {
    memcpy(acc, all, es);
    for (int r = 1; r < m->size; ++r)
      combine(type, op, acc, all + (size_t)r * es);
    memcpy(result, acc, es);
  }
  free(all);
  return lsk__mpi_agree(m, rc, fn);
}

int lsk_mpi_allreduce(lsk_mpi *m, lsk_type type, lsk_op op, const void *local, void *result,
                      size_t size)
{
  int rc = lsk_handle_check(NULL, m, &lsk__mpi_type, __func__, "m");
  if (rc)
    return rc;
  rc = check_type_op(m->ctx, __func__, type, op);
  if (!rc && (!local || !result))
    rc = lsk__mpi_fail(m->ctx, LSK_EINVAL, "%s: %s is NULL", __func__, !local ? "local" : "result");
  if (!rc)
    rc = check_size(m->ctx, __func__, "size", type, size);
  return allreduce(m, __func__, rc, type, op, local, result);
}

int lsk_mpi_reduce(lsk_mpi *m, lsk_type type, lsk_op op, lsk_buffer *in, size_t offset, size_t n,
                   void *result, size_t result_size, const lsk_algo_options *opt,
                   const lsk_async *on)
{
  int rc = lsk_handle_check(NULL, m, &lsk__mpi_type, __func__, "m");
  if (rc)
    return rc;
  unsigned char local[8] = {0};
  rc = check_type_op(m->ctx, __func__, type, op);
  if (!rc && !result)
    rc = lsk__mpi_fail(m->ctx, LSK_EINVAL, "%s: result is NULL", __func__);
  if (!rc)
    rc = check_size(m->ctx, __func__, "result_size", type, result_size);
  if (!rc)
    rc = lsk_reduce(m->ctx, type, op, in, offset, n, local, lsk_type_size(type), opt, on);
  return allreduce(m, __func__, rc, type, op, local, result);
}
