/*
 * cli.h: what the lsk command's code shares (tools/common, the static
 * library lsk_tools_common: the command in tools/lsk, the bench in bench/
 * and the examples' drivers in examples/<x>/demo*.c all use it): messages,
 * the device selection, a context on it, byte counts for people, the
 * clock, and the end of a traced run. Argument parsing is parse.h, child
 * processes process.h, the growing string strbuf.h.
 *
 * Every subcommand returns the exit status: 0 success, 1 failure, 2 usage
 * error; messages go to stderr as "lsk: <cmd>: <msg>".
 */
#ifndef LSK_TOOLS_CLI_H
#define LSK_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lsk/lsk.h"

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

/* Prints "lsk: <cmd>: <msg>\n" (cmd may be NULL) and usage_text to
 * stderr; returns 2, the exit status of a usage error. */
int cli_usage(const char *cmd, const char *usage_text, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * cli_device_set: the selector given with the command's --device option
 * (NULL: none); main() sets it before any subcommand runs. Contexts that
 * cli_context_open makes use it, so that a bad --device is reported as
 * coming from --device, not from LSK_DEVICE.
 */
void cli_device_set(const char *selector);

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

/* A byte count for people: "128 bytes", "256 KiB", "15.5 GiB"; returns buf. */
const char *cli_fmt_bytes(uint64_t v, char *buf, size_t len);

/* Monotonic time in seconds. */
double cli_now(void);

/*
 * cli_trace_finish: the end of a run on a context made with
 * lsk_context_options.trace: writes the trace to path (if not NULL) and
 * prints the per-kernel profile (if profile): count, total, mean and share
 * of the device time of each kernel and transfer kind. 0, or 1 after
 * printing the failure. cli_trace_profile prints only the profile to out
 * and returns the lsk status. (trace.c)
 */
int cli_trace_finish(const char *cmd, lsk_context *ctx, const char *path, int profile);
int cli_trace_profile(lsk_context *ctx, FILE *out);

#endif /* LSK_TOOLS_CLI_H */
