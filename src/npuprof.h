/*
 * Common declarations every layer may use: memory helpers that never return
 * NULL, logging, small string and number utilities, exact decimal time
 * parsing and the PCRE2 matcher.
 */
#ifndef NPUPROF_H
#define NPUPROF_H

#include "config.h"

#include <sys/types.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A missing integer value ("N/A" in the vendor's files). */
#define NP_NA		INT64_MIN

/* The device id the vendor gives the host. */
#define NP_HOST_DEVICE	64

#ifndef __dead
#define __dead		__attribute__((__noreturn__))
#endif
#define PRINTFLIKE(a, b) __attribute__((__format__(__printf__, a, b)))

struct matcher;

/* xmalloc.c */
void		*xmalloc(size_t);
void		*xcalloc(size_t, size_t);
void		*xreallocarray(void *, size_t, size_t);
char		*xstrdup(const char *);
char		*xstrndup(const char *, size_t);
int		 xasprintf(char **, const char *, ...) PRINTFLIKE(2, 3);
int		 xvasprintf(char **, const char *, va_list);

/* log.c */
void		 log_set_quiet(bool);
void		 log_set_hook(void (*)(void));
void		 log_warnx(const char *, ...) PRINTFLIKE(1, 2);
void		 log_infox(const char *, ...) PRINTFLIKE(1, 2);
void		 log_errx(const char *, ...) PRINTFLIKE(1, 2);
__dead void	 log_usagex(const char *, const char *, ...) PRINTFLIKE(2, 3);
__dead void	 fatal(const char *, ...) PRINTFLIKE(1, 2);
__dead void	 fatalx(const char *, ...) PRINTFLIKE(1, 2);
const char	*log_progname(void);

/* A count of values with their total, least and greatest (util.c). */
struct util_stat {
	int64_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
};

/* A map of uint64_t keys to values (util-map.c). */
struct util_map {
	uint64_t	*keys;
	uint64_t	*vals;		/* value + 1; 0 marks an empty slot */
	size_t		 size;
	size_t		 n;
};
void		 util_map_init(struct util_map *);
void		 util_map_reserve(struct util_map *, size_t);
void		 util_map_release(struct util_map *);
bool		 util_map_get(const struct util_map *, uint64_t, uint64_t *);
void		 util_map_set(struct util_map *, uint64_t, uint64_t);
bool		 util_map_probe(const struct util_map *, uint64_t *,
		     bool (*)(const void *, uint64_t), const void *,
		     uint64_t *);
/*
 * The same for values below UINT32_MAX, in 12 bytes a slot and up to 0.8
 * full: for the largest indexes, of a few million keys.
 */
struct util_map32 {
	uint64_t	*keys;
	uint32_t	*vals;		/* value + 1; 0 marks an empty slot */
	size_t		 size;
	size_t		 n;
};
void		 util_map32_init(struct util_map32 *);
void		 util_map32_reserve(struct util_map32 *, size_t);
void		 util_map32_release(struct util_map32 *);
bool		 util_map32_get(const struct util_map32 *, uint64_t,
		     uint32_t *);
void		 util_map32_set(struct util_map32 *, uint64_t, uint32_t);

/* util.c */
struct strbuf {
	char	*s;
	size_t	 len;
	size_t	 size;
};
void		 strbuf_init(struct strbuf *);
void		 strbuf_release(struct strbuf *);
void		 strbuf_reset(struct strbuf *);
void		 strbuf_reserve(struct strbuf *, size_t);
void		 strbuf_adds(struct strbuf *, const char *);
void		 strbuf_addf(struct strbuf *, const char *, ...)
		     PRINTFLIKE(2, 3);
char		*strbuf_detach(struct strbuf *);

/*
 * Append N bytes at S (or the byte C): inline, since the parsers call them
 * for every token, and a call only when the buffer must grow.
 */
static inline void
strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->size)
		strbuf_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void
strbuf_addc(struct strbuf *b, char c)
{
	if (b->len + 2 > b->size)
		strbuf_reserve(b, 1);
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/*
 * Checked arithmetic on values read from input: *R = A - B (or A + B);
 * false, and *R NP_NA, when either is NP_NA or the result overflows.
 */
static inline bool
util_sub(int64_t a, int64_t b, int64_t *r)
{
	if (a == NP_NA || b == NP_NA || __builtin_sub_overflow(a, b, r) ||
	    *r == NP_NA) {
		*r = NP_NA;
		return false;
	}
	return true;
}

static inline bool
util_add(int64_t a, int64_t b, int64_t *r)
{
	if (a == NP_NA || b == NP_NA || __builtin_add_overflow(a, b, r) ||
	    *r == NP_NA) {
		*r = NP_NA;
		return false;
	}
	return true;
}

int		 util_parse_ns(const char *, size_t, int64_t *);
int		 util_parse_int(const char *, size_t, int64_t *);
int		 util_parse_double(const char *, size_t, double *);
void		 util_fmt_pyfloat(char *, size_t, double);
void		 util_fmt_pyfloat_any(char *, size_t, double);
double		 util_round4(double);
void		 util_fmt_us(char *, size_t, int64_t, int, bool);
void		 util_fmt_time(char *, size_t, int64_t);
char		*util_fmt_u64(char *, uint64_t);
void		 util_fmt_fixed(char *, size_t, double, int, bool);
void		 util_trim(const char **, size_t *);
bool		 util_is_na(const char *, size_t);
size_t		 util_width(const char *, size_t, size_t *, bool);
bool		 util_listed(const char *, const char *);
bool		 util_has_prefix(const char *, const char *);
uint64_t	 util_env_count(const char *, uint64_t, uint64_t);
bool		 util_has_suffix(const char *, const char *);
char		*util_path_join(const char *, const char *);
char		*util_abspath(const char *);
const char	*util_basename(const char *);
int		 util_mkdir_p(const char *, mode_t);
/* A walk of a tree that stays inside it and sees each directory once. */
struct util_walk {
	char		*root;		/* its real path */
	struct util_map	 seen;		/* inode -> 1 + newest index */
	struct {
		uint64_t	 dev;
		size_t		 same;	/* 1 + the one before, same inode */
	}		*dirs;
	size_t		 ndirs;
};
void		 util_walk_init(struct util_walk *, const char *);
void		 util_walk_release(struct util_walk *);
struct stat;
bool		 util_walk_visit(struct util_walk *, const char *,
		     const struct stat *);
int		 util_open_input(const char *);
FILE		*util_fopen_input(const char *);
const char	*util_input_error(int);
int		 util_read_config(const char *, char **, size_t *, size_t,
		     char **);
int		 util_read_file(const char *, char **, size_t *, size_t,
		     char **);
int		 util_write_file_atomic(const char *, const char *, size_t,
		     bool, char **);
uint64_t	 util_hash64(const char *, size_t);
void		 util_tighten_umask(void);
void		 util_tune_malloc(void);
char		**util_dir_list(const char *, size_t *);
void		 util_strv_free(char **, size_t);
bool		 util_dir_has(const char *, const char *);
uint64_t	 util_rand_next(uint64_t *);
uint64_t	 util_random64(const void *);
void		 util_catch_signal(int, void (*)(int));
void		 util_tty_quiet(void);
void		 util_tty_restore(void);
void		 util_tty_unquiet(void);
size_t		 util_utf8_len(const unsigned char *, size_t);
const char	*util_visible(const char *, struct strbuf *, bool);
struct option;
const char	*util_option_error(char **, const struct option *, int);
void		 util_stat_add(struct util_stat *, int64_t);
void		*util_grow(void *, size_t, size_t, size_t);
size_t		 util_count_below(const uint64_t *, size_t, uint64_t);
/* json.c */
struct json;
struct json	*json_open(FILE *);
void		 json_free(struct json *);
void		 json_next(struct json *);
void		 json_str(struct json *, const char *);
void		 json_strn(struct json *, const char *, size_t);
void		 json_int(struct json *, int64_t);
void		 json_null(struct json *);
void		 json_map_open(struct json *);
void		 json_map_close(struct json *);
void		 json_array_open(struct json *);
void		 json_array_close(struct json *);
bool		 json_is_number(const char *, size_t);
bool		 json_number(struct json *, const char *);
bool		 json_members(struct json *, const char *);
struct yajl_val_s;
struct yajl_val_s *json_tree_parse(const char *, char *, size_t);

FILE		*util_file_create(const char *, const char *, char **);
int		 util_file_close(FILE *, const char *, const char *, char **);
double		 util_now(void);

/* matcher.c */
struct matcher	*matcher_create(const char *, bool, char **);
void		 matcher_free(struct matcher *);
bool		 matcher_match(struct matcher *, const char *, size_t);
bool		 matcher_failed(struct matcher *, char **);
bool		 matcher_may_match_chars(struct matcher *, const char *);
int		 matcher_memo_get(struct matcher *, int64_t);
void		 matcher_memo_set(struct matcher *, int64_t, bool);
void		 matcher_set_aux(struct matcher *, void *, void (*)(void *));
void		*matcher_aux(struct matcher *);
int		 matcher_find(struct matcher *, const char *, size_t, size_t *,
		     size_t *);

#endif /* NPUPROF_H */
