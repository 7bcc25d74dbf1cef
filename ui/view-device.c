/*
 * The device and rank selectors: every device (or rank) the store has data
 * for, and "all". Choosing one reopens the views on that device or rank;
 * the choice also holds for the views opened later.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

struct view_device {
	int64_t		*ids;
	size_t		 n;
	size_t		 cur;		/* 0 is "all" */
	bool		 rank;		/* ranks, not devices */
};

static int
view_device_open(struct view *v, const void *arg, char **cause)
{
	struct view_device	*vd;
	size_t			 i;

	vd = xcalloc(1, sizeof *vd);
	vd->rank = v->ops == &view_rank_ops;
	/* A set of stores knows its ranks; a rank's store only its own. */
	if ((vd->rank ? store_query_ranks(session_base(), &vd->ids, &vd->n,
	    cause) : store_query_devices(session_store(), &vd->ids, &vd->n,
	    cause)) != 0) {
		free(vd);
		return -1;
	}
	for (i = 0; i < vd->n; i++) {
		if (vd->ids[i] == (vd->rank ? session_rank() :
		    session_device()))
			vd->cur = i + 1;
	}
	v->data = vd;
	return 0;
}

static void
view_device_close(struct view *v)
{
	struct view_device	*vd = v->data;

	free(vd->ids);
	free(vd);
}

static void
view_device_draw(struct view *v, int y, int h)
{
	struct view_device	*vd = v->data;
	size_t			 i;
	enum role		 role;
	char			 title[128], keys[64];

	snprintf(title, sizeof title, "Choose a %s (%s)", vd->rank ? "rank" :
	    "device", keys_names_for(v->ops->keymap, ACTION_OPEN, keys,
	    sizeof keys));
	draw_text(y, 1, COLS - 1, ROLE_TITLE, title);
	for (i = 0; i <= vd->n && (int)i + 2 < h; i++) {
		role = i == vd->cur ? ROLE_CURSOR : ROLE_NORMAL;
		draw_fill(y + 2 + (int)i, 0, COLS, role);
		if (i == 0)
			draw_text(y + 2, 3, COLS - 3, role, vd->rank ?
			    "all ranks" : "all devices");
		else if (vd->rank)
			draw_textf(y + 2 + (int)i, 3, COLS - 3, role,
			    "rank %lld", (long long)vd->ids[i - 1]);
		else if (vd->ids[i - 1] == NP_HOST_DEVICE)
			draw_text(y + 2 + (int)i, 3, COLS - 3, role, "host");
		else
			draw_textf(y + 2 + (int)i, 3, COLS - 3, role,
			    "device %lld", (long long)vd->ids[i - 1]);
	}
}

static int
view_device_key(struct view *v, enum action a, int key)
{
	struct view_device	*vd = v->data;
	int64_t			 id;
	char			*cause = NULL;

	/* "all", then each id. */
	if (view_list_move(&vd->cur, vd->n + 1, a))
		return REDRAW_BODY;
	switch (a) {
	case ACTION_OPEN:
		id = vd->cur == 0 ? NP_NA : vd->ids[vd->cur - 1];
		if ((vd->rank ? session_set_device(session_device(), id,
		    &cause) : session_set_device(id, session_rank(),
		    &cause)) != 0) {
			tabs_reopen(tabs_current());
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			return REDRAW_ALL;
		}
		/* Every view reopens for the new device. */
		tabs_reopen(tabs_current());
		return REDRAW_ALL;
	default:
		return -1;
	}
}

const struct view_ops view_device_ops = {
	.name = "device",
	.title = "Devices",
	.open = view_device_open,
	.close = view_device_close,
	.draw = view_device_draw,
	.key = view_device_key,
	.hints = view_hints_pick,
};

const struct view_ops view_rank_ops = {
	.name = "rank",
	.title = "Ranks",
	.open = view_device_open,
	.close = view_device_close,
	.draw = view_device_draw,
	.key = view_device_key,
	.hints = view_hints_pick,
};
