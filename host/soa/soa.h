/*
 * soa/soa.h: what the soa layer gives the layers above it (algo, mem):
 * the handle types of layouts and SoA objects, which their calls check.
 * The layout and the SoA object are the layer's own (soa/layout.h,
 * soa.c); above, they are used through include/lsk/layout.h and soa.h.
 * Not installed.
 */
#ifndef LSK_SOA_SOA_H
#define LSK_SOA_SOA_H

#include "core/core.h"

extern const lsk__htype LSK__H_LAYOUT, LSK__H_SOA;

/* OpenCL type names and identifiers, for every text format above the core
 * (layouts here, sparse definitions above): the size of a scalar or vector
 * type (0: not one; *scalar, if given, 1 for a scalar), and why name is not
 * a usable identifier (NULL: it is). */
size_t lsk__type_size(const char *type, int *scalar);
const char *lsk__bad_identifier(const char *name);
/* The text formats' words: a line split at blanks in place, up to '#'
 * (-1: more than LSK__MAX_TOKENS words), and a decimal number up to max
 * (1 if s is one). */
#define LSK__MAX_TOKENS 8
int lsk__tokenize(char *line, char **tok);
int lsk__parse_uint(const char *s, unsigned long max, unsigned long *v);
/* The thread's last message (from a builder call such as
 * lsk_layout_add_column) restated as "file:line: <message without the
 * function's name>", with status rc. */
int lsk__at_line(int rc, const char *file, unsigned lineno);
/* Every line of text with words, split (lsk__tokenize), to line with
 * its number; the first failure stops it (a line of too many words is
 * one, named file:line). fn names the caller for an allocation failure. */
typedef int (*lsk__line_fn)(void *state, char **tok, int n, const char *file, unsigned lineno);
int lsk__text_lines(const char *text, const char *file, lsk__line_fn line, void *state,
                    const char *fn);

/* soa_args.c: one LSK_ARG_SOA expanded (launch/launch.h's
 * lsk__soa_expand_fn, which lsk_soa_create installs). */
int lsk__soa_expand_one(lsk_context *ctx, const void *soa, size_t part, lsk_arg *args, size_t cap,
                        size_t *count, const char *fn, size_t index);

#endif /* LSK_SOA_SOA_H */
