/*
 * facts_json.c - facts to and from JSON, driven by the field tables in
 * facts_json_groups.c.
 *
 * Writing is plain.  Reading assumes the input is hostile (a snapshot from
 * another machine, a peer): every value is type- and range-checked, arrays
 * are clamped to their C capacity, strings truncated.  A group holding a
 * malformed value becomes unknown as a whole, naming the offending key,
 * because half a group read from a bad file would be a guess.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "nicdoctor/cpuset.h"
#include "nicdoctor/facts_json.h"
#include "nicdoctor/sanitize.h"
#include "facts_json_internal.h"

/* Doubles hold integers exactly up to 2^53; larger counters go as strings. */
#define ND_J_EXACT_MAX 9007199254740992ULL

/* Where a read failed, built while unwinding: "features.f[3].name". */
struct nd_jctx {
	char path[96];
};

static void path_prepend(struct nd_jctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void path_prepend(struct nd_jctx *ctx, const char *fmt, ...)
{
	char head[64], joined[sizeof(head) + sizeof(ctx->path) + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	snprintf(joined, sizeof(joined), "%s%s%s", head,
		 ctx->path[0] && ctx->path[0] != '[' ? "." : "", ctx->path);
	nd_strlcpy(ctx->path, joined, sizeof(ctx->path));
}

static enum nd_jtype elem_type(enum nd_jtype array_type)
{
	switch (array_type) {
	case ND_J_ARR_OBJ:	return ND_J_SUB;
	case ND_J_ARR_STR:	return ND_J_STR;
	case ND_J_ARR_UINT:	return ND_J_UINT;
	case ND_J_ARR_BOOL:	return ND_J_BOOL;
	case ND_J_ARR_CPUSET:	return ND_J_CPUSET;
	default:		return ND_J_END;
	}
}

static uint64_t load_uint(const void *p, size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1: memcpy(&u8, p, 1); return u8;
	case 2: memcpy(&u16, p, 2); return u16;
	case 4: memcpy(&u32, p, 4); return u32;
	default: memcpy(&u64, p, 8); return u64;
	}
}

static void store_uint(void *p, size_t size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1: memcpy(p, &u8, 1); break;
	case 2: memcpy(p, &u16, 2); break;
	case 4: memcpy(p, &u32, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

static int64_t load_int(const void *p, size_t size)
{
	int32_t i32;
	int64_t i64;

	if (size == 4) {
		memcpy(&i32, p, 4);
		return i32;
	}
	memcpy(&i64, p, 8);
	return i64;
}

/* ---- writing ---- */

static int put_fields(cJSON *obj, const void *base, const struct nd_jfield *fields);

static cJSON *sysctl_to_json(const struct nd_sysctl *sc)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	if (!cJSON_AddBoolToObject(o, "known", sc->known) ||
	    !cJSON_AddStringToObject(o, sc->known ? "text" : "reason",
				     sc->known ? sc->text : sc->reason) ||
	    (sc->source[0] && !cJSON_AddStringToObject(o, "source", sc->source))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *status_to_json(const struct nd_status *st)
{
	cJSON *o = cJSON_CreateObject();

	if (o && (!cJSON_AddBoolToObject(o, "known", st->known) ||
		  (!st->known && !cJSON_AddStringToObject(o, "reason", st->reason)))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *value_to_json(enum nd_jtype type, size_t size, const struct nd_jfield *sub,
			    const void *p)
{
	char buf[ND_CPUSET_BITS * 4];
	uint64_t u;
	cJSON *o;

	switch (type) {
	case ND_J_BOOL:
		return cJSON_CreateBool(*(const bool *)p);
	case ND_J_UINT:
		u = load_uint(p, size);
		if (u <= ND_J_EXACT_MAX)
			return cJSON_CreateNumber((double)u);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
		return cJSON_CreateString(buf);
	case ND_J_INT:
		return cJSON_CreateNumber((double)load_int(p, size));
	case ND_J_DOUBLE:
		return cJSON_CreateNumber(*(const double *)p);
	case ND_J_STR:
		/* Bounded: a buffer filled by a buggy probe may lack its NUL. */
		u = strnlen(p, size < sizeof(buf) ? size : sizeof(buf));
		if (u >= size || u >= sizeof(buf))
			u--;
		memcpy(buf, p, u);
		buf[u] = '\0';
		return cJSON_CreateString(buf);
	case ND_J_CPUSET:
		return cJSON_CreateString(nd_cpuset_format_list(p, buf, sizeof(buf)));
	case ND_J_SYSCTL:
		return sysctl_to_json(p);
	case ND_J_STATUS:
		return status_to_json(p);
	case ND_J_SUB:
		o = cJSON_CreateObject();
		if (o && put_fields(o, p, sub) < 0) {
			cJSON_Delete(o);
			o = NULL;
		}
		return o;
	default:
		return NULL;
	}
}

static bool elem_is_empty(enum nd_jtype type, const void *p, size_t size)
{
	const unsigned char *bytes = p;

	if (type == ND_J_STR)
		return bytes[0] == '\0';
	for (size_t i = 0; i < size; i++)
		if (bytes[i])
			return false;
	return true;
}

static cJSON *array_to_json(const void *base, const struct nd_jfield *f)
{
	enum nd_jtype et = elem_type(f->type);
	const char *elems = (const char *)base + f->off;
	size_t n = f->max;
	cJSON *arr;

	if (f->count_off != ND_J_NO_COUNT) {
		n = *(const unsigned *)((const char *)base + f->count_off);
		if (n > f->max)
			n = f->max;
	} else {
		while (n > 0 && elem_is_empty(et, elems + (n - 1) * f->size, f->size))
			n--;
	}
	arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < n; i++) {
		cJSON *v = value_to_json(et, f->size, f->sub, elems + i * f->size);

		if (!v || !cJSON_AddItemToArray(arr, v)) {
			cJSON_Delete(v);
			cJSON_Delete(arr);
			arr = NULL;
		}
	}
	return arr;
}

static int put_fields(cJSON *obj, const void *base, const struct nd_jfield *fields)
{
	for (const struct nd_jfield *f = fields; f->key; f++) {
		cJSON *v;

		if (elem_type(f->type) != ND_J_END)
			v = array_to_json(base, f);
		else
			v = value_to_json(f->type, f->size, f->sub, (const char *)base + f->off);
		if (!v || !cJSON_AddItemToObject(obj, f->key, v)) {
			cJSON_Delete(v);
			return -ENOMEM;
		}
	}
	return 0;
}

static int put_group(cJSON *parent, const struct nd_facts *facts, const struct nd_jgroup *g)
{
	const void *grp = (const char *)facts + g->off;
	const struct nd_status *st = NULL;
	cJSON *o = cJSON_CreateObject();
	int r = 0;

	if (!o)
		return -ENOMEM;
	if (g->st_off != ND_J_NO_STATUS)
		st = (const struct nd_status *)((const char *)facts + g->st_off);
	if (st && !st->known) {
		if (!cJSON_AddBoolToObject(o, "known", false) ||
		    !cJSON_AddStringToObject(o, "reason", st->reason))
			r = -ENOMEM;
	} else {
		if (st && !cJSON_AddBoolToObject(o, "known", true))
			r = -ENOMEM;
		if (r == 0)
			r = put_fields(o, grp, g->fields);
	}
	if (r < 0 || !cJSON_AddItemToObject(parent, g->key, o)) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	return 0;
}

static int put_groups(cJSON *obj, const struct nd_facts *facts,
		      const struct nd_jgroup *groups, size_t n_groups)
{
	for (size_t i = 0; i < n_groups; i++) {
		int r = put_group(obj, facts, &groups[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

cJSON *nd_facts_netlink_to_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	if (!cJSON_AddStringToObject(obj, "schema", "nicdoctor.netlink/1") ||
	    put_groups(obj, facts, nd_jgroups_netlink, nd_jgroups_netlink_count) < 0) {
		cJSON_Delete(obj);
		return NULL;
	}
	return obj;
}

cJSON *nd_facts_to_json(const struct nd_facts *facts)
{
	cJSON *obj = cJSON_CreateObject();

	if (!obj)
		return NULL;
	if (!cJSON_AddStringToObject(obj, "schema", "nicdoctor.facts/1") ||
	    put_fields(obj, facts, nd_jfields_top) < 0 ||
	    put_groups(obj, facts, nd_jgroups_netlink, nd_jgroups_netlink_count) < 0 ||
	    put_groups(obj, facts, nd_jgroups_host, nd_jgroups_host_count) < 0) {
		cJSON_Delete(obj);
		return NULL;
	}
	return obj;
}

/* ---- reading ---- */

static int get_fields(const cJSON *obj, void *base, const struct nd_jfield *fields,
		      struct nd_jctx *ctx);

/* A non-negative integer as a JSON number or (above 2^53) a decimal string. */
static int json_uint(const cJSON *item, uint64_t max, uint64_t *ret)
{
	if (cJSON_IsNumber(item)) {
		double d = item->valuedouble;

		/* 18446744073709551616.0 is 2^64: the first double out of range. */
		if (!isfinite(d) || d < 0 || d != floor(d) || d >= 18446744073709551616.0)
			return -EINVAL;
		*ret = (uint64_t)d;
	} else if (cJSON_IsString(item)) {
		const char *s = item->valuestring;
		char *end;

		if (!s || *s < '0' || *s > '9')
			return -EINVAL;
		errno = 0;
		*ret = strtoull(s, &end, 10);
		if (errno || *end)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return *ret <= max ? 0 : -EINVAL;
}

static int json_int(const cJSON *item, size_t size, int64_t *ret)
{
	double lo = size == 4 ? (double)INT32_MIN : -9223372036854775808.0;
	double hi = size == 4 ? (double)INT32_MAX : 9223372036854775807.0;
	double d;

	if (!cJSON_IsNumber(item))
		return -EINVAL;
	d = item->valuedouble;
	/* hi for 64 bits rounds up to 2^63, itself out of range: hence >=. */
	if (!isfinite(d) || d != floor(d) || d < lo || (size == 4 ? d > hi : d >= hi))
		return -EINVAL;
	*ret = (int64_t)d;
	return 0;
}

static void sysctl_from_json(const cJSON *item, struct nd_sysctl *sc)
{
	const cJSON *known = cJSON_GetObjectItemCaseSensitive(item, "known");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
	const cJSON *source = cJSON_GetObjectItemCaseSensitive(item, "source");

	memset(sc, 0, sizeof(*sc));
	if (!item) {
		nd_strlcpy(sc->reason, "missing from JSON", sizeof(sc->reason));
	} else if (cJSON_IsTrue(known) && cJSON_IsString(text)) {
		sc->known = true;
		nd_strlcpy(sc->text, text->valuestring, sizeof(sc->text));
		if (cJSON_IsString(source))
			nd_strlcpy(sc->source, source->valuestring, sizeof(sc->source));
	} else if (cJSON_IsFalse(known)) {
		nd_strlcpy(sc->reason, cJSON_IsString(reason) ? reason->valuestring :
			   "unknown (no reason in JSON)", sizeof(sc->reason));
	} else {
		nd_strlcpy(sc->reason, "malformed JSON", sizeof(sc->reason));
	}
}

static int status_from_json(const cJSON *item, struct nd_status *st)
{
	const cJSON *known = cJSON_GetObjectItemCaseSensitive(item, "known");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(item, "reason");

	if (!item) {
		nd_status_set_known(st);
	} else if (cJSON_IsTrue(known)) {
		nd_status_set_known(st);
	} else if (cJSON_IsFalse(known)) {
		nd_status_set_unknown(st, "%s", cJSON_IsString(reason) && reason->valuestring ?
				      reason->valuestring : "unknown (no reason in JSON)");
	} else {
		return -EINVAL;
	}
	return 0;
}

static int value_from_json(enum nd_jtype type, size_t size, uint64_t max,
			   const struct nd_jfield *sub, const cJSON *item, void *p,
			   struct nd_jctx *ctx)
{
	uint64_t u, type_max = size >= 8 ? UINT64_MAX : (1ULL << (8 * size)) - 1;
	int64_t i;

	switch (type) {
	case ND_J_BOOL:
		if (!cJSON_IsBool(item))
			return -EINVAL;
		*(bool *)p = cJSON_IsTrue(item);
		return 0;
	case ND_J_UINT:
		if (json_uint(item, max && max < type_max ? max : type_max, &u) < 0)
			return -EINVAL;
		store_uint(p, size, u);
		return 0;
	case ND_J_INT:
		if (json_int(item, size, &i) < 0)
			return -EINVAL;
		if (size == 4)
			*(int32_t *)p = (int32_t)i;
		else
			*(int64_t *)p = i;
		return 0;
	case ND_J_DOUBLE:
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
			return -EINVAL;
		*(double *)p = item->valuedouble;
		return 0;
	case ND_J_STR:
		if (!cJSON_IsString(item) || !item->valuestring)
			return -EINVAL;
		nd_strlcpy(p, item->valuestring, size);
		return 0;
	case ND_J_CPUSET:
		if (!cJSON_IsString(item) || !item->valuestring)
			return -EINVAL;
		return nd_cpuset_parse_list(item->valuestring, p) < 0 ? -EINVAL : 0;
	case ND_J_SYSCTL:
		sysctl_from_json(item, p);
		return 0;
	case ND_J_STATUS:
		return status_from_json(item, p);
	case ND_J_SUB:
		if (!cJSON_IsObject(item))
			return -EINVAL;
		return get_fields(item, p, sub, ctx);
	default:
		return -EINVAL;
	}
}

static int array_from_json(const cJSON *item, void *base, const struct nd_jfield *f,
			   struct nd_jctx *ctx)
{
	enum nd_jtype et = elem_type(f->type);
	char *elems = (char *)base + f->off;
	size_t n = 0;
	const cJSON *el;

	if (!cJSON_IsArray(item))
		return -EINVAL;
	cJSON_ArrayForEach(el, item) {
		/* Clamp: entries past the capacity are dropped, not an error. */
		if (n >= f->max)
			break;
		if (value_from_json(et, f->size, 0, f->sub, el, elems + n * f->size, ctx) < 0) {
			path_prepend(ctx, "[%zu]", n);
			return -EINVAL;
		}
		n++;
	}
	if (f->count_off != ND_J_NO_COUNT)
		*(unsigned *)((char *)base + f->count_off) = (unsigned)n;
	return 0;
}

static int get_fields(const cJSON *obj, void *base, const struct nd_jfield *fields,
		      struct nd_jctx *ctx)
{
	for (const struct nd_jfield *f = fields; f->key; f++) {
		const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, f->key);
		int r;

		if (!item && f->optional)
			continue;
		if (!item && f->type != ND_J_SYSCTL && f->type != ND_J_STATUS) {
			nd_strlcpy(ctx->path, "", sizeof(ctx->path));
			path_prepend(ctx, "%s (missing)", f->key);
			return -EINVAL;
		}
		if (elem_type(f->type) != ND_J_END)
			r = array_from_json(item, base, f, ctx);
		else
			r = value_from_json(f->type, f->size, f->max, f->sub, item,
					    (char *)base + f->off, ctx);
		if (r < 0) {
			path_prepend(ctx, "%s", f->key);
			return r;
		}
	}
	return 0;
}

static void group_from_json(const cJSON *parent, const struct nd_jgroup *g,
			    struct nd_facts *facts)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(parent, g->key);
	void *grp = (char *)facts + g->off;
	struct nd_status *st = NULL;
	struct nd_jctx ctx = { .path = "" };
	const cJSON *known, *reason;

	memset(grp, 0, g->size);
	if (g->st_off == ND_J_NO_STATUS) {
		/* Only sysctls: each one carries its own status and never fails. */
		get_fields(cJSON_IsObject(item) ? item : NULL, grp, g->fields, &ctx);
		return;
	}
	st = (struct nd_status *)((char *)facts + g->st_off);
	if (!cJSON_IsObject(item)) {
		nd_status_set_unknown(st, item ? "malformed JSON: '%s' is not an object" :
				      "'%s' missing from JSON", g->key);
		return;
	}
	known = cJSON_GetObjectItemCaseSensitive(item, "known");
	reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
	if (cJSON_IsFalse(known)) {
		nd_status_set_unknown(st, "%s", cJSON_IsString(reason) && reason->valuestring ?
				      reason->valuestring : "unknown (no reason in JSON)");
	} else if (!cJSON_IsTrue(known)) {
		nd_status_set_unknown(st, "malformed JSON: '%s.known'", g->key);
	} else if (get_fields(item, grp, g->fields, &ctx) < 0) {
		memset(grp, 0, g->size);
		nd_status_set_unknown(st, "malformed JSON: '%s.%s'", g->key, ctx.path);
	} else {
		nd_status_set_known(st);
	}
}

int nd_facts_netlink_from_json(const cJSON *json, struct nd_facts *facts)
{
	if (!cJSON_IsObject(json))
		return -EINVAL;
	for (size_t i = 0; i < nd_jgroups_netlink_count; i++)
		group_from_json(json, &nd_jgroups_netlink[i], facts);
	return 0;
}

int nd_facts_from_json(const cJSON *json, struct nd_facts *facts)
{
	if (!cJSON_IsObject(json))
		return -EINVAL;
	/* Top-level scalars one by one: a bad hostname must not lose the rest. */
	for (const struct nd_jfield *f = nd_jfields_top; f->key; f++) {
		const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, f->key);
		struct nd_jctx ctx = { .path = "" };
		char *p = (char *)facts + f->off;

		memset(p, 0, f->size);
		if (value_from_json(f->type, f->size, f->max, f->sub, item, p, &ctx) < 0)
			memset(p, 0, f->size);
	}
	nd_facts_netlink_from_json(json, facts);
	for (size_t i = 0; i < nd_jgroups_host_count; i++)
		group_from_json(json, &nd_jgroups_host[i], facts);
	/* Read from anywhere: no control or invalid UTF-8 reaches a renderer. */
	nd_facts_sanitize(facts);
	return 0;
}
