/*
 * The one-line prompt on the status line, for filters, searches and file
 * names. It is not modal: while it is open the loop hands it every key, and
 * when the user presses Enter (or Esc) it calls back its owner with the text
 * (or NULL). It draws only when the loop asks.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static struct {
	bool		 active;
	char		*label;
	struct strbuf	 text;
	bool		 offered;	/* the initial text, not yet edited */
	void		 (*done)(void *, const char *);
	void		 (*change)(void *, const char *);
	void		*arg;
} prompt;

bool
prompt_active(void)
{
	return prompt.active;
}

/*
 * Open the prompt LABEL with INITIAL text; DONE gets the answer. The
 * initial text is offered, drawn as selected: Enter takes it, a typed
 * character replaces it, and Backspace, C-w, C-u, Right or End edit it.
 */
void
prompt_start(const char *label, const char *initial,
    void (*done)(void *, const char *), void *arg)
{
	free(prompt.label);
	prompt.label = xstrdup(label);
	strbuf_release(&prompt.text);
	strbuf_init(&prompt.text);
	strbuf_adds(&prompt.text, initial != NULL ? initial : "");
	prompt.offered = prompt.text.len > 0;
	prompt.done = done;
	prompt.change = NULL;
	prompt.arg = arg;
	prompt.active = true;
}

/* Ask LABEL for a step, CUR (NP_NA: none) as the initial text. */
void
prompt_step(const char *label, int64_t cur, void (*done)(void *,
    const char *), void *arg)
{
	char	 now[32] = "";

	if (cur != NP_NA)
		snprintf(now, sizeof now, "%lld", (long long)cur);
	prompt_start(label, now, done, arg);
}

/*
 * The step number ANSWER into *STEP; -1 (said on the status line) if it
 * is not one.
 */
int
prompt_step_parse(const char *answer, int64_t *step)
{
	char	*end;

	*step = strtoll(answer, &end, 10);
	if (*end != '\0' || end == answer) {
		status_set(ROLE_ERROR, "not a step number: %s", answer);
		return -1;
	}
	return 0;
}

/*
 * Have CHANGE told the text after each edit, for an incremental search;
 * the prompt opened last gets it.
 */
void
prompt_on_change(void (*change)(void *, const char *))
{
	prompt.change = change;
}

void
prompt_draw(void)
{
	int	 x, w;

	draw_fill(LINES - 1, 0, COLS, ROLE_PROMPT);
	x = draw_text(LINES - 1, 0, COLS, ROLE_PROMPT, prompt.label);
	/* Show the end of a text too long for the line. */
	w = draw_width(prompt.text.s);
	if (w > COLS - x - 1) {
		x += draw_text(LINES - 1, x, 1, ROLE_DIM, "<");
		draw_text(LINES - 1, x, COLS - x - 1, ROLE_PROMPT,
		    prompt.text.s + prompt.text.len -
		    (size_t)(COLS - x - 1 < 0 ? 0 : COLS - x - 1));
		x = COLS - 1;
	} else
		x += draw_text(LINES - 1, x, COLS - x, prompt.offered ?
		    ROLE_CURSOR : ROLE_PROMPT, prompt.text.s);
	draw_text(LINES - 1, x, 1, ROLE_CURSOR, " ");
}

/* Remove the last character (all bytes of a UTF-8 sequence). */
static void
prompt_backspace(void)
{
	while (prompt.text.len > 0) {
		prompt.text.len--;
		if (((unsigned char)prompt.text.s[prompt.text.len] & 0xc0) !=
		    0x80)
			break;
	}
	prompt.text.s[prompt.text.len] = '\0';
}

static int
prompt_finish(bool ok)
{
	char	*text = strbuf_detach(&prompt.text);

	strbuf_init(&prompt.text);
	prompt.active = false;
	prompt.done(prompt.arg, ok ? text : NULL);
	free(text);
	return REDRAW_ALL;
}

/* A key while the prompt is open. */
int
prompt_key(int key)
{
	bool	 offered = prompt.offered;

	prompt.offered = false;
	switch (key) {
	case '\r':
	case '\n':
	case KEY_ENTER:
		return prompt_finish(true);
	case 0x1b:
	case 0x07:
		return prompt_finish(false);
	case KEY_BACKSPACE:
	case 0x7f:
	case 0x08:
		if (prompt.text.len == 0)
			return prompt_finish(false);
		prompt_backspace();
		break;
	case 0x15:
		strbuf_reset(&prompt.text);
		strbuf_adds(&prompt.text, "");
		break;
	case 0x17:
		while (prompt.text.len > 0 &&
		    prompt.text.s[prompt.text.len - 1] == ' ')
			prompt_backspace();
		while (prompt.text.len > 0 &&
		    prompt.text.s[prompt.text.len - 1] != ' ')
			prompt_backspace();
		break;
	case KEY_RIGHT:
	case KEY_END:
		/* The offered text, to edit: nothing else moves here. */
		return REDRAW_STATUS;
	default:
		if (key < 0x20 || key > 0xff || key == 0x7f) {
			prompt.offered = offered;
			return REDRAW_NONE;
		}
		if (offered)
			strbuf_reset(&prompt.text);
		strbuf_addc(&prompt.text, (char)key);
		break;
	}
	if (prompt.change != NULL) {
		prompt.change(prompt.arg, prompt.text.s);
		return REDRAW_ALL;
	}
	return REDRAW_STATUS;
}
