/*
 * facts_json_internal.h - the table-driven machinery shared by
 * facts_json.c (engine, public entry points) and facts_json_groups.c (the
 * tables describing each facts group).  Not a public header.
 *
 * A group is described by a table of fields {key, type, offset, ...}; one
 * writer and one defensive reader walk any table, so adding a fact to
 * facts.h means adding one line to a table, not two hand-written parsers.
 */
#ifndef NICDOCTOR_FACTS_JSON_INTERNAL_H
#define NICDOCTOR_FACTS_JSON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum nd_jtype {
	ND_J_END = 0,
	ND_J_BOOL,
	ND_J_UINT,		/* size 1, 2, 4 or 8; `max` bounds it when non-zero */
	ND_J_INT,		/* size 4 or 8 */
	ND_J_DOUBLE,
	ND_J_STR,		/* char[size], truncated on read */
	ND_J_CPUSET,		/* struct nd_cpuset as a CPU list "0-3,8" */
	ND_J_SYSCTL,		/* struct nd_sysctl: {known, text | reason, source} */
	/* struct nd_status of a part of a group: {known[, reason]}.  Absent
	 * (JSON written before the part had one): known, as its group. */
	ND_J_STATUS,
	ND_J_SUB,		/* nested struct described by `sub` */
	/* Arrays: `size` is the element size, `max` the capacity.  With a
	 * count (`count_off` != ND_J_NO_COUNT) the JSON array length is the
	 * count; without, trailing zero/empty elements are not written. */
	ND_J_ARR_OBJ,		/* elements described by `sub` */
	ND_J_ARR_STR,
	ND_J_ARR_UINT,
	ND_J_ARR_BOOL,
	ND_J_ARR_CPUSET,
};

#define ND_J_NO_COUNT ((size_t)-1)

struct nd_jfield {
	const char *key;
	enum nd_jtype type;
	size_t off;
	size_t size;
	size_t count_off;
	size_t max;
	const struct nd_jfield *sub;
	/* Absent on read (JSON written before the field existed): left zero,
	 * the rest of the group still read. */
	bool optional;
};

#define ND_J_MSIZE(S, m) sizeof(((S *)0)->m)
#define ND_J_ESIZE(S, m) sizeof(((S *)0)->m[0])
#define ND_J_CAP(S, m) (ND_J_MSIZE(S, m) / ND_J_ESIZE(S, m))

#define ND_JF(S, m, t) \
	{ .key = #m, .type = (t), .off = offsetof(S, m), .size = ND_J_MSIZE(S, m), \
	  .count_off = ND_J_NO_COUNT }
#define ND_JF_BOOL(S, m)   ND_JF(S, m, ND_J_BOOL)
#define ND_JF_UINT(S, m)   ND_JF(S, m, ND_J_UINT)
#define ND_JF_INT(S, m)    ND_JF(S, m, ND_J_INT)
#define ND_JF_DOUBLE(S, m) ND_JF(S, m, ND_J_DOUBLE)
#define ND_JF_STR(S, m)    ND_JF(S, m, ND_J_STR)
#define ND_JF_CPUSET(S, m) ND_JF(S, m, ND_J_CPUSET)
#define ND_JF_SYSCTL(S, m) ND_JF(S, m, ND_J_SYSCTL)
#define ND_JF_STATUS(S, m) ND_JF(S, m, ND_J_STATUS)
#define ND_JF_UINT_MAX(S, m, limit) \
	{ .key = #m, .type = ND_J_UINT, .off = offsetof(S, m), .size = ND_J_MSIZE(S, m), \
	  .count_off = ND_J_NO_COUNT, .max = (limit) }
#define ND_JF_SUB(S, m, table) \
	{ .key = #m, .type = ND_J_SUB, .off = offsetof(S, m), .size = ND_J_MSIZE(S, m), \
	  .count_off = ND_J_NO_COUNT, .sub = (table) }
/* An array whose length lives in the unsigned member `cnt`. */
#define ND_JF_ARR(S, m, t, cnt, table) \
	{ .key = #m, .type = (t), .off = offsetof(S, m), .size = ND_J_ESIZE(S, m), \
	  .count_off = offsetof(S, cnt), .max = ND_J_CAP(S, m), .sub = (table) }
/* An array with no count: written up to its last non-empty element. */
#define ND_JF_ARR_NC(S, m, t) \
	{ .key = #m, .type = (t), .off = offsetof(S, m), .size = ND_J_ESIZE(S, m), \
	  .count_off = ND_J_NO_COUNT, .max = ND_J_CAP(S, m) }
#define ND_JF_END { .key = NULL, .type = ND_J_END }

/* One facts group: a member of struct nd_facts with its status. */
#define ND_J_NO_STATUS ((size_t)-1)
struct nd_jgroup {
	const char *key;
	size_t off;		/* of the group in struct nd_facts */
	size_t size;
	size_t st_off;		/* of its struct nd_status, or ND_J_NO_STATUS */
	const struct nd_jfield *fields;
};

/* Tables, from facts_json_groups.c. */
extern const struct nd_jgroup nd_jgroups_netlink[];
extern const size_t nd_jgroups_netlink_count;
extern const struct nd_jgroup nd_jgroups_host[];
extern const size_t nd_jgroups_host_count;
extern const struct nd_jfield nd_jfields_top[];

#endif
