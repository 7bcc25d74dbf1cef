/*
 * Export's small parts: the --range syntax, the file name stamp, and
 * files written under a temporary name until committed.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "export-int.h"
#include "tap.h"

#define FIRST	1780000000000000000LL

static int
range(const char *spec, int64_t *from, int64_t *to)
{
	char	*cause = NULL;
	int	 rc;

	rc = export_file_parse_range(spec, FIRST, from, to, &cause);
	free(cause);
	return rc;
}

int
main(void)
{
	struct export_file	*ef;
	int64_t			 from, to;
	char			 buf[32], dir[] = "/tmp/t-export.XXXXXX",
	    *cause;
	char			*path;

	ok(range("1.5s:2s", &from, &to) == 0 && from == FIRST + 1500000000 &&
	    to == FIRST + 2000000000, "seconds from the start");
	ok(range("200ms:", &from, &to) == 0 && from == FIRST + 200000000 &&
	    to == NP_NA, "an open end");
	ok(range(":30us", &from, &to) == 0 && from == NP_NA &&
	    to == FIRST + 30000, "an open start");
	ok(range("10ns:1.5us", &from, &to) == 0 && from == FIRST + 10 &&
	    to == FIRST + 1500, "ns and fractional us");
	ok(range("1780295077844859.03:1780295077844860", &from, &to) == 0 &&
	    from == 1780295077844859030LL && to == 1780295077844860000LL,
	    "epoch microseconds as the vendor prints them");
	ok(range("2s:1s", &from, &to) != 0, "an empty window is refused");
	ok(range("1s", &from, &to) != 0, "no colon");
	ok(range("1h:2h", &from, &to) != 0, "an unknown unit");
	ok(range("-1s:", &from, &to) != 0, "a negative time");
	ok(range("1e400s:", &from, &to) != 0, "a number out of range");

	setenv("SOURCE_DATE_EPOCH", "1780000000", 1);
	setenv("TZ", "UTC", 1);
	export_file_stamp(buf, sizeof buf);
	is_str(buf, "20260528202640", "SOURCE_DATE_EPOCH fixes the stamp");

	if (mkdtemp(dir) == NULL)
		return 1;
	cause = NULL;
	ef = export_file_open(dir, "a.csv", &cause);
	ok(ef != NULL, "open");
	path = util_path_join(dir, "a.csv");
	fputs("x\n", ef->f);
	ok(access(path, F_OK) != 0, "nothing under the final name yet");
	ok(export_file_commit(ef, &cause) == 0 && access(path, F_OK) == 0,
	    "commit renames into place");
	ok(export_file_check_free(path, false, &cause) != 0,
	    "an existing file");
	free(cause);
	cause = NULL;
	ok(export_file_check_free(path, true, &cause) == 0,
	    "--force allows it");
	ef = export_file_open(dir, "b.csv", &cause);
	export_file_abort(ef);
	free(path);
	path = util_path_join(dir, "b.csv");
	ok(access(path, F_OK) != 0 && rmdir(dir) != 0, "abort leaves only a");
	unlink(path);
	free(path);
	path = util_path_join(dir, "a.csv");
	unlink(path);
	free(path);
	ok(rmdir(dir) == 0, "and no temporary file");
	return done_testing();
}
