/*
 * parse.c: the command's argument parsing (parse.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "parse.h"

int cli_parse_uint(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
  /* strtoull alone would take leading blanks, a sign and trailing junk. */
  if (!text || *text < '0' || *text > '9')
    return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(text, &end, 10);
  if (errno || *end || x < min || x > max)
    return -1;
  *out = x;
  return 0;
}

int cli_opt_uint(const char *cmd, const char *usage_text, const char *opt, const char *text,
                 unsigned long long min, unsigned long long max, unsigned long long *out)
{
  if (!text)
    return cli_usage(cmd, usage_text, "%s needs a value", opt);
  if (cli_parse_uint(text, min, max, out))
    return cli_usage(cmd, usage_text, "bad value '%s' for %s: an integer from %llu to %llu wanted",
                     text, opt, min, max);
  return 0;
}

int cli_parse_domain(const char *s, unsigned ext[3])
{
  ext[0] = ext[1] = ext[2] = 1;
  unsigned long long size = 1;
  for (int i = 0; i < 3; ++i) {
    if (*s < '0' || *s > '9')
      return -1;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || v == 0 || v > LSK_MAX_DOMAIN)
      return -1;
    ext[i] = (unsigned)v;
    size *= v;
    if (size > LSK_MAX_DOMAIN)
      return -1;
    if (*end == 0)
      return 0;
    if ((*end != 'x' && *end != 'X') || i == 2)
      return -1;
    s = end + 1;
  }
  return -1;
}
