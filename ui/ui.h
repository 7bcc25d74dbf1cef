/*
 * The curses UI: a stack of views over one store, drawn on demand. This is
 * what src/main.c needs to run it; what only the files in ui/ share is in
 * ui-int.h. Neither brings in the importers.
 */
#ifndef UI_H
#define UI_H

#include "npuprof.h"

struct store;
struct store_compare;

/* Called by the UI for R: rebuild the store and return the new one. */
typedef struct store *(*ui_reimport_cb)(void *, struct store *, char **);

struct ui_opts {
	const char	*theme;		/* name or file, NULL: config/default */
	bool		 no_mouse;
	int64_t		 device;
	int64_t		 rank;
	ui_reimport_cb	 reimport;
	void		*reimport_arg;
	const char	*replay;	/* key file for measurements */
	double		 t0;		/* launch time, ui_now() */
	struct store	*base;		/* --compare: the base run, or NULL */
	const struct store_compare *compare;
};

/* ui.c */
int		 ui_run(struct store *, const struct ui_opts *, char **);
struct store	*ui_store(void);
double		 ui_now(void);
bool		 ui_interrupted(void);

/* config.c */
int		 ui_config_advice(char **);

#endif /* UI_H */
