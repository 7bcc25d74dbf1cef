/*
 * What every view shows: the store, and the device and rank it is limited
 * to. ui.c sets the store when it starts and after a re-import; the
 * device and rank selectors change the rest. It calls nothing else in
 * ui/, so every view can read it.
 */
#include "ui-int.h"

static struct store	*session_s;
static int64_t		 session_dev = NP_NA;
static int64_t		 session_rnk = NP_NA;

struct store *
session_store(void)
{
	return session_s;
}

/* Show store S from now on; it stays the caller's. */
void
session_set_store(struct store *s)
{
	session_s = s;
}

/* The device shown, NP_NA for all. */
int64_t
session_device(void)
{
	return session_dev;
}

/* The rank shown, NP_NA for all. */
int64_t
session_rank(void)
{
	return session_rnk;
}

void
session_set_device(int64_t device, int64_t rank)
{
	session_dev = device;
	session_rnk = rank;
}
