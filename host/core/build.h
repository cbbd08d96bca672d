/*
 * core/build.h: programs and their builds, as the core's files share them
 * (program.c, declare.c, cache.c, cache_entry.c, cache_key.c): the
 * program object, the domains its source declares, the text every build
 * hands the compiler, and the disk cache of binaries. Private to the core.
 */
#ifndef LSK_CORE_BUILD_H
#define LSK_CORE_BUILD_H

#include "core/objects.h"

/* One build of a program: one configuration on the context's device. */
struct lsk__build {
  unsigned domain[3];
  unsigned workers, simd;
  cl_program program;
  struct lsk__build *next;
};

/* A block domain the source declares for one kernel (declare.c). */
typedef struct lsk__decl {
  char *kernel;
  unsigned domain[3];
} lsk__decl;

struct lsk_program {
  lsk__handle h;
  lsk_context *ctx;
  char *name;
  char *source;    /* the user's source only */
  char *prelude;   /* generated code before it, "" if none */
  char *options;   /* user build options, "" if none */
  char *cache_dir; /* NULL: none */
  lsk__decl *decls;
  size_t ndecls;
  lsk__build *builds;
  lsk_program_stats stats;
  char *lint; /* lint.c's findings, refused at every build; NULL: none */
};

/* declare.c: the declarations of source (LSK_DECLARE_DOMAIN...); NULL, or
 * a malloc'd "LINE: what is wrong" (no message set). */
char *lsk__scan_declarations(const char *source, lsk__decl **decls, size_t *ndecls);
void lsk__free_declarations(lsk__decl *decls, size_t ndecls);
/* declare.c: a malloc'd copy of src with comments, the insides of literals
 * and preprocessor lines blanked, newlines kept; NULL without memory. */
char *lsk__blank_noise(const char *src);
/* lint.c: the findings of lsk_source_check, "NAME:LINE: ...\n" each
 * (NULL and *count 0 if none; NULL and *count -1 without memory). */
char *lsk__lint(const char *source, const char *name, unsigned flags, int *count);

/* program.c: the text and options of one configuration (lsk_program_text,
 * builds): the device library, the prelude and the source behind #line
 * markers, the configuration's defines; either NULL without memory. */
void lsk__program_text(const char *name, const char *prelude, const char *source,
                       const char *options, const unsigned domain[3], unsigned workers,
                       unsigned simd, char **text, char **opts);

/* cache.c: the on-disk binary cache. key is the full text that identifies
 * a build; load returns a built program or NULL (entry missing or bad);
 * store is best effort and atomic. */
cl_program lsk__cache_load(lsk_context *ctx, const char *dir, const char *key);
void lsk__cache_store(lsk_context *ctx, const char *dir, const char *key, cl_program program);
/* cache_entry.c: writes path as the entry of the size bytes of bin for key
 * (lsk__file_replace: 0, or -1 with path unchanged). */
int lsk__cache_entry_write(const char *path, const char *key, const unsigned char *bin,
                           size_t size);

#endif /* LSK_CORE_BUILD_H */
