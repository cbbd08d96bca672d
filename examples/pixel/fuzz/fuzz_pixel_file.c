/*
 * fuzz_pixel_file.c: the pixel example's event file
 * (lsk_pixel_events_read, which takes a path: the input is written to a
 * file of this process first). An accepted file must pass
 * lsk_pixel_events_check, hold at most 2^24 module slots, go through the
 * plain-C reference pipeline, and write back byte for byte (the format has
 * one encoding per event set).
 *
 * Built in lsk's tree only, by lsk's fuzz harness (tests/fuzz: fuzz.h,
 * replay.c, the libFuzzer build), which takes the examples' targets from
 * examples/CMakeLists.txt: ctest fuzz_replay_pixel_file replays the seeds
 * of corpus/pixel_file; fuzz_pixel_file fuzzes a few seconds with
 * pixel_file.dict, where clang links libFuzzer; tests/fuzz/run.sh
 * pixel_file SECONDS runs a campaign.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "pixel.h"

static char in_path[256], out_path[256];

static void make_paths(void)
{
  if (in_path[0])
    return;
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(in_path, sizeof in_path, "%s/lsk_fuzz_pixel_in.%ld", dir, (long)getpid());
  snprintf(out_path, sizeof out_path, "%s/lsk_fuzz_pixel_out.%ld", dir, (long)getpid());
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  int ok = fwrite(data, 1, size, f) == size;
  return (fclose(f) == 0) && ok;
}

/* The file at path equals data[0..size). */
static int same_file(const char *path, const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  unsigned char *b = malloc(size + 1);
  size_t got = b ? fread(b, 1, size + 1, f) : 0;
  int same = b && got == size && memcmp(b, data, size) == 0;
  free(b);
  fclose(f);
  return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  make_paths();
  if (!write_file(in_path, data, size))
    return 0;
  lsk_pixel_events *ev = (lsk_pixel_events *)&ev;
  int rc = lsk_pixel_events_read(in_path, &ev);
  if (rc != LSK_OK) {
    FUZZ_CHECK(ev == NULL);
    FUZZ_CHECK(rc == LSK_EIO || rc == LSK_ENOMEM);
    FUZZ_CHECK(strstr(lsk_context_errmsg(NULL), "lsk_pixel_events_read") != NULL);
  } else {
    FUZZ_CHECK(lsk_pixel_events_check(ev) == LSK_OK);
    /* The reader's bound on module slots (MAX_SLOTS in examples/pixel/pixel_file.c):
     * without it a 32 KB file of empty events asked for 2 GB. */
    FUZZ_CHECK((uint64_t)ev->events * ev->modules <= (1u << 24));
    lsk_pixel_result *r = NULL;
    if (lsk_pixel_result_create(ev, &r) == LSK_OK) {
      FUZZ_CHECK(lsk_pixel_reference(ev, 0, r) == LSK_OK);
      lsk_pixel_result_destroy(r);
    }
    FUZZ_CHECK(lsk_pixel_events_write(ev, out_path) == LSK_OK);
    FUZZ_CHECK(same_file(out_path, data, size));
    lsk_pixel_events_destroy(ev);
  }
  unlink(in_path);
  unlink(out_path);
  return 0;
}
