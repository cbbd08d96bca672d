/*
 * smoke.c: both examples end to end, as a program of their own would use
 * them: the pixel pipeline on generated events against its C reference
 * (on one queue, and over two streams), and particle-in-cell steps whose
 * particle count and id sum are kept.
 * Built with the examples, in lsk's tree (ctest examples_smoke) and on
 * their own against an installed lsk (tests/consumer.sh); exits 0 on
 * success, 77 without a device.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pic.h"
#include "pixel.h"

static int pixel(lsk_context *ctx)
{
  lsk_pixel_events *ev = NULL;
  lsk_pixel_result *got = NULL, *want = NULL;
  lsk_pixel *px = NULL;
  lsk_pixel_gen_options go = {.events = 4, .modules = 64, .seed = 7};
  int rc = lsk_pixel_generate(&go, &ev);
  if (!rc)
    rc = lsk_pixel_result_create(ev, &got);
  if (!rc)
    rc = lsk_pixel_result_create(ev, &want);
  if (!rc)
    rc = lsk_pixel_create(ctx, NULL, &px);
  if (!rc)
    rc = lsk_pixel_run(px, ev, NULL);
  if (!rc)
    rc = lsk_pixel_read(px, got);
  if (!rc)
    rc = lsk_pixel_reference(ev, lsk_pixel_threshold(px), want);
  if (!rc)
    rc = lsk_pixel_compare(want, got, 2e-5f);
  /* The same events as batches of one event over two streams. */
  lsk_pixel_stream *s = NULL;
  lsk_pixel_stream_options so = {.streams = 2, .batch_events = 1};
  if (!rc)
    rc = lsk_pixel_stream_create(ctx, &so, &s);
  if (!rc)
    rc = lsk_pixel_stream_run(s, ev, got);
  if (!rc)
    rc = lsk_pixel_compare(want, got, 2e-5f);
  lsk_pixel_stream_destroy(s);
  if (rc)
    fprintf(stderr, "smoke: pixel: %s: %s %s\n", lsk_status_name(rc), lsk_context_errmsg(ctx),
            lsk_context_errmsg(NULL));
  else
    printf("pixel: %zu digis, %zu clusters, %zu hits, as the C reference (one queue, and two "
           "streams)\n",
           got->digis, got->clusters, got->nhits);
  lsk_pixel_destroy(px);
  lsk_pixel_result_destroy(got);
  lsk_pixel_result_destroy(want);
  lsk_pixel_events_destroy(ev);
  return rc;
}

static int pic(lsk_context *ctx)
{
  enum { GX = 8, GY = 6, N = 3000 };
  lsk_particle *p = malloc(N * sizeof *p), *back = malloc(N * sizeof *back);
  uint64_t sum = 0, got = 0;
  for (uint32_t i = 0; p && i < N; ++i) {
    uint32_t h = i * 2654435761u;
    p[i] = (lsk_particle){i + 1, (int32_t)(h % (GX * LSK_PIC_UNIT)),
                          (int32_t)((h >> 7) % (GY * LSK_PIC_UNIT)), (int32_t)(h % 997) - 498,
                          (int32_t)(h % 991) - 495};
    sum += i + 1;
  }
  lsk_pic *pc = NULL;
  int rc = p && back ? lsk_pic_create(ctx, GX, GY, p, N, NULL, &pc) : LSK_ENOMEM;
  for (int s = 0; s < 5 && !rc; ++s)
    rc = lsk_pic_step(pc);
  lsk_pic_stats st;
  if (!rc)
    rc = lsk_pic_read(pc, back, NULL, N, &st);
  for (size_t i = 0; !rc && i < st.particles; ++i)
    got += back[i].id;
  if (!rc && (st.particles != N || got != sum))
    rc = LSK_EVERIFY;
  if (rc)
    fprintf(stderr, "smoke: pic: %s: %s\n", lsk_status_name(rc), lsk_context_errmsg(ctx));
  else
    printf("pic: %d particles after 5 steps, ids kept\n", N);
  lsk_pic_destroy(pc);
  free(p);
  free(back);
  return rc;
}

int main(void)
{
  lsk_context *ctx = NULL;
  int rc = lsk_context_create(NULL, &ctx);
  if (rc) {
    fprintf(stderr, "smoke: %s\n", lsk_context_errmsg(NULL));
    return rc == LSK_ENODEV ? 77 : 1;
  }
  rc = pixel(ctx) || pic(ctx);
  lsk_context_destroy(ctx);
  return rc ? 1 : 0;
}
