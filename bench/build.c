/*
 * bench/build.c: the case build, what building costs: a cold build, the
 * same configuration again in the same process, a cold build that also
 * stores into lsk's disk cache, and a new process with and without that
 * cache, each with the driver's own kernel cache on and off. Each build
 * runs in a child process of its own (child.c); this file runs the rounds
 * and checks that each child did what its row says.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The rows of one driver-cache setting. */
typedef struct build_rows {
  result *same, *store, *disk, *nodisk;
} build_rows;

/* One round with the driver's cache on or off, four children: source A
 * built cold without lsk's disk cache (the reference), source B built cold
 * into an empty disk cache, B again in a new process (loaded from it), and
 * A again in a new process without it (only the driver's cache can help). */
static int build_round(bench *bn, const char *base, unsigned round, int driver_on,
                       const build_rows *rows)
{
  char nonce_a[64], nonce_b[64], lsk_dir[1100], drv_dir[1100];
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  snprintf(nonce_a, sizeof nonce_a, "%ld-%u-%d-%ld-a", (long)getpid(), round, driver_on,
           (long)ts.tv_nsec);
  snprintf(nonce_b, sizeof nonce_b, "%ld-%u-%d-%ld-b", (long)getpid(), round, driver_on,
           (long)ts.tv_nsec);
  snprintf(lsk_dir, sizeof lsk_dir, "%s/lsk-%u-%d", base, round, driver_on);
  snprintf(drv_dir, sizeof drv_dir, "%s/driver-%u-%d", base, round, driver_on);
  build_report cold, store, warm, fresh;
  if (bench_run_build_child(nonce_a, bn->domain, "", drv_dir, driver_on, &cold) ||
      bench_run_build_child(nonce_b, bn->domain, lsk_dir, drv_dir, driver_on, &store) ||
      bench_run_build_child(nonce_b, bn->domain, lsk_dir, drv_dir, driver_on, &warm) ||
      bench_run_build_child(nonce_a, bn->domain, "", drv_dir, driver_on, &fresh))
    return 1;
  /* What each child must have done for its time to mean what the table
   * says. A build is one configuration, or two where the automatic shape
   * exceeds the kernel's own work-group limit, known only once built (on a
   * GPU, registers can cap it): then every child builds or loads both. */
  unsigned c = cold.configurations;
  if (c < 1 || c > 2 || cold.compiled != c || cold.cache_loads != 0)
    return cli_fail("bench",
                    "cold build: %u compiled, %u loaded, %u configurations; wanted as many "
                    "compiled as configurations (1 or 2), none loaded",
                    cold.compiled, cold.cache_loads, c);
  if (store.compiled != c || store.cache_loads != 0)
    return cli_fail("bench", "cold build into the disk cache: %u compiled, %u loaded; wanted %u, 0",
                    store.compiled, store.cache_loads, c);
  if (warm.compiled != 0 || warm.cache_loads != c)
    return cli_fail("bench",
                    "new process with the disk cache compiled %u and loaded %u; wanted "
                    "%u loaded from the cache",
                    warm.compiled, warm.cache_loads, c);
  if (fresh.compiled != c || fresh.cache_loads != 0)
    return cli_fail("bench",
                    "new process without the disk cache: %u compiled, %u loaded; wanted %u, 0",
                    fresh.compiled, fresh.cache_loads, c);
  bench_add(&rows->same->lsk, cold.second);
  bench_add(&rows->store->lsk, store.build);
  bench_add(&rows->store->lsk_first, store.first_run);
  bench_add(&rows->disk->lsk, warm.build);
  bench_add(&rows->disk->lsk_first, warm.first_run);
  bench_add(&rows->nodisk->lsk, fresh.build);
  bench_add(&rows->nodisk->lsk_first, fresh.first_run);
  result *all[] = {rows->same, rows->store, rows->disk, rows->nodisk};
  for (int i = 0; i < 4; ++i) {
    bench_add(&all[i]->ref, cold.build);
    bench_add(&all[i]->ref_first, cold.first_run);
  }
  return 0;
}

int bench_case_build(bench *bn)
{
  if (access("/proc/self/exe", X_OK) != 0) {
    printf("build cost: skipped (no /proc/self/exe to start a new process with)\n");
    return 0;
  }
  const char *tmp = getenv("TMPDIR");
  char base[1024];
  snprintf(base, sizeof base, "%s/lsk-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(base))
    return cli_fail("bench", "mkdtemp %s: %s", base, strerror(errno));
  int is_pocl = strstr(lsk_context_device(bn->ctx)->platform_name, "Portable") != NULL;
  const char *drv = is_pocl ? "PoCL" : "driver";
  unsigned rounds = bn->quick ? 1 : (bn->repeat < 5 ? bn->repeat : 5);
  int rc = 0;
  for (int on = 1; on >= 0 && !rc; --on) {
    char what[64], tag[32], l[4][64];
    snprintf(tag, sizeof tag, "%s cache %s", drv, on ? "on" : "off");
    snprintf(what, sizeof what, "cold build, %s", tag);
    const char *state = on ? "on" : "off";
    snprintf(l[0], sizeof l[0], "build again vs cold (%s %s)", drv, state);
    snprintf(l[1], sizeof l[1], "cold + lsk store vs cold (%s %s)", drv, state);
    snprintf(l[2], sizeof l[2], "lsk cache vs cold (%s %s)", drv, state);
    snprintf(l[3], sizeof l[3], "no lsk cache vs cold (%s %s)", drv, state);
    build_rows rows = {
        bench_new_result(bn, KIND_BUILD, "build: same config again", what, l[0], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: cold, into lsk cache", what, l[1], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: new process, lsk cache", what, l[2], "ms", 0),
        bench_new_result(bn, KIND_BUILD, "build: new process, no lsk cache", what, l[3], "ms", 0)};
    if (!rows.same || !rows.store || !rows.disk || !rows.nodisk)
      rc = cli_fail("bench", "out of memory");
    for (unsigned r = 0; r < rounds && !rc; ++r) {
      snprintf(what, sizeof what, "build cost (%s)", tag);
      bench_progress(bn, what, r, rounds);
      rc = build_round(bn, base, r, on, &rows);
    }
    bench_progress(bn, what, rounds, rounds);
  }
  nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}
