/*
 * cli.c: the helpers of cli.h that every part of the command shares:
 * messages, the device selection and a context on it, byte counts, the
 * clock.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"

/* The selector given with --device, or NULL (cli_device_set). */
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

void cli_device_set(const char *selector) { device_option = selector; }

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

double cli_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
