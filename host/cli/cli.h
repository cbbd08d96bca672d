/*
 * cli.h: the lsk command's subcommands. Each returns the exit status:
 * 0 success, 1 failure, 2 usage error; messages go to stderr as
 * "lsk: <cmd>: <msg>".
 *
 * main() removes the global option --device SEL from the arguments before a
 * subcommand sees them and puts SEL in LSK_DEVICE, so the default device of
 * every lsk call in the process is the chosen one.
 */
#ifndef LSK_CLI_H
#define LSK_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lsk/lsk.h"
/* The examples the command runs (examples/): libraries of their own. */
#include "pic.h"
#include "pixel.h"

int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_demo_pic(int argc, char **argv);   /* `lsk demo pic` */
int cmd_demo_pixel(int argc, char **argv); /* `lsk demo`, cmd_pixel.c */
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_demo_heat(int argc, char **argv); /* `lsk demo heat`, cmd_heat.c */
int cmd_mpi(int argc, char **argv);       /* `lsk mpi heat|pic`, cmd_mpi.c */

/* The heat example's options (cmd_heat.c), shared by `demo heat` and
 * `mpi heat`. cli_heat_parse: 0, the exit status of a usage error, or -1
 * after printing the help. */
typedef struct cli_heat_options {
  size_t gx, gy;
  unsigned steps, parts[2];
  uint64_t seed;
  float alpha;
  int check;
} cli_heat_options;
int cli_heat_parse(const char *cmd, int argc, char **argv, cli_heat_options *o);

/* Prints "lsk: <cmd>: <msg>\n" to stderr; returns 1. */
int cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * cli_fail_lsk: reports a failed lsk call as "lsk: <cmd>: <what>: <message>"
 * (what may be NULL), the message being lsk_context_errmsg(ctx) (ctx NULL:
 * the thread's), or lsk_strerror(status) where that is empty. Returns 1.
 */
int cli_fail_lsk(const char *cmd, const lsk_context *ctx, int status, const char *what);

/*
 * cli_device_origin: where the device selection comes from: "--device",
 * "LSK_DEVICE", or NULL when neither is set (the default rule: the first
 * GPU, else the first device). *selector (if not NULL) gets the selector or
 * NULL.
 */
const char *cli_device_origin(const char **selector /* OUT, may be NULL */);

/*
 * cli_context_open: lsk_context_create on the selected device. On failure
 * it prints the library's message and a hint to run `lsk devices`, and
 * returns 1 with *out NULL; 0 on success.
 */
int cli_context_open(const char *cmd, lsk_context **out /* OUT */);
/* The same with options (opt may be NULL); their device is replaced by
 * the selection. */
int cli_context_open_opt(const char *cmd, const lsk_context_options *opt,
                         lsk_context **out /* OUT */);

/*
 * cli_need_fp64: 0 if ctx's device has double precision. Else prints why
 * cmd cannot run there ("<device> has no double precision (cl_khr_fp64);
 * <uses>: pick another device ..."), destroys ctx and returns 1.
 */
int cli_need_fp64(const char *cmd, lsk_context *ctx, const char *uses);

/* cli_parse_domain: "X[xY[xZ]]" into ext (each >= 1, at most
 * LSK_MAX_DOMAIN indices in all); 0 on success, -1 otherwise. */
int cli_parse_domain(const char *s, unsigned ext[3] /* OUT */);

/* A byte count for people: "128 bytes", "256 KiB", "15.5 GiB"; returns buf. */
const char *cli_fmt_bytes(uint64_t v, char *buf, size_t len);

/* Prints "lsk: <cmd>: <msg>\n" (cmd may be NULL) and usage_text to
 * stderr; returns 2, the exit status of a usage error. */
int cli_usage(const char *cmd, const char *usage_text, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * cli_parse_uint: text as a decimal integer from min to max, strictly: one
 * or more digits and nothing else (no sign, blank, suffix or overflow).
 * 0 with *out set, or -1 with *out untouched.
 */
int cli_parse_uint(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out /* OUT */);

/*
 * cli_opt_uint: the value text of option opt through cli_parse_uint. 0 on
 * success; else the usage error "lsk: <cmd>: bad value '<text>' for <opt>:
 * an integer from <min> to <max> wanted" (or "<opt> needs a value" where
 * text is NULL) and the usage text, and returns 2.
 */
int cli_opt_uint(const char *cmd, const char *usage_text, const char *opt, const char *text,
                 unsigned long long min, unsigned long long max, unsigned long long *out /* OUT */);

/* Monotonic time in seconds. */
double cli_now(void);

/*
 * cli_trace_finish: the end of a run on a context made with
 * lsk_context_options.trace: writes the trace to path (if not NULL) and
 * prints the per-kernel profile (if profile): count, total, mean and share
 * of the device time of each kernel and transfer kind. 0, or 1 after
 * printing the failure. cli_trace_profile prints only the profile to out
 * and returns the lsk status.
 */
int cli_trace_finish(const char *cmd, lsk_context *ctx, const char *path, int profile);
int cli_trace_profile(lsk_context *ctx, FILE *out);

#endif /* LSK_CLI_H */
