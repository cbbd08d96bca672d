/*
 * make_corpus.c: writes the seeds of corpus/pixel_file, the fuzz target of
 * the pixel event file (fuzz_pixel_file.c): small generated event sets,
 * one without truth. Run from the repository root after a change of the
 * format (the target lsk_pixel_fuzz_corpus of lsk's build):
 *   build/examples/lsk_pixel_fuzz_corpus examples/pixel/fuzz/corpus
 * (Moved from lsk's tests/fuzz/make_corpus.c, which writes the seeds of
 * lsk's own binary formats.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "pixel.h"

static int pixel(const char *dir, const char *name, uint32_t events, uint32_t modules,
                 uint64_t seed, int truth)
{
  lsk_pixel_gen_options opt = {.events = events, .modules = modules, .seed = seed};
  lsk_pixel_events *ev = NULL;
  char path[512];
  snprintf(path, sizeof path, "%s/pixel_file/%s", dir, name);
  int rc = lsk_pixel_generate(&opt, &ev);
  if (!rc && !truth) {
    free(ev->truth);
    ev->truth = NULL;
  }
  if (!rc)
    rc = lsk_pixel_events_write(ev, path);
  lsk_pixel_events_destroy(ev);
  if (rc)
    fprintf(stderr, "%s: %s\n", path, lsk_context_errmsg(NULL));
  return rc;
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: lsk_pixel_fuzz_corpus CORPUS_DIR\n");
    return 2;
  }
  const char *d = argv[1];
  int bad = pixel(d, "one_event_one_module", 1, 1, 1, 1) ||
            pixel(d, "two_events_four_modules", 2, 4, 7, 1) ||
            pixel(d, "three_events_no_truth", 3, 2, 3, 0) ||
            pixel(d, "one_event_sixteen_modules", 1, 16, 42, 1);
  return bad;
}
