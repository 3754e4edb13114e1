/*
 * multi.c - several targets in one `bench` run (issue 15): one thread per
 * target runs a whole iperf3 client test (client.c); every target sets up
 * its connection and streams, then all wait at one gate and start
 * together, so the same duration and interval clock covers all of them and
 * the sum is a sum of the same seconds.  Text lines carry a "[tN]" prefix
 * and are written whole, so targets never interleave within a line.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicdoctor/common.h"
#include "engine_int.h"
#include "nicdoctor/multi.h"

/* The start gate: everyone arrives (set up or failed), then all go. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int arrived, count;
};

struct job {
	struct nd_engine_params p;
	struct nd_client_opts o;
	struct nd_engine_result r;
	struct gate *gate;
	cJSON *json;
	int index, rc;
	bool arrived;		/* at the gate: a test that fails early never calls ready */
	/* Text: the part of a line not yet written. */
	FILE *real_out;
	pthread_mutex_t *out_lock;
	char line[1024];
	size_t line_len;
};

static void gate_arrive(void *arg, int rc)
{
	struct gate *g = arg;

	(void)rc;
	pthread_mutex_lock(&g->lock);
	if (++g->arrived >= g->count)
		pthread_cond_broadcast(&g->cond);
	while (g->arrived < g->count)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void job_ready(void *arg, int rc)
{
	struct job *j = arg;

	j->arrived = true;
	gate_arrive(j->gate, rc);
}

static void flush_line(struct job *j)
{
	pthread_mutex_lock(j->out_lock);
	fprintf(j->real_out, "[t%d] %.*s", j->index + 1, (int)j->line_len, j->line);
	fflush(j->real_out);
	pthread_mutex_unlock(j->out_lock);
	j->line_len = 0;
}

static ssize_t prefix_write(void *cookie, const char *buf, size_t size)
{
	struct job *j = cookie;

	for (size_t i = 0; i < size; i++) {
		j->line[j->line_len++] = buf[i];
		if (buf[i] == '\n' || j->line_len == sizeof(j->line))
			flush_line(j);
	}
	return (ssize_t)size;
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	FILE *f = NULL;

	if (j->real_out && !j->o.json) {
		f = fopencookie(j, "w", (cookie_io_functions_t){ .write = prefix_write });
		if (f)
			setvbuf(f, NULL, _IOLBF, 0);
	}
	j->o.text_out = f;
	j->rc = nd_client_run(&j->p, &j->o, &j->r, j->o.json ? &j->json : NULL);
	if (!j->arrived)
		job_ready(j, j->rc);
	if (f)
		fclose(f);
	if (j->line_len)
		flush_line(j);
	return NULL;
}

static void sum_result(const struct nd_engine_result *r, double *v)
{
	v[0] += (double)(r->fwd_sent_bytes + r->rev_sent_bytes);
	v[1] += r->fwd_sent_bps + r->rev_sent_bps;
	v[2] += (double)(r->fwd_received_bytes + r->rev_received_bytes);
	v[3] += r->fwd_received_bps + r->rev_received_bps;
}

static void fmt_rate(char *buf, size_t size, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, size, "%.2f Gbits/sec", bps / 1e9);
	else
		snprintf(buf, size, "%.1f Mbits/sec", bps / 1e6);
}

static void print_sum(FILE *out, const struct job *jobs, int n, const double *sum)
{
	char a[32], b[32];

	fprintf(out, "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
		"%d targets at the same time:\n", n);
	for (int i = 0; i < n; i++) {
		double v[4] = { 0 };

		sum_result(&jobs[i].r, v);
		fmt_rate(a, sizeof(a), v[1]);
		fmt_rate(b, sizeof(b), v[3]);
		if (jobs[i].rc < 0)
			fprintf(out, "[t%d] %s port %u: failed: %s\n", i + 1, jobs[i].p.host,
				jobs[i].p.port ? jobs[i].p.port : ND_ENGINE_PORT_DEFAULT,
				jobs[i].r.error);
		else
			fprintf(out, "[t%d] %s port %u: %s sender, %s receiver\n", i + 1,
				jobs[i].p.host, jobs[i].p.port ? jobs[i].p.port :
				ND_ENGINE_PORT_DEFAULT, a, b);
	}
	fmt_rate(a, sizeof(a), sum[1]);
	fmt_rate(b, sizeof(b), sum[3]);
	fprintf(out, "[SUM] %d targets: %s sender, %s receiver\n", n, a, b);
}

static cJSON *sum_json(const double *sum)
{
	cJSON *o = cJSON_CreateObject(), *s = cJSON_AddObjectToObject(o, "sent"),
	      *r = cJSON_AddObjectToObject(o, "received");

	cJSON_AddNumberToObject(s, "bytes", sum[0]);
	cJSON_AddNumberToObject(s, "bits_per_second", sum[1]);
	cJSON_AddNumberToObject(r, "bytes", sum[2]);
	cJSON_AddNumberToObject(r, "bits_per_second", sum[3]);
	return o;
}

static cJSON *make_json(struct job *jobs, int n, const double *sum)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "targets");
	cJSON *nd = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(nd, "targets");

	for (int i = 0; i < n; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddItemToArray(arr, jobs[i].json ? jobs[i].json : cJSON_CreateObject());
		jobs[i].json = NULL;
		cJSON_AddStringToObject(t, "host", jobs[i].p.host);
		cJSON_AddNumberToObject(t, "port", jobs[i].p.port ? jobs[i].p.port :
					ND_ENGINE_PORT_DEFAULT);
		cJSON_AddBoolToObject(t, "ok", jobs[i].rc == 0);
		if (jobs[i].rc < 0)
			cJSON_AddStringToObject(t, "error", jobs[i].r.error);
		cJSON_AddItemToArray(list, t);
	}
	cJSON_AddItemToObject(root, "sum", sum_json(sum));
	cJSON_AddStringToObject(nd, "clock", "all targets set up, then started together");
	cJSON_AddItemToObject(root, "nicdoctor", nd);
	return root;
}

static void start_jobs(struct job *jobs, int n, pthread_t *th, bool *started)
{
	for (int i = 0; i < n; i++) {
		started[i] = pthread_create(&th[i], NULL, job_main, &jobs[i]) == 0;
		if (!started[i]) {
			jobs[i].rc = -EAGAIN;
			snprintf(jobs[i].r.error, sizeof(jobs[i].r.error), "cannot start a thread");
			job_ready(&jobs[i], -EAGAIN);
		}
	}
}

int nd_multi_run(const struct nd_engine_params *base, const struct nd_targets *tg,
		 bool json, FILE *out, cJSON **ret_json)
{
	struct gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, tg->count };
	pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
	struct job *jobs = calloc((size_t)tg->count, sizeof(*jobs));
	pthread_t th[ND_MULTI_MAX_TARGETS];
	bool started[ND_MULTI_MAX_TARGETS];
	double sum[4] = { 0 };
	int rc = 0;

	if (!jobs)
		return -ENOMEM;
	for (int i = 0; i < tg->count; i++) {
		struct job *j = &jobs[i];

		j->p = *base;
		j->p.host = tg->t[i].host;
		j->p.port = tg->t[i].port;
		if (tg->t[i].bind[0])
			j->p.bind_addr = tg->t[i].bind;
		j->o = (struct nd_client_opts){ .json = json, .ready = job_ready,
						.ready_arg = j };
		j->gate = &g;
		j->index = i;
		j->real_out = json ? NULL : out;
		j->out_lock = &out_lock;
	}
	start_jobs(jobs, tg->count, th, started);
	for (int i = 0; i < tg->count; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		if (jobs[i].rc == 0) {
			sum_result(&jobs[i].r, sum);
			continue;
		}
		nd_err("bench: target t%d: %s", i + 1, jobs[i].r.error[0] ? jobs[i].r.error :
		       strerror(-jobs[i].rc));
		if (rc == 0)
			rc = jobs[i].rc;
	}
	if (!json)
		print_sum(out, jobs, tg->count, sum);
	else if (ret_json)
		*ret_json = make_json(jobs, tg->count, sum);
	for (int i = 0; i < tg->count; i++)
		cJSON_Delete(jobs[i].json);
	free(jobs);
	return rc;
}

int nd_multi_run_params(const struct nd_engine_params *params, int count,
			struct nd_engine_result *results, int *rcs)
{
	struct gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, count };
	pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_t th[ND_MULTI_MAX_TARGETS];
	bool started[ND_MULTI_MAX_TARGETS];
	struct job *jobs;
	int rc = 0;

	if (count < 1 || count > ND_MULTI_MAX_TARGETS)
		return -EINVAL;
	jobs = calloc((size_t)count, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	for (int i = 0; i < count; i++) {
		jobs[i].p = params[i];
		jobs[i].o = (struct nd_client_opts){ .ready = job_ready, .ready_arg = &jobs[i] };
		jobs[i].gate = &g;
		jobs[i].index = i;
		jobs[i].out_lock = &out_lock;
	}
	start_jobs(jobs, count, th, started);
	for (int i = 0; i < count; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		results[i] = jobs[i].r;
		rcs[i] = jobs[i].rc;
		if (rc == 0 && jobs[i].rc < 0)
			rc = jobs[i].rc;
	}
	free(jobs);
	return rc;
}
