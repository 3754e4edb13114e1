/*
 * fix.h - turning findings into changes: plan, journal, apply, revert,
 * persist (`nicdoctor fix`).
 *
 * A fix kind (fixes/<kind>.c) is one table entry in the style of
 * pciutils' access backends: the check IDs it answers, a planner that
 * turns a finding plus the facts into steps, and get/set for one knob.
 * A step is one knob ("rx channels of eth0", "net.core.rmem_max") with its
 * current and target value as canonical text, so the journal, the apply
 * loop and revert handle every kind the same way: read, compare, skip a
 * no-op write, write, read back (systemd's ethtool-util.c).
 *
 * fixes/ is the only code that writes the OS, always after the journal of
 * the original values is on disk.
 */
#ifndef NICDOCTOR_FIX_H
#define NICDOCTOR_FIX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "nicdoctor/check.h"
#include "nicdoctor/cpuset.h"
#include "nicdoctor/facts.h"

#define ND_FIX_VALUE_LEN   320		/* a 1024-CPU mask fits */
#define ND_FIX_KEY_LEN      96
#define ND_FIX_MAX_STEPS   512
#define ND_FIX_MAX_NOTES     8
#define ND_FIX_MAX_FILES     4
#define ND_FIX_DEFAULT_RTT_USEC 1000	/* stated in the plan when no peer measured one */
#define ND_FIX_JOURNAL_SCHEMA "nicdoctor.journal/1"
#define ND_FIX_MAX_JOURNALS 64		/* loaded at once by revert and --list */

struct nd_fix_kind;

/* One knob: its value now and the value the plan wants, canonical text. */
struct nd_fix_step {
	const struct nd_fix_kind *kind;
	char key[ND_FIX_KEY_LEN];	/* "rx", "queues/rx-0/rps_cpus", "net.core.rmem_max" */
	char what[96];			/* "rx channels", "rx-0 rps_cpus", "irq 45 affinity" */
	char current[ND_FIX_VALUE_LEN];
	char target[ND_FIX_VALUE_LEN];
	char finding_id[48];		/* why */
	char command[320];		/* what a person would type */
};

struct nd_fix_plan {
	char ifname[ND_IFNAMSIZ];
	double rtt_usec;		/* used to size socket buffers */
	bool rtt_measured;
	unsigned n_steps;
	struct nd_fix_step steps[ND_FIX_MAX_STEPS];
	unsigned n_notes;
	char notes[ND_FIX_MAX_NOTES][320];	/* irqbalance, assumptions */
};

struct nd_fix_options {
	bool rfs;			/* --rfs: rps_flow_cnt + rps_sock_flow_entries */
	double rtt_usec;		/* <= 0: ND_FIX_DEFAULT_RTT_USEC */
	bool rtt_measured;
};

/* What a planner sees. */
struct nd_fix_ctx {
	const struct nd_facts *facts;
	const struct nd_fix_options *opts;
	struct nd_cpuset local_cpus;	/* the NIC's NUMA node, else every online CPU */
	unsigned n_local_cpus;
};

/* Files --persist writes: a sysctl.d drop-in, a systemd .link, a udev rule. */
enum nd_fix_persist_target {
	ND_PERSIST_SYSCTL = 0,
	ND_PERSIST_LINK,
	ND_PERSIST_UDEV,
	ND_PERSIST_COUNT,
};

/* Lines a kind contributes to each persist file (malloc'd, "" when none). */
struct nd_fix_persist_text {
	char *text[ND_PERSIST_COUNT];
};

struct nd_fix_kind {
	const char *name;			/* "channels": journal and --help */
	const char *const *check_ids;		/* NULL-terminated */
	bool info_too;				/* info findings with a fix count (sysctl) */
	/* Append this kind's steps for one finding; 0 or -ENOSPC. */
	int (*plan)(const struct nd_fix_ctx *ctx, const struct nd_finding *finding,
		    struct nd_fix_plan *plan);
	/* Read one knob, canonical text; ret_value untouched on failure. */
	int (*get)(const char *ifname, const char *key, char *ret_value, size_t size);
	/* Write one knob (canonical text).  0 or negative errno. */
	int (*set)(const char *ifname, const char *key, const char *value);
	/* Add the lines that make one step survive a reboot; 0 or -ENOMEM.
	 * udev_match selects the device in a udev rule ("ATTR{address}==...")
	 * and rules name it $name, since the kernel name may be renamed. */
	int (*persist)(const char *udev_match, const struct nd_fix_step *step,
		       struct nd_fix_persist_text *out);
	/* Whether key is a knob this kind's planner writes and value a
	 * canonical value for it: what a journal may name (pure, no I/O).
	 * 0 or -EINVAL; a kind without it is refused in a journal. */
	int (*check)(const char *key, const char *value);
};

/* The registry, in apply order (fixes/registry.c). */
extern const struct nd_fix_kind *const nd_fix_kinds[];
extern const unsigned nd_fix_kinds_count;
const struct nd_fix_kind *nd_fix_kind_find(const char *name);
/* The kind that answers a check ID, NULL when none does. */
const struct nd_fix_kind *nd_fix_kind_for_check(const char *check_id);

/* --- planning (fixes/plan.c) --- */

/* The CPUs a NIC's work should go to: its NUMA node's, else all online. */
void nd_fix_local_cpus(const struct nd_facts *facts, struct nd_cpuset *ret_set);

/* Every kind's steps for the findings that are not skipped, in kind order.
 * plan is zeroed first.  0 or -ENOSPC. */
int nd_fix_plan_build(const struct nd_facts *facts, const struct nd_finding *findings,
		      unsigned n_findings, const struct nd_fix_options *opts,
		      struct nd_fix_plan *plan);

/* Append a step unless it changes nothing or its knob is already planned.
 * 0 (added or skipped) or -ENOSPC. */
int nd_fix_plan_add(struct nd_fix_plan *plan, const struct nd_fix_step *step);
void nd_fix_plan_note(struct nd_fix_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* printf into a step's command. */
void nd_fix_step_command(struct nd_fix_step *step, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* --- OS access shared by kinds (fixes/osio.c) --- */

/* sysctl "net.core.rmem_max" <-> /proc/sys/net/core/rmem_max; whitespace
 * collapsed to single spaces. */
int nd_fix_sysctl_get(const char *name, char *ret_value, size_t size);
int nd_fix_sysctl_set(const char *name, const char *value);
/* Write a whole small file (sysfs, procfs): 0 or negative errno. */
int nd_fix_write_file(const char *path, const char *text);
/* Read a sysfs/procfs file through the sysroot seam, trimmed. */
int nd_fix_read_file(const char *path, char *ret_value, size_t size);
/* Fresh ethtool facts for ifname (probe's netlink source); free with
 * nd_facts_free.  -ENODATA with the reason when the probe could not. */
int nd_fix_read_ethtool(const char *ifname, struct nd_facts **ret_facts);
/* mkdir -p with mode for the directories created. */
int nd_fix_mkdirs(const char *dir, mode_t mode);
/* Write aside, fsync, rename over path, fsync the directory. */
int nd_fix_write_durable(const char *path, const char *text, mode_t mode);
int nd_fix_fsync_parent(const char *path);
/* Append printf text to a malloc'd string (*buf may be NULL); 0 or -ENOMEM. */
int nd_fix_appendf(char **buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --- ethtool netlink writes (fixes/genl.c) --- */

/* u32 attributes of a CHANNELS_SET or RINGS_SET request. */
int nd_fix_ethtool_set_u32(const char *ifname, int msg_cmd, int header_attr, int attr,
			   unsigned value);
/* FEATURES_SET of one feature by its name ("rx-gro"). */
int nd_fix_ethtool_set_feature(const char *ifname, const char *feature, bool on);
/* ETHTOOL_MSG_LINKMODES_SET: autonegotiation on (the advertised modes as
 * they are), else forced to speed_mbps and duplex (DUPLEX_FULL/HALF). */
int nd_fix_ethtool_set_link(const char *ifname, bool autoneg, unsigned speed_mbps, int duplex);

/* --- journal (fixes/journal.c) --- */

struct nd_fix_journal_file {
	char path[PATH_MAX];
	bool existed;			/* revert restores original, else removes */
	char *original;			/* malloc'd when existed */
	char *content;			/* what --persist writes (malloc'd) */
};

struct nd_fix_journal {
	char path[PATH_MAX];		/* where it is stored; "" until written */
	char ifname[ND_IFNAMSIZ];
	char state[16];			/* "applying", "applied", "rolled-back", "reverted" */
	long long created_usec;		/* CLOCK_REALTIME */
	unsigned n_steps;
	struct nd_fix_step steps[ND_FIX_MAX_STEPS];	/* current = the original value */
	unsigned n_files;
	struct nd_fix_journal_file files[ND_FIX_MAX_FILES];
};

/* $NICDOCTOR_STATE_DIR, else /var/lib/nicdoctor. */
const char *nd_fix_state_dir(void);
/* $NICDOCTOR_ETC_DIR, else /etc. */
const char *nd_fix_etc_dir(void);

/* Serialise (a new file in the state dir when j->path is empty, else
 * replace j->path), fsync the file and the directory.  0 or -errno. */
int nd_fix_journal_write(struct nd_fix_journal *j);
/* Read one journal file: refused (-EPERM, why) unless a regular file, not
 * a symlink, owned by root (or the caller) and writable by nobody else;
 * then parsed as nd_fix_journal_parse.  j untouched on failure. */
int nd_fix_journal_read(const char *path, struct nd_fix_journal *j, char *ret_why,
			size_t why_size);
/* Parse a journal's text strictly: -EBADMSG with the reason in ret_why
 * when it is truncated, corrupt or out of range; j untouched on failure. */
int nd_fix_journal_parse(const char *text, size_t len, struct nd_fix_journal *j,
			 char *ret_why, size_t why_size);
/* Whether revert may act on j (fixes/journal_check.c, pure): the
 * interface is ifname, every step a knob its kind writes with a canonical
 * value, every file one that --persist writes for ifname.  0 or -EPERM
 * with the first offender in ret_why.  Run on every journal before the
 * first write. */
int nd_fix_journal_validate(const struct nd_fix_journal *j, const char *ifname,
			    char *ret_why, size_t why_size);
/* The state dir may hold journals that root obeys: a directory, not a
 * symlink, owned by root (or the caller), writable by nobody else.
 * 0, -ENOENT when absent, -EPERM with ret_why naming it. */
int nd_fix_state_dir_check(char *ret_why, size_t why_size);
void nd_fix_journal_free(struct nd_fix_journal *j);
/* Take the state dir's lock (flock, non-blocking) so that two applies or
 * reverts never interleave; -EBUSY when another holds it, -EPERM when
 * the state dir fails nd_fix_state_dir_check. */
int nd_fix_lock(int *ret_fd);

/* Every journal of an interface (fixes/journal_set.c), newest first. */
struct nd_fix_journal_set {
	unsigned n;
	struct nd_fix_journal *j[ND_FIX_MAX_JOURNALS];
	unsigned n_seen;		/* journal files found, reverted ones included */
	unsigned n_pending;		/* of j[]: not yet reverted */
};

/* Read, check and validate every journal of ifname (all when NULL) in the
 * state dir, newest first; with pending_only, reverted ones are checked
 * but not kept.  One refused journal refuses all: -EBADMSG or -EPERM with
 * its path and the reason, -E2BIG past ND_FIX_MAX_JOURNALS.  An absent
 * state dir is an empty set. */
int nd_fix_journal_load_all(const char *ifname, bool pending_only,
			    struct nd_fix_journal_set *set, char *ret_path, size_t path_size,
			    char *ret_why, size_t why_size);
void nd_fix_journal_set_free(struct nd_fix_journal_set *set);
/* A pending journal still "applying" (its apply was killed), or NULL. */
const struct nd_fix_journal *nd_fix_journal_set_applying(const struct nd_fix_journal_set *set);

/* --- apply and revert (fixes/apply.c) --- */

enum nd_fix_phase {
	ND_FIX_APPLY = 0,		/* towards step->target */
	ND_FIX_ROLLBACK,		/* back to step->current after a failure */
	ND_FIX_REVERT,			/* back to step->current from the journal */
};

/* Called after each step with its index and outcome: 0 written, 1 already
 * at the value, negative errno. */
typedef void (*nd_fix_step_cb)(const struct nd_fix_step *step, unsigned index,
			       enum nd_fix_phase phase, int result, const char *value_now,
			       void *arg);

struct nd_fix_outcome {
	unsigned done;			/* steps applied (or restored) */
	unsigned skipped;		/* already at the value */
	int failed_index;		/* -1: none */
	int error;			/* negative errno of the failed step */
	char failed_detail[320];	/* "read back 1, wanted 64" or the error */
	unsigned rolled_back;		/* apply: earlier steps undone */
	unsigned rollback_failed;
	unsigned worse_undone;		/* --peer: steps undone for lowering throughput */
	bool measured;			/* --peer: before/after are set */
	double before_mbps, after_mbps;
};

/* Read every step's value now into j->steps[].current (the originals). */
int nd_fix_journal_capture(struct nd_fix_journal *j, const struct nd_fix_plan *plan,
			   char *ret_why, size_t why_size);
/* The same, but a knob that a pending journal of `earlier` already
 * changed keeps as original the value before the first (oldest) of them
 * touched it, so no half-applied value is ever taken for an original. */
int nd_fix_journal_capture_after(struct nd_fix_journal *j, const struct nd_fix_plan *plan,
				 const struct nd_fix_journal_set *earlier, char *ret_why,
				 size_t why_size);
/* Apply steps [first, last) of the journal, reading each back; on failure
 * undo those applied in this call, newest first.  0 or the failed
 * step's negative errno, details in *out. */
int nd_fix_apply_range(struct nd_fix_journal *j, unsigned first, unsigned last,
		       nd_fix_step_cb cb, void *cb_arg, struct nd_fix_outcome *out);
/* Undo steps [first, last) newest first (rollback after a worse measurement). */
int nd_fix_undo_range(struct nd_fix_journal *j, unsigned first, unsigned last,
		      nd_fix_step_cb cb, void *cb_arg, struct nd_fix_outcome *out);
/* Restore every original value and file of the journal; idempotent. */
int nd_fix_revert(struct nd_fix_journal *j, nd_fix_step_cb cb, void *cb_arg,
		  struct nd_fix_outcome *out);

/* Every read and write revert makes, so that a test or the fuzzer can
 * watch what a journal would do without touching the OS. */
struct nd_fix_io {
	int (*get)(const struct nd_fix_step *step, const char *ifname, char *ret_value,
		   size_t size, void *arg);
	int (*set)(const struct nd_fix_step *step, const char *ifname, const char *value,
		   void *arg);
	int (*put_file)(const char *path, const char *text, void *arg);
	int (*remove_file)(const char *path, void *arg);	/* 0 also when absent */
	void *arg;
};

/* The OS: the kinds' get/set, durable file writes, unlink. */
extern const struct nd_fix_io nd_fix_io_os;
int nd_fix_revert_io(struct nd_fix_journal *j, const struct nd_fix_io *io, nd_fix_step_cb cb,
		     void *cb_arg, struct nd_fix_outcome *out);

/* --- verify against a peer (fixes/verify.c) --- */

struct nd_auth_client;

struct nd_fix_peer {
	const char *host;
	unsigned short port;		/* 0: 5201 */
	const char *ifname;		/* counters sampled during runs */
	double duration_sec;		/* per run */
	int streams;
	const struct nd_auth_client *auth;	/* credentials for the peer, or NULL */
};

struct nd_fix_baseline {
	double mbps;			/* mean of two receive runs */
	double noise_share;		/* their relative difference, at least 5% */
	double rtt_usec;		/* lowest TCP RTT seen, 0 unknown */
};

struct nd_fix_verify_cbs {
	nd_fix_step_cb on_step;
	/* After each kind's group: its throughput against the level before. */
	void (*on_measure)(const char *kind, double mbps, double level_mbps, bool rolled_back,
			   void *arg);
	void *arg;
};

/* RTT and two receive runs.  0, or a negative errno with why filled. */
int nd_fix_measure_baseline(const struct nd_fix_peer *peer, struct nd_fix_baseline *ret,
			    char *why, size_t why_size);
/* Apply the journal kind by kind, measuring after each and rolling back a
 * kind that lowered throughput beyond the noise.  A failed step or run
 * undoes everything applied.  0 or negative errno, details in *out. */
int nd_fix_apply_verified(struct nd_fix_journal *j, const struct nd_fix_peer *peer,
			  const struct nd_fix_baseline *base, const struct nd_fix_verify_cbs *cbs,
			  struct nd_fix_outcome *out);

/* --- persist (fixes/persist.c) --- */

/* Fill j->files with the files --persist writes for j's steps (and their
 * current contents, for revert).  0 or negative errno. */
int nd_fix_persist_prepare(struct nd_fix_journal *j);
/* Write the prepared files.  0 or negative errno naming none. */
int nd_fix_persist_write(const struct nd_fix_journal *j, unsigned *ret_failed);
/* Put each file back as it was (remove those that did not exist). */
int nd_fix_persist_restore(const struct nd_fix_journal *j, unsigned *ret_failed);
int nd_fix_persist_restore_io(const struct nd_fix_journal *j, const struct nd_fix_io *io,
			      unsigned *ret_failed);
/* The path --persist writes for one target of ifname.  0 or -ENAMETOOLONG. */
int nd_fix_persist_path(const char *ifname, enum nd_fix_persist_target target, char *buf,
			size_t size);

/* --- output (src/report/fixplan.c) --- */

void nd_render_fix_plan(const struct nd_fix_plan *plan, bool dry_run, FILE *out);
void nd_render_fix_persist_preview(const struct nd_fix_journal *j, FILE *out);
void nd_render_fix_step(const struct nd_fix_step *step, unsigned index,
			enum nd_fix_phase phase, int result, const char *value_now, FILE *out);
void nd_render_fix_applied(const struct nd_fix_journal *j, const struct nd_fix_outcome *o,
			   FILE *out);
void nd_render_fix_baseline(const struct nd_fix_peer *peer, const struct nd_fix_baseline *b,
			    FILE *out);
void nd_render_fix_measure(const char *kind, double mbps, double level_mbps, bool rolled_back,
			   double noise_share, FILE *out);
void nd_render_fix_reverted(const struct nd_fix_journal *j, const struct nd_fix_outcome *o,
			    FILE *out);
/* `fix --revert --list` (src/report/fixjournal.c). */
void nd_render_fix_journals(const struct nd_fix_journal_set *set, FILE *out);

#endif
