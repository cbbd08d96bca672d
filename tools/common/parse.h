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

/* cli_parse_domain: "X[xY[xZ]]" into ext (each >= 1, at most
 * LSK_MAX_DOMAIN indices in all); 0 on success, -1 otherwise. */
int cli_parse_domain(const char *s, unsigned ext[3] /* OUT */);

#endif /* LSK_TOOLS_PARSE_H */
