/*
 * Additional host records (doc/formats.md section 3.6) that op_summary needs:
 * tensor_info (formats, data types and shapes of an op's inputs and
 * outputs; an op with more than five tensors writes several records with
 * the same op, thread and time stamp, concatenated in file order) and
 * context_id_info (the FFTS+ context ids of an op, one host task each).
 * Both attach to node spans by time like node_basic_info.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_ADD_SIZE		256
#define PROF_ADD_TENSORS	5
#define PROF_ADD_TENSOR_SIZE	44
#define PROF_ADD_CTX_MAX	55
#define PROF_ADD_HCTX_MAX	65536	/* contexts of one FFTS+ HCCL task */
#define PROF_ADD_MEMO_MAX	65536	/* distinct tensor lists remembered */

/* GE data type names (section 3.6), by enum value. */
static const char *const prof_additional_dtypes[] = {
	"FLOAT", "FLOAT16", "INT8", "INT32", "UINT8", NULL, "INT16",
	"UINT16", "UINT32", "INT64", "UINT64", "DOUBLE", "BOOL", "STRING",
	"DUAL_SUB_INT8", "DUAL_SUB_UINT8", "COMPLEX64", "COMPLEX128", "QINT8",
	"QINT16", "QINT32", "QUINT8", "QUINT16", "RESOURCE", "STRING_REF",
	"DUAL", "DT_VARIANT", "DT_BF16", "DT_UNDEFINED", "DT_INT4",
	"DT_UINT1", "DT_INT2", "DT_UINT2", "DT_COMPLEX32", "DT_HIFLOAT8",
	"DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN", "DT_FLOAT8_E8M0",
	"DT_FLOAT6_E3M2", "DT_FLOAT6_E2M3", "DT_FLOAT4_E2M1",
	"DT_FLOAT4_E1M2", "DT_HIFLOAT4"
};

/* GE format names, by the low 8 bits of the format field. */
static const char *const prof_additional_formats[] = {
	"NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_Z", "NC1C0HWPAD", "NHWC1C0",
	"FSR_NCHW", "FRACTAL_DECONV", "C1HWNC0", "FRACTAL_DECONV_TRANSPOSE",
	"FRACTAL_DECONV_SP_STRIDE_TRANS", "NC1HWC0_C04", "FRACTAL_Z_C04",
	"CHWN", "FRACTAL_DECONV_SP_STRIDE8_TRANS", "HWCN", "NC1KHKWHWC0",
	"BN_WEIGHT", "FILTER_HWCK", "HASHTABLE_LOOKUP_LOOKUPS",
	"HASHTABLE_LOOKUP_KEYS", "HASHTABLE_LOOKUP_VALUE",
	"HASHTABLE_LOOKUP_OUTPUT", "HASHTABLE_LOOKUP_HITS", "C1HWNCoC0", "MD",
	"NDHWC", "FRACTAL_ZZ", "FRACTAL_NZ", "NCDHW", "DHWCN", "NDC1HWC0",
	"FRACTAL_Z_3D", "CN", "NC", "DHWNC", "FRACTAL_Z_3D_TRANSPOSE",
	"FRACTAL_ZN_LSTM", "FRACTAL_Z_G", "RESERVED", "ALL", "NULL",
	"ND_RNN_BIAS", "FRACTAL_ZN_RNN", "NYUV", "NYUV_A", "NCL",
	"FRACTAL_Z_WINO", "C1HWC0", "FRACTAL_NZ_C0_16", "FRACTAL_NZ_C0_32",
	"FRACTAL_NZ_C0_2", "FRACTAL_NZ_C0_4", "FRACTAL_NZ_C0_8"
};

static void
prof_additional_list(struct prof_list **v, size_t *n,
    const unsigned char *r, uint32_t first)
{
	struct prof_list	*l;

	*v = util_grow(*v, *n, 1, sizeof **v);
	l = &(*v)[(*n)++];
	l->tid = importer_le32(r + 8);
	l->ts = importer_le64(r + 16);
	l->name = importer_le64(r + 24);
	l->first = first;
	l->n = 0;
}

/*
 * The id of string S among the distinct tensor strings; ops repeat their
 * shapes, so the table stays small however many ops there are. Takes
 * ownership of S.
 */
static uint32_t
prof_additional_intern(struct prof_host *h, char *s)
{
	uint64_t	 k = util_hash64(s, strlen(s)), i;

	while (util_map_get(&h->tstr_map, k, &i)) {
		if (strcmp(h->tstrs[i], s) == 0) {
			free(s);
			return (uint32_t)i;
		}
		k++;	/* a hash collision: probe the next key */
	}
	h->tstrs = util_grow(h->tstrs, h->ntstrs, 1, sizeof *h->tstrs);
	h->tstrs[h->ntstrs] = s;
	util_map_set(&h->tstr_map, k, h->ntstrs);
	return (uint32_t)h->ntstrs++;
}

static char	*prof_additional_column(const struct prof_host *, uint32_t,
		     int);

/*
 * The memo of the tensors being read, or NULL; *KEY is where a new one
 * goes. Ops repeat their tensor lists, and rendering the six strings of
 * each of a million ops was most of reading tensor_info.
 */
static struct prof_tmemo *
prof_additional_memo(struct prof_host *h, uint64_t *key)
{
	struct prof_tmemo	*m;
	size_t			 len = h->ntensors * sizeof *h->tensors;
	uint64_t		 i;

	*key = util_hash64((const char *)h->tensors, len);
	while (util_map_get(&h->tmemo_map, *key, &i)) {
		m = &h->tmemo[i];
		if (m->n == h->ntensors && memcmp(h->tmemo_tensors + m->first,
		    h->tensors, len) == 0)
			return m;
		(*key)++;	/* a hash collision: probe the next key */
	}
	return NULL;
}

/* Remember the strings STR of the tensors being read under KEY. */
static void
prof_additional_remember(struct prof_host *h, uint64_t key,
    const uint32_t *str)
{
	struct prof_tmemo	*m;

	if (h->ntmemo >= PROF_ADD_MEMO_MAX)
		return;
	h->tmemo = util_grow(h->tmemo, h->ntmemo, 1, sizeof *h->tmemo);
	h->tmemo_tensors = util_grow(h->tmemo_tensors, h->ntmemo_tensors,
	    h->ntensors, sizeof *h->tmemo_tensors);
	m = &h->tmemo[h->ntmemo];
	memcpy(m->str, str, sizeof m->str);
	m->first = (uint32_t)h->ntmemo_tensors;
	m->n = (uint32_t)h->ntensors;
	memcpy(h->tmemo_tensors + h->ntmemo_tensors, h->tensors,
	    h->ntensors * sizeof *h->tensors);
	h->ntmemo_tensors += h->ntensors;
	util_map_set(&h->tmemo_map, key, h->ntmemo++);
}

/* Turn the tensors read for the last op into its six strings. */
static void
prof_additional_flush(struct prof_host *h)
{
	struct prof_tinfo	*l;
	struct prof_tmemo	*m;
	uint64_t		 key;
	uint32_t		 str[6];
	int			 i;

	if (h->ntensors == 0 || h->ntinfos == 0)
		return;
	l = &h->tinfos[h->ntinfos - 1];
	if ((m = prof_additional_memo(h, &key)) != NULL) {
		l->kind = prof_dedup_tensor(h, m->str);
		h->ntensors = 0;
		return;
	}
	for (i = 0; i < 6; i++)
		str[i] = prof_additional_intern(h,
		    prof_additional_column(h, (uint32_t)(i / 3), i % 3));
	prof_additional_remember(h, key, str);
	l->kind = prof_dedup_tensor(h, str);
	h->ntensors = 0;
}

static void
prof_additional_tensors(struct prof_host *h, const unsigned char *r)
{
	static const uint32_t	 zero[6];
	struct prof_tinfo	*l;
	struct prof_tensor	*t;
	const unsigned char	*p;
	uint32_t		 num, i, j;

	num = importer_le32(r + 32);
	if (num > PROF_ADD_TENSORS)
		num = PROF_ADD_TENSORS;
	l = h->ntinfos > 0 ? &h->tinfos[h->ntinfos - 1] : NULL;
	if (l == NULL || h->tinfo_name != importer_le64(r + 24) ||
	    l->ts != importer_le64(r + 16) || l->tid != importer_le32(r + 8)) {
		prof_additional_flush(h);
		h->tinfos = util_grow(h->tinfos, h->ntinfos, 1,
		    sizeof *h->tinfos);
		l = &h->tinfos[h->ntinfos++];
		memset(l, 0, sizeof *l);
		/*
		 * Until its tensors are read, an op's columns are string 0,
		 * which is none: an op whose records list no tensor has the
		 * columns of an op without tensor_info, not another op's.
		 */
		if (h->ntstrs == 0) {
			h->tstrs = util_grow(h->tstrs, 0, 1, sizeof *h->tstrs);
			h->tstrs[h->ntstrs++] = NULL;
		}
		l->kind = prof_dedup_tensor(h, zero);
		l->tid = importer_le32(r + 8);
		l->ts = importer_le64(r + 16);
		h->tinfo_name = importer_le64(r + 24);
	}
	h->tensors = util_grow(h->tensors, h->ntensors, num,
	    sizeof *h->tensors);
	for (i = 0; i < num; i++) {
		p = r + 36 + i * PROF_ADD_TENSOR_SIZE;
		t = &h->tensors[h->ntensors++];
		t->type = importer_le32(p);
		t->format = importer_le32(p + 4);
		t->dtype = importer_le32(p + 8);
		for (j = 0; j < 8; j++)
			t->shape[j] = importer_le32(p + 12 + 4 * j);
	}
}

static void
prof_additional_ctx(struct prof_host *h, const unsigned char *r)
{
	uint32_t	 num, i;

	/*
	 * HCCL-level records give an inclusive range [first, last] of the
	 * contexts of an FFTS+ communication task (prof-hccl.c).
	 */
	if (importer_le16(r + 2) == PROF_LEVEL_HCCL) {
		prof_additional_list(&h->hcinfos, &h->nhcinfos, r,
		    importer_le32(r + 36));
		h->hcinfos[h->nhcinfos - 1].n = importer_le32(r + 32) == 2 &&
		    importer_le32(r + 40) >= importer_le32(r + 36) &&
		    importer_le32(r + 40) - importer_le32(r + 36) <
		    PROF_ADD_HCTX_MAX ? importer_le32(r + 40) -
		    importer_le32(r + 36) + 1 : 0;
		h->hctx_bad += h->hcinfos[h->nhcinfos - 1].n == 0;
		return;
	}
	if (importer_le16(r + 2) != PROF_LEVEL_NODE)
		return;
	num = importer_le32(r + 32);
	if (num > PROF_ADD_CTX_MAX)
		num = PROF_ADD_CTX_MAX;
	prof_additional_list(&h->cinfos, &h->ncinfos, r,
	    (uint32_t)h->nctx_ids);
	h->ctx_ids = util_grow(h->ctx_ids, h->nctx_ids, num,
	    sizeof *h->ctx_ids);
	for (i = 0; i < num; i++)
		h->ctx_ids[h->nctx_ids++] = importer_le32(r + 36 + 4 * i);
	h->cinfos[h->ncinfos - 1].n = num;
}

static void
prof_additional_kind(struct store *s, const char *data, const char *kind,
    struct prof_host *h, void (*fn)(struct prof_host *,
    const unsigned char *))
{
	struct prof_files	 f;
	struct prof_stream	 st;
	const unsigned char	*r;

	prof_slices_list(data, kind, true, &f);
	prof_slices_open(&st, s, &f, PROF_ADD_SIZE, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		fn(h, r);
	}
	prof_slices_close(&st);
	prof_slices_release(&f);
}

/* Read tensor_info and context_id_info of host data directory DATA. */
void
prof_additional_read(struct store *s, const char *data, struct prof_host *h)
{
	prof_additional_kind(s, data, "additional.tensor_info", h,
	    prof_additional_tensors);
	prof_additional_flush(h);
	prof_additional_kind(s, data, "additional.context_id_info", h,
	    prof_additional_ctx);
	if (h->hctx_bad > 0)
		store_load_warning(s, data, -1, "%zu HCCL-level "
		    "context_id_info record%s without a range of two ids (at "
		    "most %d apart): not used",
		    h->hctx_bad, h->hctx_bad == 1 ? "" : "s",
		    PROF_ADD_HCTX_MAX);
}

/*
 * Append the name of GE tensor code V, a format if FORMAT (its low 8 bits,
 * then ":<sub-format>" when set), else a data type; unnamed codes as
 * numbers. The legacy JOB decoder names GE codes the same way.
 */
void
prof_additional_enum(struct strbuf *b, uint32_t v, bool format)
{
	const char	*n = NULL;
	uint32_t	 base = format ? v & 0xFF : v;

	if (v == UINT32_MAX) {
		strbuf_adds(b, "UNDEFINED");
		return;
	}
	if (format && base < sizeof prof_additional_formats /
	    sizeof prof_additional_formats[0])
		n = prof_additional_formats[base];
	else if (!format && base < sizeof prof_additional_dtypes /
	    sizeof prof_additional_dtypes[0])
		n = prof_additional_dtypes[base];
	if (n != NULL)
		strbuf_adds(b, n);
	else
		strbuf_addf(b, "%u", base);
	if (format && (v >> 8 & 0xFFFF) != 0)
		strbuf_addf(b, ":%u", v >> 8 & 0xFFFF);
}

/*
 * One column of the tensors being read of type TYPE (0 inputs, 1 outputs)
 * as the vendor prints it, one value per tensor joined by ';', or "" if
 * none: WHAT 0 the shapes "d0,d1;d0" (the CSV printer adds the quotes),
 * 1 the data types, 2 the formats.
 */
static char *
prof_additional_column(const struct prof_host *h, uint32_t type, int what)
{
	const struct prof_tensor	*t;
	struct strbuf			 b;
	uint32_t			 i, j;
	bool				 any = false;

	strbuf_init(&b);
	for (i = 0; i < h->ntensors; i++) {
		t = &h->tensors[i];
		if (t->type != type)
			continue;
		if (any)
			strbuf_addc(&b, ';');
		any = true;
		if (what != 0) {
			prof_additional_enum(&b, what == 2 ? t->format :
			    t->dtype, what == 2);
			continue;
		}
		for (j = 0; j < 8 && t->shape[j] != 0; j++)
			strbuf_addf(&b, "%s%u", j > 0 ? "," : "", t->shape[j]);
	}
	return strbuf_detach(&b);
}

void
prof_additional_release(struct prof_host *h)
{
	size_t	 i;

	for (i = 0; i < h->ntstrs; i++)
		free(h->tstrs[i]);
	free(h->tstrs);
	util_map_release(&h->tstr_map);
	free(h->tmemo);
	free(h->tmemo_tensors);
	util_map_release(&h->tmemo_map);
	free(h->tinfos);
	free(h->tensors);
	free(h->cinfos);
	free(h->hcinfos);
	free(h->ctx_ids);
}
