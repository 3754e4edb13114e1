/*
 * output.c - iperf3-like text (interval lines, sender/receiver summary) for
 * bench and serve.  Stream rows come from one helper per shape so the
 * interval and summary lines cannot drift apart.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine_int.h"

/*
 * iperf3's unit_snprintf: 1024-based bytes, 1000-based bits.  A -f letter
 * fixes the unit: k m g t in bits (v is bits), K M G T in bytes (v is
 * bits, shown as bytes), as iperf3's -f does for its Bitrate column.
 */
void nd_out_fmt_unit(char *buf, size_t size, double v, bool bits, char format)
{
	static const char *const bytes_u[] = { "Bytes", "KBytes", "MBytes", "GBytes", "TBytes" };
	static const char *const bits_u[] = { "bits", "Kbits", "Mbits", "Gbits", "Tbits" };
	const char *fixed = format ? strchr("kmgt", format | 0x20) : NULL;
	double k;
	int u = 0;

	if (fixed && format >= 'A' && format <= 'Z' && bits) {
		bits = false;
		v /= 8.0;
	}
	k = bits ? 1000.0 : 1024.0;
	if (fixed) {
		for (u = 0; u <= fixed - "kmgt"; u++)
			v /= k;
	} else {
		while (v >= k && u < 4) {
			v /= k;
			u++;
		}
	}
	if (v < 9.995)
		snprintf(buf, size, "%4.2f %s", v, bits ? bits_u[u] : bytes_u[u]);
	else if (v < 99.95)
		snprintf(buf, size, "%4.1f %s", v, bits ? bits_u[u] : bytes_u[u]);
	else
		snprintf(buf, size, "%4.0f %s", v, bits ? bits_u[u] : bytes_u[u]);
}

static const char *role_tag(const struct nd_test *t, bool sending)
{
	if (!t->p.bidir)
		return "";
	if (t->is_server)
		return sending ? "[TX-S]" : "[RX-S]";
	return sending ? "[TX-C]" : "[RX-C]";
}

static void fmt_unit(char *buf, size_t size, double v, bool bits)
{
	nd_out_fmt_unit(buf, size, v, bits, 0);
}

static void row(const struct nd_test *t, FILE *f, const char *id, const char *role, double a,
		double b, uint64_t bytes, const char *tail)
{
	char xfer[32], rate[32];
	double sec = b - a;

	fmt_unit(xfer, sizeof(xfer), (double)bytes, false);
	nd_out_fmt_unit(rate, sizeof(rate), sec > 0 ? (double)bytes * 8.0 / sec : 0, true,
			t->out.format);
	fprintf(f, "[%s]%s %6.2f-%-6.2f sec  %s  %s/sec%s\n", id, role, a, b, xfer, rate, tail);
}

void nd_out_text_header(FILE *f, const struct nd_test *t)
{
	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];

		fprintf(f, "[%3d] local %s port %u connected to %s port %u\n", s->id,
			s->local_host, s->local_port, s->remote_host, s->remote_port);
	}
	fflush(f);
}

/* As iperf3: TCP shows Retr/Cwnd when this side sends at all; UDP's sender
 * header only when it does nothing else. */
static void iv_header(FILE *f, const struct nd_test *t, bool has_tx, bool has_rx)
{
	fprintf(f, "[ ID]%s Interval           Transfer     Bitrate%s\n", t->p.bidir ? "[Role]" : "",
		t->p.udp ? (has_tx && !has_rx ? "         Total Datagrams" :
			    "         Jitter    Lost/Total Datagrams") :
			   (has_tx ? "         Retr  Cwnd" : ""));
}

static void iv_group(FILE *f, const struct nd_test *t, const struct nd_interval *iv, bool sending)
{
	uint64_t sum_bytes = 0, sum_pk = 0, sum_lost = 0;
	int64_t sum_retr = 0;
	double sum_jitter = 0;
	int n = 0;
	char id[8], tail[96], cwnd[32];
	const char *omitted = iv->omitted ? "(omitted)" : "";
	/* iperf3's zbuf: a bidir UDP sender's count sits under "Lost/Total". */
	const char *zbuf = t->p.bidir ? "          " : "";

	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];
		const struct nd_iv_stream *v = &iv->streams[i];

		if (s->sending != sending)
			continue;
		n++;
		sum_bytes += v->bytes;
		sum_pk += v->packets;
		sum_lost += v->lost;
		sum_retr += v->retransmits > 0 ? v->retransmits : 0;
		sum_jitter += v->jitter_sec;
		snprintf(id, sizeof(id), "%3d", s->id);
		/* The tails are iperf3's report_bw_*_format (iperf_locale.c), spaces and all. */
		if (t->p.udp && sending) {
			snprintf(tail, sizeof(tail), " %s %llu  %s", zbuf,
				 (unsigned long long)v->packets, omitted);
		} else if (t->p.udp) {
			uint64_t total = v->packets + v->lost;

			snprintf(tail, sizeof(tail), "  %5.3f ms  %llu/%llu (%.2g%%)  %s",
				 v->jitter_sec * 1e3, (unsigned long long)v->lost,
				 (unsigned long long)total,
				 total ? 100.0 * (double)v->lost / (double)total : 0.0, omitted);
		} else if (sending) {
			fmt_unit(cwnd, sizeof(cwnd), v->snd_cwnd, false);
			snprintf(tail, sizeof(tail), "  %3lld   %s       %s", (long long)(v->retransmits > 0 ?
				 v->retransmits : 0), cwnd, omitted);
		} else {
			snprintf(tail, sizeof(tail), "                  %s", omitted);
		}
		row(t, f, id, role_tag(t, sending), iv->start_sec, iv->end_sec, v->bytes, tail);
	}
	if (n > 1) {
		if (t->p.udp && sending)
			snprintf(tail, sizeof(tail), " %s %llu  %s", zbuf, (unsigned long long)sum_pk,
				 omitted);
		else if (t->p.udp)
			snprintf(tail, sizeof(tail), "  %5.3f ms  %llu/%llu (%.2g%%)  %s",
				 sum_jitter / n * 1e3, (unsigned long long)sum_lost,
				 (unsigned long long)(sum_pk + sum_lost), sum_pk + sum_lost ?
				 100.0 * (double)sum_lost / (double)(sum_pk + sum_lost) : 0.0, omitted);
		else if (sending)
			snprintf(tail, sizeof(tail), "  %3lld             %s", (long long)sum_retr,
				 omitted);
		else
			snprintf(tail, sizeof(tail), "                  %s", omitted);
		row(t, f, "SUM", role_tag(t, sending), iv->start_sec, iv->end_sec, sum_bytes, tail);
	}
}

void nd_out_text_interval(FILE *f, const struct nd_test *t, const struct nd_interval *iv)
{
	bool has_tx = false, has_rx = false;

	for (int i = 0; i < t->streams_count; i++) {
		if (t->streams[i].sending)
			has_tx = true;
		else
			has_rx = true;
	}
	/* iperf3: the header before the first interval, a separator before
	 * each later one when there are parallel streams. */
	if (t->intervals_count == 0 && t->t_last_iv == t->t_start)
		iv_header(f, t, has_tx, has_rx);
	else if (t->p.streams > 1)
		fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	/* The client's sending streams first on either end (3.21's order). */
	for (int k = 0; k < 2; k++) {
		bool sending = t->is_server ? k == 1 : k == 0;

		if (sending ? has_tx : has_rx)
			iv_group(f, t, iv, sending);
	}
	fflush(f);
}

/* One summary row: the sender's or the receiver's view of a stream. */
struct sum_row {
	uint64_t bytes, packets, lost;
	double sec, jitter_sec;
	int64_t retrans;
	bool valid;
};

static void sum_views(const struct nd_test *t, const struct nd_stream *s, struct sum_row *tx,
		      struct sum_row *rx)
{
	double sec = t->t_end - t->t_omit_end;
	uint64_t local = atomic_load(&s->bytes) - s->omit_bytes;

	memset(tx, 0, sizeof(*tx));
	memset(rx, 0, sizeof(*rx));
	tx->sec = rx->sec = sec;
	if (s->sending) {
		*tx = (struct sum_row){ local, atomic_load(&s->packets) - s->omit_packets, 0, sec, 0,
					t->p.udp ? -1 : (int64_t)(s->tcp.total_retrans - s->omit_retrans),
					true };
		*rx = (struct sum_row){ s->remote_bytes, s->remote_packets, s->remote_lost,
					s->remote_end_sec > 0 ? s->remote_end_sec : sec,
					s->remote_jitter_sec, -1, s->have_remote };
	} else {
		*tx = (struct sum_row){ s->remote_bytes, s->remote_packets, 0,
					s->remote_end_sec > 0 ? s->remote_end_sec : sec, 0,
					s->remote_retrans, s->have_remote };
		*rx = (struct sum_row){ local, s->acct.highest_seq, s->acct.lost, sec,
					s->acct.jitter_sec, -1, true };
	}
}

static void sum_line(FILE *f, const struct nd_test *t, const char *id, const char *role,
		     const struct sum_row *v, bool sender)
{
	char tail[128];

	if (!v->valid)
		return;
	if (t->p.udp) {
		uint64_t total = sender ? v->packets : v->packets;

		snprintf(tail, sizeof(tail), "  %5.3f ms  %llu/%llu (%.2g%%)  %s",
			 v->jitter_sec * 1e3, (unsigned long long)v->lost, (unsigned long long)total,
			 total ? 100.0 * (double)v->lost / (double)total : 0.0,
			 sender ? "sender" : "receiver");
	} else if (sender && v->retrans >= 0) {
		/* iperf3: 12 spaces after a stream's Retr, 13 after [SUM]'s. */
		snprintf(tail, sizeof(tail), "  %3lld            %s%s", (long long)v->retrans,
			 strcmp(id, "SUM") ? "" : " ", "sender");
	} else {
		snprintf(tail, sizeof(tail), "                  %s", sender ? "sender" : "receiver");
	}
	row(t, f, id, role, 0, v->sec, v->bytes, tail);
}

/* -F: 3.21's line under a stream's sender row, in its byte units ("977 KByte"). */
static void diskfile_line(FILE *f, const struct nd_test *t, uint64_t bytes)
{
	char moved[32], size[32];
	struct stat st;
	size_t len;

	if (!t->p.file || t->p.udp || stat(t->p.file, &st) < 0)
		return;
	fmt_unit(moved, sizeof(moved), (double)bytes, false);
	fmt_unit(size, sizeof(size), (double)st.st_size, false);
	if ((len = strlen(moved)) && moved[len - 1] == 's')
		moved[len - 1] = '\0';
	if ((len = strlen(size)) && size[len - 1] == 's')
		size[len - 1] = '\0';
	fprintf(f, "        Sent %s / %s (%d%%) of %s\n", moved, size,
		st.st_size > 0 ? (int)((double)bytes / (double)st.st_size * 100.0) : 100,
		t->p.file);
}

static void summary_group(FILE *f, const struct nd_test *t, bool sending)
{
	struct sum_row tx, rx, stx = { 0 }, srx = { 0 };
	char id[8];
	int n = 0;

	stx.valid = srx.valid = true;
	for (int i = 0; i < t->streams_count; i++) {
		const struct nd_stream *s = &t->streams[i];

		if (s->sending != sending)
			continue;
		sum_views(t, s, &tx, &rx);
		snprintf(id, sizeof(id), "%3d", s->id);
		/* A server shows its own side only, as 3.21's does. */
		if (!t->is_server || sending)
			sum_line(f, t, id, role_tag(t, sending), &tx, true);
		diskfile_line(f, t, sending ? tx.bytes : rx.bytes);
		if (!t->is_server || !sending)
			sum_line(f, t, id, role_tag(t, sending), &rx, false);
		n++;
		stx.bytes += tx.bytes;
		stx.packets += tx.packets;
		stx.retrans = (tx.retrans >= 0 ? stx.retrans + tx.retrans : stx.retrans);
		stx.sec = fmax(stx.sec, tx.sec);
		stx.valid = stx.valid && tx.valid;
		srx.bytes += rx.bytes;
		srx.packets += rx.packets;
		srx.lost += rx.lost;
		srx.jitter_sec += rx.jitter_sec;
		srx.sec = fmax(srx.sec, rx.sec);
		srx.valid = srx.valid && rx.valid;
	}
	if (n > 1) {
		srx.jitter_sec /= n;
		if (!t->is_server || sending)
			sum_line(f, t, "SUM", role_tag(t, sending), &stx, true);
		if (!t->is_server || !sending)
			sum_line(f, t, "SUM", role_tag(t, sending), &srx, false);
	}
}

void nd_out_text_summary(FILE *f, const struct nd_test *t)
{
	bool has_tx = false, has_rx = false;

	for (int i = 0; i < t->streams_count; i++) {
		if (t->streams[i].sending)
			has_tx = true;
		else
			has_rx = true;
	}
	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	if (t->out.verbose)
		fprintf(f, "Test Complete. Summary Results:\n");
	/* A server that only receives shows no sender rows, so no Retr. */
	fprintf(f, "[ ID]%s Interval           Transfer     Bitrate%s\n", t->p.bidir ? "[Role]" : "",
		t->p.udp ? "         Jitter    Lost/Total Datagrams" :
			   !t->is_server || has_tx ? "         Retr" : "");
	for (int k = 0; k < 2; k++) {
		bool sending = t->is_server ? k == 1 : k == 0;

		if (sending ? has_tx : has_rx)
			summary_group(f, t, sending);
	}
	fflush(f);
}
