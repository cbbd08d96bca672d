/*
 * check_ptx.c: `lsk check`'s reading of PTX and of ptxas -v's report
 * (check_ptx.h): entries, their static shared memory, and what ptxas says
 * of each; and each kernel's global loads and stores by width in the SASS
 * that cuobjdump or nvdisasm print.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_ptx.h"

const char *ptx_next_entry(const char *p, char *name, size_t cap)
{
  static const char kind[] = ".entry ";
  if (!(p = strstr(p, kind)))
    return NULL;
  p += sizeof kind - 1;
  size_t len = strcspn(p, "( \t\n");
  snprintf(name, cap, "%.*s", (int)(len < cap ? len : cap - 1), p);
  return p;
}

/* The body of entry name in ptx: from its '{' to the matching '}' (the
 * parameters and any performance directives before it skipped); NULL if
 * absent. */
const char *ptx_entry_body(const char *ptx, const char *name, size_t *len)
{
  static const char kind[] = ".entry ";
  size_t nl = strlen(name);
  for (const char *p = ptx; (p = strstr(p, kind)) != NULL; p += sizeof kind - 1) {
    const char *q = p + sizeof kind - 1;
    if (strncmp(q, name, nl) != 0 || (q[nl] != '(' && !isspace((unsigned char)q[nl])))
      continue;
    /* After the parameters' ')': directives (.reqntid ...), then '{'; a
     * ';' first would make it a prototype. */
    const char *r = q + nl;
    int depth = 0;
    for (; *r && !(depth == 1 && *r == ')'); ++r)
      depth += (*r == '(') - (*r == ')');
    r += strcspn(r, "{;");
    if (*r != '{')
      continue;
    const char *open = r;
    for (depth = 0; *r; ++r) {
      depth += (*r == '{') - (*r == '}');
      if (!depth) {
        *len = (size_t)(r - open + 1);
        return open;
      }
    }
    return NULL;
  }
  return NULL;
}

/* The bytes of the .shared declarations in body[0, len) ("\t.shared
 * .align 4 .b8 name[8192];"); module-level ones that the body names are
 * added by the caller. */
static unsigned long long shared_decls(const char *body, size_t len)
{
  unsigned long long total = 0;
  const char *end = body + len;
  for (const char *p = body; p < end && (p = strstr(p, ".shared")) != NULL && p < end; p += 7) {
    const char *line = p;
    while (line > body && line[-1] != '\n')
      --line;
    const char *q = line;
    while (q < p && isspace((unsigned char)*q))
      ++q;
    if (q != p)
      continue; /* an instruction such as ld.shared */
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (!semi)
      break;
    /* Element size from the type (.b8, .u32, .f64 ...), count from [N]. */
    unsigned elem = 1;
    const char *t = p + 7;
    for (; t < semi; ++t)
      if (*t == '.' && t[1] && strchr("busf", t[1]) && isdigit((unsigned char)t[2])) {
        elem = (unsigned)strtoul(t + 2, NULL, 10) / 8;
        break;
      }
    unsigned long long count = 1;
    const char *br = memchr(p, '[', (size_t)(semi - p));
    if (br)
      count = strtoull(br + 1, NULL, 10); /* extern [] is dynamic: 0 */
    total += count * (elem ? elem : 1);
  }
  return total;
}

/* The static shared memory of entry name: its own declarations and those
 * of the module that it names. */
unsigned long long ptx_entry_shared(const char *ptx, const char *name)
{
  size_t len;
  const char *body = ptx_entry_body(ptx, name, &len);
  if (!body)
    return 0;
  unsigned long long total = shared_decls(body, len);
  /* Module-level declarations: lines starting with ".shared" at column 0
   * (or .global .shared), counted where the body names them. */
  for (const char *p = ptx; (p = strstr(p, "\n.shared")) != NULL; p += 8) {
    const char *semi = strchr(p + 1, ';');
    const char *br = semi ? memchr(p, '[', (size_t)(semi - p)) : NULL;
    const char *nm_end = br ? br : semi;
    if (!nm_end)
      break;
    const char *nm = nm_end;
    while (nm > p && !isspace((unsigned char)nm[-1]))
      --nm;
    char var[128];
    snprintf(var, sizeof var, "%.*s", (int)(nm_end - nm), nm);
    int used = 0;
    size_t vl = strlen(var);
    for (const char *u = body; !used && (u = strstr(u, var)) != NULL && u < body + len; u += vl)
      used = !(isalnum((unsigned char)u[vl]) || u[vl] == '_' || u[vl] == '$');
    if (used)
      total += shared_decls(p + 1, (size_t)(semi - p));
  }
  return total;
}

int sass_entry(const char *sass, const char *name, check_sass *k)
{
  char pat[200];
  snprintf(pat, sizeof pat, "Compiling entry function '%s'", name);
  const char *p = strstr(sass, pat);
  *k = (check_sass){0};
  if (!p)
    return -1;
  const char *next = strstr(p + strlen(pat), "Compiling entry function");
  const char *end = next ? next : p + strlen(p);
  const char *q;
  if ((q = strstr(p, "bytes stack frame")) && q < end) {
    const char *s = q;
    while (s > p && s[-1] != '\n' && s[-1] != ':')
      --s;
    sscanf(s, " %llu bytes stack frame, %llu bytes spill stores, %llu bytes spill loads", &k->stack,
           &k->spill_st, &k->spill_ld);
  }
  if ((q = strstr(p, "Used ")) && q < end) {
    sscanf(q, "Used %u registers", &k->regs);
    const char *b = strstr(q, "used ");
    const char *eol = strchr(q, '\n');
    if (b && (!eol || b < eol))
      sscanf(b, "used %u barriers", &k->barriers);
    const char *m = strstr(q, "bytes smem");
    if (m && (!eol || m < eol)) {
      while (m > q && m[-1] == ' ')
        --m;
      while (m > q && isdigit((unsigned char)m[-1]))
        --m;
      k->smem = strtoull(m, NULL, 10);
    }
  }
  return 0;
}

/* The kernel that line [p, eol) opens, if it opens one: cuobjdump's
 * "Function : NAME" or nvdisasm's ".text.NAME:"; its name and length. */
static const char *sass_header(const char *p, const char *eol, size_t *len)
{
  while (p < eol && isspace((unsigned char)*p))
    ++p;
  static const char fn[] = "Function : ", text[] = ".text.";
  const char *n = NULL, *e = eol;
  if ((size_t)(eol - p) > sizeof fn - 1 && strncmp(p, fn, sizeof fn - 1) == 0)
    n = p + sizeof fn - 1;
  else if ((size_t)(eol - p) > sizeof text - 1 && strncmp(p, text, sizeof text - 1) == 0) {
    n = p + sizeof text - 1;
    e = memchr(n, ':', (size_t)(eol - n));
    if (!e)
      return NULL;
  }
  if (!n)
    return NULL;
  while (e > n && isspace((unsigned char)e[-1]))
    --e;
  *len = (size_t)(e - n);
  return n;
}

/* Whether the dotted modifiers of op (length len) include exactly w. */
static int has_modifier(const char *op, size_t len, const char *w)
{
  size_t wl = strlen(w);
  for (const char *d = memchr(op, '.', len); d;
       d = memchr(d + 1, '.', len - (size_t)(d + 1 - op))) {
    const char *m = d + 1;
    if ((size_t)(op + len - m) >= wl && strncmp(m, w, wl) == 0 &&
        (m + wl == op + len || m[wl] == '.'))
      return 1;
  }
  return 0;
}

/* Counts the instruction of line [p, eol) into *k: "/ *ADDR* /  [@P] OP
 * operands ;" (the encoding's own lines have no OP). */
static void sass_count(const char *p, const char *eol, check_ldst *k)
{
  while (p < eol && isspace((unsigned char)*p))
    ++p;
  if (eol - p < 4 || strncmp(p, "/*", 2) != 0)
    return;
  const char *q = p + 2;
  while (q < eol && isxdigit((unsigned char)*q))
    ++q;
  if (q == p + 2 || eol - q < 2 || strncmp(q, "*/", 2) != 0)
    return;
  q += 2;
  for (int word = 0; word < 2; ++word) {
    while (q < eol && isspace((unsigned char)*q))
      ++q;
    size_t len = strcspn(q, " \t;\n");
    if (len > (size_t)(eol - q))
      len = (size_t)(eol - q);
    if (word == 0 && *q == '@') { /* the predicate: the opcode follows */
      q += len;
      continue;
    }
    int ld = strncmp(q, "LDG.", 4) == 0, st = strncmp(q, "STG.", 4) == 0;
    if (!ld && !st)
      return;
    if (has_modifier(q, len, "128"))
      ++*(ld ? &k->ld128 : &k->st128);
    else if (has_modifier(q, len, "64"))
      ++*(ld ? &k->ld64 : &k->st64);
    return;
  }
}

int sass_ldst(const char *sass, const char *name, check_ldst *k)
{
  *k = (check_ldst){0};
  size_t nl = strlen(name), hl;
  int in = 0, found = 0;
  for (const char *p = sass; *p;) {
    const char *eol = strchr(p, '\n');
    if (!eol)
      eol = p + strlen(p);
    const char *h = sass_header(p, eol, &hl), *t = p;
    while (t < eol && isspace((unsigned char)*t))
      ++t;
    if (eol - t > 8 && strncmp(t, ".section", 8) == 0)
      in = 0; /* nvdisasm: another section (its .text.NAME: label follows) */
    else if (h) {
      in = hl == nl && strncmp(h, name, nl) == 0;
      found |= in;
    } else if (in)
      sass_count(p, eol, k);
    p = *eol ? eol + 1 : eol;
  }
  return found ? 0 : -1;
}
