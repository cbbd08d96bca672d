/*
 * main.c: the lsk command. Parses the global options (--device, --help,
 * --version), dispatches to one cmd_<sub>.c per subcommand, and holds the
 * helpers the subcommands share (cli.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"devices", cmd_devices, "list the OpenCL platforms and devices, and which one lsk uses"},
    {"info", cmd_info, "lsk version, the selected device, and the automatic workers and simd"},
    {"demo", cmd_demo, "a short tour of lockstep kernels on the device, checked against C"},
    {"bench", cmd_bench, "time lockstep kernels on the device"},
    {"tune", cmd_tune, "find the fastest workers and simd of the bench kernels, and keep them"},
    {"layout", cmd_layout, "print an SoA layout file's bytes, or its generated OpenCL C or C"},
    {"check", cmd_check, "compile a kernel file offline: the device, NVPTX (clang), sm_90 (ptxas)"},
    {"mpi", cmd_mpi, "the heat and particle-in-cell examples over MPI ranks (under mpirun)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The selector given with --device, or NULL. */
static const char *device_option;

int cli_fail(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "lsk: %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

int cli_fail_lsk(const char *cmd, const lsk_context *ctx, int status, const char *what)
{
  const char *msg = lsk_context_errmsg(ctx);
  if (!msg[0])
    msg = lsk_strerror(status);
  return cli_fail(cmd, "%s%s%s", what ? what : "", what ? ": " : "", msg);
}

const char *cli_device_origin(const char **selector)
{
  const char *env = getenv("LSK_DEVICE");
  const char *sel = device_option ? device_option : (env && *env) ? env : NULL;
  if (selector)
    *selector = sel;
  return device_option ? "--device" : sel ? "LSK_DEVICE" : NULL;
}

int cli_need_fp64(const char *cmd, lsk_context *ctx, const char *uses)
{
  const lsk_device_info *d = lsk_context_device(ctx);
  if (d->has_fp64)
    return 0;
  cli_fail(cmd,
           "%s has no double precision (cl_khr_fp64); %s: pick another device (LSK_DEVICE, "
           "`lsk devices`)",
           d->name, uses);
  lsk_context_destroy(ctx);
  return 1;
}

int cli_context_open(const char *cmd, lsk_context **out)
{
  return cli_context_open_opt(cmd, NULL, out);
}

int cli_context_open_opt(const char *cmd, const lsk_context_options *base, lsk_context **out)
{
  /* The selector is passed explicitly, so that a bad --device is not
   * reported as coming from LSK_DEVICE. */
  lsk_context_options opt = base ? *base : (lsk_context_options){0};
  opt.device = device_option;
  int rc = lsk_context_create(&opt, out);
  if (!rc)
    return 0;
  cli_fail_lsk(cmd, NULL, rc, NULL);
  if (rc == LSK_ENODEV)
    fprintf(stderr,
            "lsk: %s: run 'lsk devices' to see the devices, then choose one with "
            "--device SEL or LSK_DEVICE=SEL\n",
            cmd);
  return 1;
}

const char *cli_fmt_bytes(uint64_t v, char *buf, size_t len)
{
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (v < 1024) {
    snprintf(buf, len, "%" PRIu64 " bytes", v);
    return buf;
  }
  int u = 0;
  uint64_t scale = 1024;
  while (u < 3 && v >= scale * 1024) {
    scale *= 1024;
    ++u;
  }
  if (v % scale == 0)
    snprintf(buf, len, "%" PRIu64 " %s", v / scale, units[u]);
  else
    snprintf(buf, len, "%.1f %s", (double)v / (double)scale, units[u]);
  return buf;
}

int cli_usage(const char *cmd, const char *usage_text, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "lsk: %s%s", cmd ? cmd : "", cmd ? ": " : "");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fputs(usage_text, stderr);
  return 2;
}

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

double cli_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(FILE *f)
{
  fprintf(f, "usage: lsk [--device SEL] <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < NCOMMANDS; ++i)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "  %-9s %s\n", "help",
          "this text; 'lsk help <command>' or 'lsk <command> --help' "
          "for a command's options");
  fprintf(f, "\noptions (before or after the command):\n"
             "  --device SEL  the device to use, as in LSK_DEVICE: N (flat index from 'lsk\n"
             "                devices'), P:D (platform:device, each an index or a name\n"
             "                substring) or a name substring; default: the first GPU, else the\n"
             "                first device\n"
             "  --version     print the version of lsk\n"
             "  -h, --help    print this text\n");
}

/* "lsk: <msg>" and the usage on stderr; returns 2. */
static int usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int usage_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lsk: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  usage(stderr);
  return 2;
}

static int find_command(const char *name)
{
  for (size_t i = 0; i < NCOMMANDS; ++i)
    if (strcmp(commands[i].name, name) == 0)
      return (int)i;
  return -1;
}

int main(int argc, char **argv)
{
  /* The subcommand's arguments: argv without the global options, its name
   * first. */
  char **sub = calloc((size_t)argc + 2, sizeof *sub);
  if (!sub) {
    fprintf(stderr, "lsk: out of memory\n");
    return 1;
  }
  int nsub = 0, cmd = -1, help = 0, rc;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      /* Everything after "--" is taken as it is: the command name, if none
       * came yet, then its arguments (with the "--" for it to see). */
      if (nsub == 0)
        ++i;
      for (; i < argc; ++i)
        sub[nsub++] = argv[i];
      break;
    }
    if (strcmp(a, "--device") == 0 || strncmp(a, "--device=", 9) == 0) {
      const char *sel = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
      if (!sel || !*sel) {
        rc = usage_error("option '--device' needs a device selector, such as 0 or 0:1 "
                         "(see 'lsk devices')");
        goto main_out;
      }
      device_option = sel;
      continue;
    }
    if (nsub > 0) {
      sub[nsub++] = argv[i];
      continue;
    }
    /* Before the command name. */
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      help = 1;
    } else if (strcmp(a, "--version") == 0) {
      printf("lsk %s\n", lsk_version());
      rc = 0;
      goto main_out;
    } else if (a[0] == '-') {
      rc = usage_error("unknown option '%s'", a);
      goto main_out;
    } else if (strcmp(a, "help") == 0) {
      /* "lsk help <command>" is "lsk <command> --help". */
      help = 1;
      if (i + 1 < argc && argv[i + 1][0] != '-') {
        sub[nsub++] = argv[++i];
        sub[nsub++] = "--help";
      }
    } else {
      sub[nsub++] = argv[i];
    }
    if (help && nsub == 0) {
      usage(stdout);
      rc = 0;
      goto main_out;
    }
  }
  if (nsub == 0) {
    rc = usage_error("missing command");
    goto main_out;
  }
  if ((cmd = find_command(sub[0])) < 0) {
    rc = usage_error("unknown command '%s'", sub[0]);
    goto main_out;
  }
  /* Every lsk call in the process, including the default device of
   * lsk_context_create(NULL, ...), then sees the chosen device. */
  if (device_option && setenv("LSK_DEVICE", device_option, 1) != 0) {
    rc = cli_fail(commands[cmd].name, "cannot set LSK_DEVICE");
    goto main_out;
  }
  sub[nsub] = NULL;
  rc = commands[cmd].run(nsub, sub);
main_out:
  free(sub);
  return rc;
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
