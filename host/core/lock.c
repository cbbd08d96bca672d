/*
 * lock.c: a context's locks and its set of descendants (handle.c), made
 * before the first message on it and freed at its destroy: its lock
 * (lsk__lock: what must not interleave between threads launching on it)
 * and the lock of its per-thread messages (status.c).
 */
#include <stdlib.h>

#include "core/objects.h"

int lsk__context_sync_init(lsk_context *ctx)
{
  atomic_init(&ctx->allocated, 0);
  int err = pthread_mutex_init(&ctx->msg_lock, NULL);
  if (err)
    return err;
  if ((err = pthread_mutex_init(&ctx->lock, NULL)) != 0) {
    pthread_mutex_destroy(&ctx->msg_lock);
    return err;
  }
  if ((err = lsk__hset_init(&ctx->kids)) != 0) {
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->msg_lock);
  }
  return err;
}

void lsk__context_sync_free(lsk_context *ctx)
{
  for (lsk__msg *m = ctx->msgs, *next; m; m = next) {
    next = m->next;
    free(m->text);
    free(m);
  }
  ctx->msgs = NULL;
  lsk__hset_free(&ctx->kids);
  pthread_mutex_destroy(&ctx->lock);
  pthread_mutex_destroy(&ctx->msg_lock);
}

void lsk__lock(lsk_context *ctx)
{
  if (ctx)
    pthread_mutex_lock(&ctx->lock);
}

void lsk__unlock(lsk_context *ctx)
{
  if (ctx)
    pthread_mutex_unlock(&ctx->lock);
}
