/*
 * parse.c: the command's argument parsing (parse.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "cli.h"
#include "parse.h"

/* The decimal digits text starts with, as *x, and where they end; -1 where
 * it does not start with a digit or they overflow. (strtoull alone would
 * take leading blanks and a sign.) */
static int digits(const char *text, unsigned long long *x, const char **end)
{
  if (!text || *text < '0' || *text > '9')
    return -1;
  char *e;
  errno = 0;
  *x = strtoull(text, &e, 10);
  *end = e;
  return errno ? -1 : 0;
}

int cli_parse_uint(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
  unsigned long long x;
  const char *end;
  if (digits(text, &x, &end) || *end || x < min || x > max)
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

/* The multiplier's shift for suffix c: 10, 20 or 30; 0 for none ('\0');
 * -1 for anything else. */
static int size_shift(char c)
{
  switch (c) {
  case 0: return 0;
  case 'k':
  case 'K': return 10;
  case 'm':
  case 'M': return 20;
  case 'g':
  case 'G': return 30;
  default: return -1;
  }
}

int cli_parse_size(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
  unsigned long long x;
  const char *end;
  if (digits(text, &x, &end))
    return -1;
  int shift = size_shift(*end);
  if (shift < 0 || (shift && end[1]))
    return -1;
  if (x > (ULLONG_MAX >> shift))
    return -1; /* the multiplied value would not fit */
  x <<= shift;
  if (x < min || x > max)
    return -1;
  *out = x;
  return 0;
}

int cli_opt_size(const char *cmd, const char *usage_text, const char *opt, const char *text,
                 unsigned long long min, unsigned long long max, unsigned long long *out)
{
  if (!text)
    return cli_usage(cmd, usage_text, "%s needs a value", opt);
  if (cli_parse_size(text, min, max, out))
    return cli_usage(cmd, usage_text,
                     "bad value '%s' for %s: a count from %llu to %llu wanted, digits with an "
                     "optional k, M or G (x 2^10, 2^20, 2^30)",
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
