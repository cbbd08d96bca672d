/*
 * cache_entry.c: the bytes of one on-disk cache entry (see cache.c):
 * written, and checked apart from the file reading and the OpenCL calls so
 * that the check can be fuzzed without a device; and the hash that names
 * entries and proves them. An entry is, in the host's byte order:
 *
 *   0   "LSKBIN01"          8 bytes
 *   8   hash of the key     u64 (lsk__hash64 seed 2)
 *   16  size                u64, 1 to 2^31 - 1
 *   24  binary              size bytes
 *   ..  checksum            u64 (lsk__hash64 of the binary, seed 3)
 *
 * and nothing after it.
 */
#include <string.h>

#include "core/build.h"

/* The first 8 bytes of every entry. */
static const char magic[8] = {'L', 'S', 'K', 'B', 'I', 'N', '0', '1'};

/* FNV-1a, 64-bit, with a seed mixed into the offset basis. */
uint64_t lsk__hash64(const void *data, size_t len, uint64_t seed)
{
  const unsigned char *p = data;
  uint64_t h = 1469598103934665603ull ^ (seed * 0x9e3779b97f4a7c15ull);
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static uint64_t get64(const unsigned char *p)
{
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* An entry's bytes (the whole file) checked against key: magic, key hash,
 * size (the file's length), checksum. LSK_OK with *bin pointing into data
 * and *binsize its length, or LSK_EIO (no message). */
int lsk__cache_entry_parse(const unsigned char *data, size_t n, const char *key,
                           const unsigned char **bin /* OUT */, size_t *binsize /* OUT */)
{
  *bin = NULL;
  *binsize = 0;
  /* Checked before any arithmetic on size: n - 32 cannot wrap. */
  if (!data || !key || n < 32 || memcmp(data, magic, sizeof magic) != 0 ||
      get64(data + 8) != lsk__hash64(key, strlen(key), 2))
    return LSK_EIO;
  uint64_t size = get64(data + 16);
  if (size == 0 || size >= (1ull << 31) || size != n - 32)
    return LSK_EIO;
  if (get64(data + 24 + size) != lsk__hash64(data + 24, (size_t)size, 3))
    return LSK_EIO;
  *bin = data + 24;
  *binsize = (size_t)size;
  return LSK_OK;
}

int lsk__cache_entry_write(const char *path, const char *key, const unsigned char *bin, size_t size)
{
  uint64_t khash = lsk__hash64(key, strlen(key), 2), sz = size, sum = lsk__hash64(bin, size, 3);
  const lsk__file_part parts[] = {{magic, sizeof magic},
                                  {&khash, sizeof khash},
                                  {&sz, sizeof sz},
                                  {bin, size},
                                  {&sum, sizeof sum}};
  return lsk__file_replace(path, parts, sizeof parts / sizeof parts[0]);
}
