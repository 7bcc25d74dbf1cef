/*
 * torch_npu's torch.param_tensor_info (doc/formats.md section 3.11): with
 * the Python tracer, shapes and memory recorded, the parameters of each
 * module and optimizer call,
 * as type-5 TLV records of the call's tracer key and one text field,
 * 1 for a module's, 2 for an optimizer's. A module's text is its
 * parameters joined by '}', each "name)TENSOR)GRAD" (GRAD empty without a
 * gradient); an optimizer's is "TENSOR)GRAD)STATE]STATE]...", each STATE
 * "name>TENSOR". A TENSOR is eight ';'-separated fields: tensor impl,
 * storage pointer, dtype, element size, sizes, strides (',' inside),
 * device type and device index. They become table param_tensor_info, a
 * row per parameter, named after the call through the tracer's names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define FWK_PARAMS_T		5	/* FwkDataType of the records */
#define FWK_PARAM_FIELDS	8	/* of one tensor */

/* One tensor of the text: its fields, pointing into the text. */
struct fwk_tensor {
	char	*f[FWK_PARAM_FIELDS];
};

/* Split tensor text T (changed in place) into *OUT; false if malformed. */
static bool
prof_fwk_params_tensor(char *t, struct fwk_tensor *out)
{
	char	*p = t, *semi;
	int	 i;

	for (i = 0; i < FWK_PARAM_FIELDS; i++) {
		out->f[i] = p;
		if (i == FWK_PARAM_FIELDS - 1)
			return strchr(p, ';') == NULL;
		if ((semi = strchr(p, ';')) == NULL)
			return false;
		*semi = '\0';
		p = semi + 1;
	}
	return false;
}

/*
 * Decimal digits at *P (no sign, no space) into *V, *P past them; false
 * if there are none or the value passes 2^64 - 1.
 */
static bool
prof_fwk_params_u64(const char **p, uint64_t *v)
{
	const char	*q = *p;

	*v = 0;
	if (*q < '0' || *q > '9')
		return false;
	for (; *q >= '0' && *q <= '9'; q++) {
		if (*v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*q - '0');
	}
	*p = q;
	return true;
}

/*
 * The bytes of tensor T: the product of its sizes times the element size,
 * N/A if one of them is not a number or the product passes 2^64 - 1.
 */
static void
prof_fwk_params_bytes(const struct fwk_tensor *t, char *buf, size_t size)
{
	const char	*p = t->f[4], *q = t->f[3];
	uint64_t	 n = 1, v, es;

	if (!prof_fwk_params_u64(&q, &es) || *q != '\0')
		goto na;
	while (*p != '\0') {
		if (!prof_fwk_params_u64(&p, &v) || (*p != ',' && *p != '\0') ||
		    (v != 0 && n > UINT64_MAX / v))
			goto na;
		n *= v;
		if (*p == ',' && *++p == '\0')
			goto na;
	}
	if (es != 0 && n > UINT64_MAX / es)
		goto na;
	snprintf(buf, size, "%" PRIu64, n * es);
	return;
na:
	snprintf(buf, size, "N/A");
}

/* The columns of tensor T: dtype to device, bytes, pointers. */
static void
prof_fwk_params_cols(struct prof_row *row, const struct fwk_tensor *t)
{
	prof_extra_row_str(row, t->f[2]);
	prof_extra_row_str(row, t->f[4]);
	prof_extra_row_str(row, t->f[5]);
	prof_extra_row_str(row, t->f[6]);
	prof_extra_row_str(row, t->f[7]);
	if (row->n < PROF_ROW_MAX) {
		prof_fwk_params_bytes(t, row->buf[row->n],
		    sizeof row->buf[0]);
		prof_extra_row_str(row, row->buf[row->n]);
	}
	prof_extra_row_str(row, t->f[1]);
}

/*
 * The call of KEY as the tracer names it (NM): "nn.Module: NAME" for a
 * module call NAME######UID (UID into *UID, a copy), else the name, else
 * the key; the caller frees both.
 */
static char *
prof_fwk_params_call(struct fwk_names *nm, uint64_t key, char **uid)
{
	const char	*name, *mark;
	char		*call;

	if ((name = prof_fwk_py_names_find(nm, key)) == NULL) {
		*uid = xstrdup("");
		xasprintf(&call, "%" PRIu64, key);
		return call;
	}
	if ((mark = strstr(name, "######")) == NULL) {
		*uid = xstrdup("");
		return xstrdup(name);
	}
	*uid = xstrdup(mark + 6);
	xasprintf(&call, "nn.Module: %.*s", (int)(mark - name), name);
	return call;
}

/*
 * End the parameter at P (a text of parameters joined by '}'), in place;
 * return the next one, or NULL. torch_npu does not escape a '}' in a
 * parameter's name, so a piece with fewer than the two ')' every
 * parameter has is joined with the piece after it.
 */
static char *
prof_fwk_params_end(char *p)
{
	char	*end = p, *q;
	int	 closes;

	for (;;) {
		if ((end = strchr(end, '}')) == NULL)
			return NULL;
		for (q = p, closes = 0; q < end && closes < 2; q++)
			closes += *q == ')';
		if (closes >= 2)
			break;
		end++;
	}
	*end = '\0';
	return end + 1;
}

/*
 * Parameter P (text of kind KIND, 1 module or 2 optimizer, the I-th of its
 * record) as rows; false if its text is malformed.
 */
static bool
prof_fwk_params_one(struct store *s, struct prof_row *row, char *p, int kind,
    size_t i, const char *call, const char *uid, uint64_t key)
{
	struct fwk_tensor	 t, grad, st;
	struct strbuf		 states;
	char			*name = "", *tt, *gt, *rest, *q, *close, *gt2;
	bool			 ok = true;

	if (kind == 1) {
		if ((q = strchr(p, ')')) == NULL)
			return false;
		*q = '\0';
		name = p;
		p = q + 1;
	}
	tt = p;
	if ((q = strchr(p, ')')) == NULL)
		return false;
	*q = '\0';
	gt = q + 1;
	rest = NULL;
	if (kind == 2) {
		if ((q = strchr(gt, ')')) == NULL)
			return false;
		*q = '\0';
		rest = q + 1;
	}
	if (!prof_fwk_params_tensor(tt, &t) || (kind == 1 &&
	    strchr(gt, ')') != NULL) || (*gt != '\0' &&
	    !prof_fwk_params_tensor(gt, &grad)))
		return false;
	strbuf_init(&states);
	for (q = rest; ok && q != NULL && *q != '\0'; q = close + 1) {
		if ((close = strchr(q, ']')) == NULL ||
		    (gt2 = strchr(q, '>')) == NULL || gt2 > close) {
			ok = false;
			break;
		}
		*close = *gt2 = '\0';
		if (!(ok = prof_fwk_params_tensor(gt2 + 1, &st)))
			break;
		strbuf_addf(&states, "%s%s:%s", states.len > 0 ? ";" : "", q,
		    st.f[4]);
	}
	if (ok) {
		prof_extra_row_u64(row, key);
		prof_extra_row_str(row, call);
		prof_extra_row_str(row, uid);
		prof_extra_row_str(row, kind == 1 ? "module" : "optimizer");
		prof_extra_row_u64(row, i);
		prof_extra_row_str(row, name);
		prof_fwk_params_cols(row, &t);
		prof_extra_row_str(row, *gt != '\0' ? grad.f[4] : "");
		prof_extra_row_str(row, states.len > 0 ? states.s : "");
		prof_extra_row_load(s, row);
	}
	row->n = 0;
	strbuf_release(&states);
	return ok;
}

/*
 * Decode the parameters file PATH into table param_tensor_info, naming
 * the calls through the tracer's names NM (NULL if none). Records of
 * another type, cut records and malformed parameters are warned.
 */
void
prof_fwk_params_load(struct prof_fwk *fw, const char *path,
    struct fwk_names *nm)
{
	static const char *const cols[] = { "Key", "Call", "Module UID",
	    "Kind", "Index", "Name", "Dtype", "Shape", "Strides",
	    "Device Type", "Device Index", "Bytes", "Ptr", "Grad Shape",
	    "State" };
	struct prof_row	 row;
	unsigned char	*buf = NULL;
	size_t		 size = 0, i, bad = 0, none = 0;
	ssize_t		 len;
	int64_t		 off = 0, bad_at = -1;
	char		*text, *p, *end, *call, *uid;
	bool		 cut = false, begun = false;
	int		 kind;
	FILE		*f;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	memset(&row, 0, sizeof row);
	while ((len = prof_fwk_rec_next(fw, f, path, FWK_PARAMS_T, &buf, &size,
	    &off)) > 0) {
		/* After the key, field 1 (a module's) or 2 (an optimizer's). */
		text = NULL;
		for (kind = 1; len >= 8 && kind <= 2; kind++) {
			if (prof_fwk_rec_field(buf + 8, (size_t)len - 8, kind,
			    &text, &cut))
				break;
		}
		if (text == NULL) {
			if (none++ == 0 && bad == 0)
				bad_at = off - 6 - len;
			continue;
		}
		if (!begun && !(begun = prof_extra_table_begin(fw->s,
		    "param_tensor_info", NP_HOST_DEVICE, fw->rank, cols,
		    sizeof cols / sizeof cols[0]))) {
			free(text);
			break;
		}
		call = prof_fwk_params_call(nm, importer_le64(buf), &uid);
		for (p = text, i = 0; p != NULL; i++) {
			end = prof_fwk_params_end(p);
			if (!prof_fwk_params_one(fw->s, &row, p, kind, i, call,
			    uid, importer_le64(buf)) && bad++ == 0 &&
			    none == 0)
				bad_at = off - 6 - len;
			p = end;
		}
		free(call);
		free(uid);
		free(text);
	}
	if (bad + none > 0)
		store_load_warning(fw->s, path, bad_at, "%zu parameter%s not "
		    "in torch_npu's layout and %zu record%s without one, the "
		    "first here: skipped", bad, bad == 1 ? "" : "s", none,
		    none == 1 ? "" : "s");
	prof_fwk_rec_report(fw, path);
	free(buf);
	fclose(f);
}
