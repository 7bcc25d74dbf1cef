/*
 * The vendor's BOARD.ini: an INI file whose [ssh_config] section names
 * the board (ip, username, port, default 22) and its password (pwd). The
 * file holds a password, so we warn when others may read it and remind
 * the user to remove it, as the vendor's guide does; the copies we make
 * of the password are wiped when released.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

/* Trim blanks at both ends of [*S, *S + *LEN). */
static void
collect_ini_trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s))
		(*s)++, (*len)--;
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* Store VALUE for KEY of [ssh_config] in B; unknown keys are ignored. */
static void
collect_ini_set(struct collect_board *b, const char *key, size_t klen,
    const char *value, size_t vlen)
{
	char	**field = NULL;

	if (klen == 2 && strncmp(key, "ip", 2) == 0)
		field = &b->ip;
	else if (klen == 8 && strncmp(key, "username", 8) == 0)
		field = &b->username;
	else if (klen == 4 && strncmp(key, "port", 4) == 0)
		field = &b->port;
	else if (klen == 3 && strncmp(key, "pwd", 3) == 0)
		field = &b->pwd;
	if (field == NULL)
		return;
	if (vlen >= 2 && (value[0] == '"' || value[0] == '\'') &&
	    value[vlen - 1] == value[0])
		value++, vlen -= 2;
	if (*field != NULL) {
		explicit_bzero(*field, strlen(*field));
		free(*field);
	}
	*field = xstrndup(value, vlen);
}

/* Parse the lines of DATA into B. Return 0, or -1 with *cause. */
static int
collect_ini_parse(const char *path, char *data, struct collect_board *b,
    char **cause)
{
	const char	*line, *eq, *key, *value;
	char		*next;
	size_t		 len, klen, vlen;
	bool		 ours = false;
	int		 n = 0;

	for (line = data; line != NULL; line = next) {
		n++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		len = strlen(line);
		collect_ini_trim(&line, &len);
		if (len == 0 || line[0] == '#' || line[0] == ';')
			continue;
		if (line[0] == '[') {
			ours = len == 12 && strncmp(line, "[ssh_config]",
			    12) == 0;
			continue;
		}
		if ((eq = memchr(line, '=', len)) == NULL) {
			/* Never quote the line: it may hold the password. */
			xasprintf(cause, "%s:%d: expected KEY = VALUE", path,
			    n);
			return -1;
		}
		if (!ours)
			continue;
		key = line;
		klen = (size_t)(eq - line);
		value = eq + 1;
		vlen = len - klen - 1;
		collect_ini_trim(&key, &klen);
		collect_ini_trim(&value, &vlen);
		collect_ini_set(b, key, klen, value, vlen);
	}
	return 0;
}

/*
 * Read the [ssh_config] section of PATH into B (released with
 * collect_ini_board_release()). Return 0, or -1 with *cause.
 */
int
collect_ini_read(const char *path, struct collect_board *b, char **cause)
{
	struct stat	 st;
	char		*data;
	size_t		 len;
	int		 rc;

	memset(b, 0, sizeof *b);
	if (util_read_config(path, &data, &len, 65536, cause) != 0)
		return -1;
	if (stat(path, &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0)
		log_warnx("'%s' is readable by group or others: it holds "
		    "the board password (chmod 600 it)", path);
	rc = collect_ini_parse(path, data, b, cause);
	explicit_bzero(data, len);
	free(data);
	if (rc == 0 && (b->ip == NULL || *b->ip == '\0')) {
		xasprintf(cause, "%s: no ip in section [ssh_config]", path);
		rc = -1;
	}
	if (rc != 0)
		collect_ini_board_release(b);
	return rc;
}

void
collect_ini_board_release(struct collect_board *b)
{
	if (b->pwd != NULL)
		explicit_bzero(b->pwd, strlen(b->pwd));
	free(b->pwd);
	free(b->ip);
	free(b->username);
	free(b->port);
	memset(b, 0, sizeof *b);
}
