/*
 * cache_entry.c: validating the bytes of one on-disk cache entry (see
 * cache.c), apart from the file reading and the OpenCL calls so that it
 * can be fuzzed without a device. An entry is, in the host's byte order:
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

#include "internal.h"

/* The first 8 bytes of every entry; lsk__cache_store writes them too. */
const char lsk__cache_magic[8] = {'L', 'S', 'K', 'B', 'I', 'N', '0', '1'};

static uint64_t get64(const unsigned char *p)
{
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

int lsk__cache_entry_parse(const unsigned char *data, size_t n, const char *key,
                           const unsigned char **bin /* OUT */, size_t *binsize /* OUT */)
{
  *bin = NULL;
  *binsize = 0;
  /* Checked before any arithmetic on size: n - 32 cannot wrap. */
  if (!data || !key || n < 32 || memcmp(data, lsk__cache_magic, sizeof lsk__cache_magic) != 0 ||
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
