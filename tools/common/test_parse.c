/*
 * test_parse.c: the command's one size rule (cli_parse_size, parse.h) and
 * the strict integer rule beside it (cli_parse_uint), on values worked out
 * by hand: what each must take, what it must refuse (junk, signs, blanks,
 * a second suffix, 2^64 and past it, in the digits or once multiplied),
 * and the ranges' ends; then cli_opt_size's usage error, which must name
 * the option and the value. ctest tools_parse (label cli); no device.
 * Exit 0 if every row holds, 1 with the rows that do not.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"

#define TWO31 2147483648ull /* 2^31 */

typedef struct row {
  const char *text;
  unsigned long long min, max;
  int ok;                  /* 1: taken, with value want */
  unsigned long long want; /* worked by hand */
} row;

static const row size_rows[] = {
    /* Plain digits. */
    {"0", 0, ULLONG_MAX, 1, 0},
    {"1", 0, ULLONG_MAX, 1, 1},
    {"20000", 1, TWO31, 1, 20000},
    {"1048576", 1, TWO31, 1, 1048576},
    {"007", 0, 10, 1, 7},
    /* The suffixes, either case: 64 * 1024, 1024^2, 2 * 1024^3, 3 * 1024^3. */
    {"64K", 1, TWO31, 1, 65536},
    {"64k", 1, TWO31, 1, 65536},
    {"16k", 1, TWO31, 1, 16384},
    {"256k", 1, TWO31, 1, 262144},
    {"1M", 1, TWO31, 1, 1048576},
    {"1m", 1, TWO31, 1, 1048576},
    {"1G", 1, 1ull << 30, 1, 1073741824},
    {"2G", 1, TWO31, 1, TWO31},
    {"3g", 0, ULLONG_MAX, 1, 3221225472ull},
    {"0K", 0, 10, 1, 0},
    /* The ranges' ends: 2^31 is the most particles, one past it refused;
     * 2049M = 2149580800 > 2^31; 0 below a minimum of 1. */
    {"2147483648", 1, TWO31, 1, TWO31},
    {"2147483649", 1, TWO31, 0, 0},
    {"2049M", 1, TWO31, 0, 0},
    {"2048M", 1, TWO31, 1, TWO31},
    {"0", 1, TWO31, 0, 0},
    {"0k", 1, TWO31, 0, 0},
    {"1025M", 1, 1ull << 30, 0, 0},
    /* 2^64 - 1 is the largest; 2^64 in digits overflows, and so does
     * 2^34 G = 2^64; 2^34 - 1 G = 2^64 - 2^30 = 18446744072635809792 fits. */
    {"18446744073709551615", 0, ULLONG_MAX, 1, ULLONG_MAX},
    {"18446744073709551616", 0, ULLONG_MAX, 0, 0},
    {"99999999999999999999999", 0, ULLONG_MAX, 0, 0},
    {"17179869184G", 0, ULLONG_MAX, 0, 0},
    {"17179869183G", 0, ULLONG_MAX, 1, 18446744072635809792ull},
    {"17592186044416M", 0, ULLONG_MAX, 0, 0},    /* 2^44 M = 2^64 */
    {"18014398509481984k", 0, ULLONG_MAX, 0, 0}, /* 2^54 k = 2^64 */
    /* Junk. */
    {"", 0, ULLONG_MAX, 0, 0},
    {"K", 0, ULLONG_MAX, 0, 0},
    {"64X", 0, ULLONG_MAX, 0, 0},
    {"64KB", 0, ULLONG_MAX, 0, 0},
    {"64KK", 0, ULLONG_MAX, 0, 0},
    {"64Ki", 0, ULLONG_MAX, 0, 0},
    {"1T", 0, ULLONG_MAX, 0, 0},
    {"-1", 0, ULLONG_MAX, 0, 0},
    {"+1", 0, ULLONG_MAX, 0, 0},
    {" 1", 0, ULLONG_MAX, 0, 0},
    {"1 ", 0, ULLONG_MAX, 0, 0},
    {"1 K", 0, ULLONG_MAX, 0, 0},
    {"1.5M", 0, ULLONG_MAX, 0, 0},
    {"1e6", 0, ULLONG_MAX, 0, 0},
    {"0x10", 0, ULLONG_MAX, 0, 0},
    {"k64", 0, ULLONG_MAX, 0, 0},
};

/* cli_parse_uint: digits only, no suffix. */
static const row uint_rows[] = {
    {"15", 1, 64, 1, 15},        {"64", 1, 64, 1, 64},
    {"65", 1, 64, 0, 0},         {"0", 1, 64, 0, 0},
    {"15x", 1, 64, 0, 0},        {"64K", 0, ULLONG_MAX, 0, 0},
    {"-1", 0, ULLONG_MAX, 0, 0}, {" 1", 0, ULLONG_MAX, 0, 0},
    {"", 0, ULLONG_MAX, 0, 0},   {"18446744073709551616", 0, ULLONG_MAX, 0, 0},
};

static int check_rows(const char *name,
                      int (*parse)(const char *, unsigned long long, unsigned long long,
                                   unsigned long long *),
                      const row *rows, size_t n)
{
  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const row *r = &rows[i];
    unsigned long long got = 12345;
    int rc = parse(r->text, r->min, r->max, &got);
    int ok = rc == 0;
    if (ok != r->ok || (ok && got != r->want) || (!ok && got != 12345)) {
      printf("FAIL %s('%s', %llu, %llu): %s %llu, want %s %llu\n", name, r->text, r->min, r->max,
             ok ? "took" : "refused", got, r->ok ? "taken" : "refused", r->want);
      bad = 1;
    }
  }
  printf("%s: %zu rows%s\n", name, n, bad ? ", some FAILED" : ", all as worked by hand");
  return bad;
}

/* cli_opt_size's usage error, read back from stderr: status 2, and the
 * option and the value named. */
static int check_message(void)
{
  char path[] = "/tmp/lsk-test-parse-XXXXXX";
  int fd = mkstemp(path), saved = dup(2);
  if (fd < 0 || saved < 0) {
    printf("FAIL: no temporary file\n");
    return 1;
  }
  unsigned long long x = 7;
  fflush(stderr);
  dup2(fd, 2);
  int rc = cli_opt_size("demo pic", "usage: ...\n", "--particles", "64X", 1, TWO31, &x);
  int none = cli_opt_size("demo pic", "usage: ...\n", "--particles", NULL, 1, TWO31, &x);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char text[1024] = "";
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[n] = 0;
  if (f)
    fclose(f);
  close(fd);
  remove(path);
  static const char want[] = "lsk: demo pic: bad value '64X' for --particles: a count from 1 to "
                             "2147483648 wanted, digits with an optional k, M or G";
  int bad = rc != 2 || none != 2 || x != 7 || !strstr(text, want) ||
            !strstr(text, "lsk: demo pic: --particles needs a value");
  printf("cli_opt_size: %s\n", bad ? "FAILED" : "usage errors name the option and the value");
  if (bad)
    printf("status %d and %d, value %llu, stderr:\n%s", rc, none, x, text);
  return bad;
}

int main(void)
{
  int bad = check_rows("cli_parse_size", cli_parse_size, size_rows,
                       sizeof size_rows / sizeof size_rows[0]);
  bad |= check_rows("cli_parse_uint", cli_parse_uint, uint_rows,
                    sizeof uint_rows / sizeof uint_rows[0]);
  bad |= check_message();
  return bad;
}
