/*
 * parse.h: the command's argument parsing, one rule per kind of value, so
 * that every subcommand (the command's, the bench's, the examples'
 * drivers') reads a value the same way and says the same about a bad one.
 */
#ifndef LSK_TOOLS_PARSE_H
#define LSK_TOOLS_PARSE_H

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

/*
 * cli_parse_size: text as a count or size, the one rule of every option
 * that takes one (`lsk demo tour --size`, `lsk demo pic --particles`,
 * `lsk mpi pic --particles`): one or more decimal digits, then at most one
 * binary multiplier: k or K (x 2^10), m or M (x 2^20), g or G (x 2^30);
 * nothing else (no sign, blank, point, exponent, 0x, second suffix or
 * 'B'). "64K" and "64k" are 65536, "1M" 1048576, "2G" 2147483648, "1000"
 * 1000. The value must lie from min to max; one past 2^64 - 1 (in the
 * digits, or once multiplied) is rejected, not wrapped.
 * 0 with *out set, or -1 with *out untouched.
 */
int cli_parse_size(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out /* OUT */);

/*
 * cli_opt_size: the value text of option opt through cli_parse_size. 0 on
 * success; else the usage error "lsk: <cmd>: bad value '<text>' for <opt>:
 * a count from <min> to <max> wanted, digits with an optional k, M or G
 * (x 2^10, 2^20, 2^30)" (or "<opt> needs a value" where text is NULL) and
 * the usage text, and returns 2.
 */
int cli_opt_size(const char *cmd, const char *usage_text, const char *opt, const char *text,
                 unsigned long long min, unsigned long long max, unsigned long long *out /* OUT */);

/* cli_parse_domain: "X[xY[xZ]]" into ext (each >= 1, at most
 * LSK_MAX_DOMAIN indices in all); 0 on success, -1 otherwise. */
int cli_parse_domain(const char *s, unsigned ext[3] /* OUT */);

#endif /* LSK_TOOLS_PARSE_H */
