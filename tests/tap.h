/*
 * The handful of TAP macros the unit tests use. Include once per test
 * program; end main() with return done_testing();
 */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>
#include <string.h>

static int	tap_n;
static int	tap_failed;

#define ok(cond, ...) do {						\
	int tap_c = (cond) ? 1 : 0;					\
	tap_n++;							\
	if (tap_c)							\
		printf("ok %d - ", tap_n);				\
	else {								\
		printf("not ok %d - ", tap_n);				\
		tap_failed++;						\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!tap_c)							\
		printf("#   failed at %s line %d\n", __FILE__,		\
		    __LINE__);						\
	fflush(stdout);							\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *tap_g = (got), *tap_w = (want);			\
	ok(tap_g != NULL && tap_w != NULL && strcmp(tap_g, tap_w) == 0,	\
	    __VA_ARGS__);						\
	if (tap_g == NULL || tap_w == NULL || strcmp(tap_g, tap_w) != 0)\
		printf("#   got '%s', want '%s'\n",			\
		    tap_g != NULL ? tap_g : "(null)",			\
		    tap_w != NULL ? tap_w : "(null)");			\
} while (0)

#define is_int(got, want, ...) do {					\
	long long tap_g = (long long)(got), tap_w = (long long)(want);	\
	ok(tap_g == tap_w, __VA_ARGS__);				\
	if (tap_g != tap_w)						\
		printf("#   got %lld, want %lld\n", tap_g, tap_w);	\
} while (0)

#define done_testing() (printf("1..%d\n", tap_n), tap_failed != 0)

#endif /* TAP_H */
