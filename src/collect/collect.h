/*
 * Remote collection: copy an application to a board over OpenSSH, run it
 * with profiling switched on in its acl.json, and copy the JOB data back.
 * collect.c holds the command line and the flow; the other collect-*.c
 * files hold one helper each. Nothing here sees the store or the
 * importers: main.c passes a callback that imports what was copied back.
 */
#ifndef COLLECT_H
#define COLLECT_H

#include "npuprof.h"

/* The environment variable that turns our binary into the askpass helper. */
#define COLLECT_ASKPASS_ENV	"NPUPROF_ASKPASS_SOCKET"

struct collect_askpass;

/* Import the directory DIR and print its tables; return an exit status. */
typedef int (*collect_import_cb)(const char *, void *);

/* A growable NULL-terminated argument vector. */
struct collect_argv {
	char	**v;
	size_t	  n;
};

/* Where and how to reach the board. */
struct collect_target {
	char			*host;
	char			*user;		/* NULL: ssh's choice */
	char			*port;		/* NULL: ssh's choice */
	const char		*config;	/* ssh -F, or NULL */
	struct collect_argv	*options;	/* ssh -o, borrowed */
	bool			 accept_new;	/* accept an unknown host key */
	const char		*askpass;	/* password socket, or NULL */
};

/* The vendor's BOARD.ini, section [ssh_config]. */
struct collect_board {
	char	*ip;
	char	*username;
	char	*port;
	char	*pwd;
};

/* The profiler keys of acl.json to set: NULL values are left alone. */
struct collect_acl {
	const char	*keys[8];
	const char	*values[8];
	int		 n;
};

/* Prefix of the lines the application prints on the board. */
#define COLLECT_PREFIX		"board: "

/* One run of collect: the command line, the target, what was done. */
struct collect_run {
	const char		*main;
	const char		*config;
	const char		*host;
	const char		*pull;
	const char		*output;
	const char		*remote_dir;
	const char		*ssh_config;
	struct collect_argv	 ssh_options;
	struct collect_acl	 acl;
	bool			 accept_new;
	bool			 all;
	bool			 quiet;
	char			**args;
	int			 nargs;

	struct collect_target	 t;
	struct collect_board	 board;
	struct collect_askpass	*askpass;
	char			*rdir;		/* remote working directory */
	char			*rout;		/* remote profiler output */
	bool			 rtemp;		/* rdir is ours to remove */
	char			 rname[32];	/* what prepare creates */
	char			*ltmp;		/* local temporary directory */
	struct collect_argv	 got;		/* copied back, local paths */
	struct timespec		 mark;
	struct strbuf		 times;
};

/* collect.c */
int		 collect_main(int, char **, collect_import_cb, void *);

/* collect-remote.c */
void		 collect_remote_rmtree(const char *);
int		 collect_remote_prepare(struct collect_run *, char **);
int		 collect_remote_upload(struct collect_run *, const char *,
		     const char *, char **);
int		 collect_remote_exec(struct collect_run *, const char *);
void		 collect_remote_cleanup(struct collect_run *, bool);
char		*collect_remote_find(struct collect_run *, char **);
int		 collect_remote_fetch(struct collect_run *, const char *,
		     struct collect_argv *, char **);
void		 collect_remote_names(const char *, struct collect_argv *);

/* collect-ssh.c */
void		 collect_ssh_argv_add(struct collect_argv *, const char *);
void		 collect_ssh_argv_free(struct collect_argv *);
char		*collect_ssh_quote(const char *);
void		 collect_ssh_catch_signals(void);
void		 collect_ssh_cleaning(void);
int		 collect_ssh_interrupted(void);
int		 collect_ssh_command(const struct collect_target *,
		     const char *, char **, char **);
int		 collect_ssh_stream(const struct collect_target *, const char *,
		     const char *);
int		 collect_ssh_upload(const struct collect_target *, char **,
		     const char *, char **);
int		 collect_ssh_download(const struct collect_target *,
		     const char *, const char *, char **);

/* collect-ini.c */
int		 collect_ini_read(const char *, struct collect_board *,
		     char **);
void		 collect_ini_board_release(struct collect_board *);

/* collect-acl.c */
char		*collect_acl_rewrite(const char *, const struct collect_acl *,
		     char **);

/* collect-askpass.c */
struct collect_askpass *collect_askpass_start(const char *, char **);
const char	*collect_askpass_socket(struct collect_askpass *);
void		 collect_askpass_stop(struct collect_askpass *);
bool		 collect_askpass_wanted(void);
int		 collect_askpass_main(int, char **);

#endif /* COLLECT_H */
