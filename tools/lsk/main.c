/*
 * main.c: the lsk command. Parses the global options (--device, --help,
 * --version) and dispatches to one cmd_<sub>.c per subcommand (commands.h);
 * `lsk bench` is the bench's (bench/), and `lsk demo` and `lsk mpi` run the
 * examples' drivers (examples/<x>/demo*.c). The helpers they share are
 * tools/common's (cli.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_main.h"
#include "cli.h"
#include "commands.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"devices", cmd_devices, "list the OpenCL platforms and devices, and which one lsk uses"},
    {"info", cmd_info, "lsk version, the selected device, and the automatic workers and simd"},
    {"demo", cmd_demo, "the demos (pixel, tour, pic, heat, sparse), each checked against C"},
    {"bench", bench_main, "time lockstep kernels on the device"},
    {"tune", cmd_tune, "find the fastest workers and simd of the bench kernels, and keep them"},
    {"layout", cmd_layout, "print an SoA layout file's bytes, or its generated OpenCL C or C"},
    {"sparse", cmd_sparse, "print a sparse definition's nodes, blocks and bytes, or its OpenCL C"},
    {"check", cmd_check, "compile a kernel file offline: the device, NVPTX (clang), sm_90 (ptxas)"},
    {"mpi", cmd_mpi, "the heat and particle-in-cell examples over MPI ranks (under mpirun)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The selector given with --device, or NULL. */
static const char *device_option;

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
  cli_device_set(device_option);
  sub[nsub] = NULL;
  rc = commands[cmd].run(nsub, sub);
main_out:
  free(sub);
  return rc;
}
