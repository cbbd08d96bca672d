/*
 * strbuf.h: the growing string of the command's code (`lsk check`'s build
 * options, preludes and files read whole). liblsk has one of its own
 * (lsk__sb), internal to host/: the tools use this one.
 */
#ifndef LSK_TOOLS_STRBUF_H
#define LSK_TOOLS_STRBUF_H

#include <stddef.h>

/* All zero: empty. After a failed allocation `failed` is set, the text
 * stays as it was and every later cli_str_put is a no-op: check once at
 * the end. */
typedef struct cli_str {
  char *s; /* malloc'd, terminated; NULL while empty */
  size_t len, cap;
  int failed;
} cli_str;

/* Appends the printf-formatted text. */
void cli_str_put(cli_str *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The text so far ("" while empty); valid until the next put. */
const char *cli_str_get(const cli_str *b);

/* Frees the text; b is empty afterwards. */
void cli_str_free(cli_str *b);

/* A printf-formatted string, malloc'd; NULL without memory. */
char *cli_strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The whole file at path, malloc'd and terminated ("" for an empty file);
 * NULL if it cannot be read (errno says why) or without memory. */
char *cli_read_file(const char *path);

#endif /* LSK_TOOLS_STRBUF_H */
