/*
 * fuzz_selector.c: the device selector (LSK_DEVICE, lsk_device_select) over
 * a synthetic device list, so that no OpenCL driver is needed.
 * Input: the selector, then one line per device that replaces its
 * "platform name|device name" (up to 4 devices; the first byte of a
 * device line picks is_gpu). Checks that an accepted selector gives an
 * index inside the list and a refused one the ENODEV message listing the
 * devices; and the same text as a group's list of selectors
 * (lsk__device_select_all).
 */
#include <string.h>

#include "fuzz.h"
#include "core/core.h"

#define NDEV 4

static const char *const defaults[NDEV][4] = {
    {"Portable Computing Language", "The pocl project", "cpu-haswell-AMD EPYC", "AuthenticAMD"},
    {"NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H100 80GB HBM3", "NVIDIA Corporation"},
    {"rusticl", "Mesa/X.org", "llvmpipe (LLVM 15.0.6, 256 bits)", "Mesa"},
    {"Intel(R) OpenCL Graphics", "Intel(R) Corporation", "Intel(R) UHD Graphics 770", "Intel"},
};

static void set(char *dst, const char *src, size_t len)
{
  if (len > LSK_NAME_MAX - 1)
    len = LSK_NAME_MAX - 1;
  memcpy(dst, src, len);
  dst[len] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (!text)
    return 0;
  lsk_device_info list[NDEV];
  memset(list, 0, sizeof list);
  for (unsigned i = 0; i < NDEV; ++i) {
    list[i].index = i;
    list[i].platform_index = i < 2 ? 0 : i - 1; /* two devices on platform 0 */
    list[i].device_index = i == 1 ? 1 : 0;
    set(list[i].platform_name, defaults[i][0], strlen(defaults[i][0]));
    set(list[i].platform_vendor, defaults[i][1], strlen(defaults[i][1]));
    set(list[i].name, defaults[i][2], strlen(defaults[i][2]));
    set(list[i].vendor, defaults[i][3], strlen(defaults[i][3]));
    list[i].is_gpu = i == 1 || i == 3;
    list[i].is_cpu = !list[i].is_gpu;
  }
  /* Device lines after the selector line. */
  char *line = strchr(text, '\n');
  size_t n = NDEV;
  if (line) {
    *line++ = 0;
    n = 1;
    for (unsigned i = 0; line && i < NDEV; ++i) {
      char *next = strchr(line, '\n');
      if (next)
        *next++ = 0;
      char *bar = strchr(line, '|');
      if (bar) {
        set(list[i].platform_name, line, (size_t)(bar - line));
        set(list[i].name, bar + 1, strlen(bar + 1));
      } else {
        set(list[i].name, line, strlen(line));
      }
      list[i].is_gpu = line[0] & 1;
      n = i + 1;
      line = next;
    }
  }
  unsigned index = ~0u;
  int rc = lsk__device_select_in(list, n, text, &index);
  if (rc == LSK_OK) {
    FUZZ_CHECK(index < n);
  } else {
    FUZZ_CHECK(rc == LSK_ENODEV);
    FUZZ_CHECK(strstr(lsk_context_errmsg(NULL), "no such device") != NULL);
  }
  /* The same text as a group's list (lsk_group_create): indices inside
   * the list, none twice, at most the room given; or a message. */
  unsigned all[3];
  size_t count = 99;
  rc = lsk__device_select_all(list, n, text, "fuzz", all, 3, &count);
  if (rc == LSK_OK) {
    FUZZ_CHECK(count >= 1 && count <= 3);
    for (size_t i = 0; i < count; ++i) {
      FUZZ_CHECK(all[i] < n);
      for (size_t j = 0; j < i; ++j)
        FUZZ_CHECK(all[i] != all[j]);
    }
  } else {
    FUZZ_CHECK(count == 0);
    FUZZ_CHECK(rc == LSK_ENODEV || rc == LSK_EINVAL || rc == LSK_ENOMEM);
    FUZZ_CHECK(strncmp(lsk_context_errmsg(NULL), "fuzz: ", 6) == 0);
  }
  free(text);
  return 0;
}
