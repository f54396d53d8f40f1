/* SPDX-License-Identifier: MIT */
/*
 * --jobs=N, split by time (reader.c).  LTTng's packet index
 * (TRACE/index/NAME.idx, version 1.1): a 16-byte header (magic, major,
 * minor, entry length), then one entry per packet, each field a
 * big-endian 64-bit integer: offset in bytes, packet and content sizes in
 * bits, timestamp_begin and timestamp_end (clock values),
 * events_discarded, stream_id, stream_instance_id, packet_seq_num.  The
 * work of N workers is cut at N - 1 times (split_plan()); a worker
 * decodes a copy of the packets of each file that can hold events of its
 * range (a packet that straddles a cut is decoded by the workers of both
 * sides, each keeping its side's events), with an index of its own:
 * babeltrace2 ignores an index that does not add up to its file.  The
 * discard counts are the risk: babeltrace2 reports a stream's first
 * packet's whole events_discarded counter as lost, and a gap in
 * packet_seq_num between two packets of the overlap would be reported
 * twice.  So a trace is cut only where every index is there, covers its
 * file exactly, in packets whose times do not overlap or go back,
 * consecutive, none counting a discarded event; and one trace (one clock)
 * only.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "reader.h"

#define IDX_HDR		CTF_INDEX_HEADER_SIZE
#define IDX_ENTRY_MIN	72	/* version 1.1: up to packet_seq_num */

static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

/* @f's index in f->idx, if a split can trust it: 0, or -1. */
static int read_index(const char *dir, struct sfile *f)
{
	char path[PATH_MAX + 64];
	struct stat st;
	uint64_t n, end = 0;
	unsigned int i;
	int fd, ret = -1;

	snprintf(path, sizeof(path), "%s/index/%s.idx", dir, f->name);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < IDX_HDR ||
	    pread(fd, f->hdr, IDX_HDR, 0) != IDX_HDR ||
	    load_u32(f->hdr, true) != CTF_INDEX_MAGIC)
		goto out;
	f->elen = load_u32(f->hdr + 12, true);
	if (f->elen < IDX_ENTRY_MIN || f->elen > 4096 || f->elen % 8 ||
	    ((uint64_t)st.st_size - IDX_HDR) % f->elen)
		goto out;
	n = ((uint64_t)st.st_size - IDX_HDR) / f->elen;
	if (!n || n > (1u << 24))
		goto out;
	f->idx = xcalloc(n, f->elen);
	if (pread(fd, f->idx, n * f->elen, IDX_HDR) != (ssize_t)(n * f->elen))
		goto out;
	f->npk = (unsigned int)n;
	for (i = 0; i < f->npk; i++) {
		uint64_t bits = pk(f, i, PK_BITS);

		if (pk(f, i, PK_OFF) != end || !bits || bits % 8 ||
		    bits / 8 > f->size - end ||
		    pk(f, i, PK_TB) > pk(f, i, PK_TE) ||
		    (i && pk(f, i, PK_TB) < pk(f, i - 1, PK_TE)) ||
		    pk(f, i, PK_DISC) ||
		    (i && pk(f, i, PK_SEQ) != pk(f, i - 1, PK_SEQ) + 1))
			goto out;
		end += bits / 8;
	}
	if (end == f->size)
		ret = 0;
out:
	close(fd);
	if (ret) {
		free(f->idx);
		f->idx = NULL;
		f->npk = 0;
	}
	return ret;
}

/*
 * The packets of @f that can hold events of [lo, hi): [*first, *last];
 * false if none.
 */
bool range_packets(const struct sfile *f, uint64_t lo, uint64_t hi,
		   unsigned int *first, unsigned int *last)
{
	unsigned int i = 0, j;

	while (i < f->npk && pk(f, i, PK_TE) < lo)
		i++;
	if (i == f->npk || pk(f, i, PK_TB) >= hi)
		return false;
	for (j = i; j + 1 < f->npk && pk(f, j + 1, PK_TB) < hi; j++)
		;
	*first = i;
	*last = j;
	return true;
}

/*
 * What a worker of [lo, hi) decodes, in bytes, the events of a packet
 * taken as spread evenly over its time: each packet that can hold
 * events of the range from its beginning (to reach the range's first
 * events, it decodes those before lo too) up to hi, where it stops
 * (range_past()).
 */
static double range_cost(const struct par *p, uint64_t lo, uint64_t hi)
{
	double sum = 0;
	unsigned int i, j;

	for (i = 0; i < p->nf; i++) {
		const struct sfile *f = &p->f[i];

		for (j = 0; j < f->npk; j++) {
			uint64_t tb = pk(f, j, PK_TB), te = pk(f, j, PK_TE);
			double b = (double)(pk(f, j, PK_BITS) / 8);

			if (te < lo)
				continue;
			if (tb >= hi)
				break;
			if (hi <= te && te > tb)
				b *= (double)(hi - tb) / (double)(te - tb);
			sum += b;
		}
	}
	return sum;
}

/*
 * The cut after @lo that leaves a range of as much work as each of the
 * @rest ranges after it will have: the least hi in (lo, end] with
 * range_cost(lo, hi) >= range_cost(hi, end of trace) / rest (the first
 * grows with hi, the second shrinks).
 */
static uint64_t range_reach(const struct par *p, uint64_t lo, uint64_t end,
			    unsigned int rest)
{
	uint64_t a = lo, b = end;	/* short at a, not short at b */

	while (b - a > 1) {
		uint64_t m = a + (b - a) / 2;

		if (range_cost(p, lo, m) * rest <
		    range_cost(p, m, UINT64_MAX))
			a = m;
		else
			b = m;
	}
	return b;
}

/*
 * The slowest of the workers if the next cut after @lo were @c and the
 * @rest ranges after it shared what is left evenly.
 */
static double cut_span(const struct par *p, uint64_t lo, uint64_t c,
		       unsigned int rest)
{
	double before = range_cost(p, lo, c);
	double after = range_cost(p, c, UINT64_MAX) / rest;

	return before > after ? before : after;
}

/*
 * A balanced cut @hi usually falls inside a packet of each file, which
 * both workers then decode up to @hi: with large packets (a large
 * --trace-buffer) that is a large share of the trace.  Just before or
 * just after the packet that straddles @hi, in each file, that file's
 * packets split clean; of those cuts and @hi, the one whose slowest
 * worker has the least to decode (cut_span()).
 */
static uint64_t cut_at_packet(const struct par *p, uint64_t lo, uint64_t hi,
			      uint64_t end, unsigned int rest)
{
	uint64_t best = hi;
	double span = cut_span(p, lo, hi, rest);

	for (unsigned int i = 0; i < p->nf; i++) {
		const struct sfile *f = &p->f[i];
		unsigned int k, last;

		/* the packet that straddles hi, if one does */
		if (!range_packets(f, hi, hi + 1, &k, &last) ||
		    pk(f, k, PK_TB) >= hi)
			continue;
		for (int side = 0; side < 2; side++) {
			uint64_t c;
			double s;

			if (side == 0 && !k)
				continue;
			/* After a packet's last event: it stays before c. */
			c = pk(f, side ? k : k - 1, PK_TE) + 1;
			if (c <= lo || c >= end)
				continue;
			s = cut_span(p, lo, c, rest);
			if (s < span) {
				span = s;
				best = c;
			}
		}
	}
	return best;
}

/*
 * Cut the work by time for up to @jobs workers (p->cut, p->n, p->twice)
 * when the indexes allow it (above).  Each cut is placed so that the
 * range before it has as much to decode (range_cost()) as each of the
 * ranges still to place, which count what a worker decodes of the
 * packets that straddle its start, then moved to a packet's edge when
 * that leaves the slowest worker less to decode (cut_at_packet()).
 * Returns whether it cut.
 */
bool split_plan(struct par *p, unsigned int jobs)
{
	struct statvfs vfs;
	uint64_t total = 0, copies = 0, first = UINT64_MAX, last = 0;
	double decoded = 0;
	unsigned int i, j, a, b, n = 1;

	if (p->a->nr_traces != 1 || jobs < 2)
		return false;
	for (i = 0; i < p->nf; i++) {
		struct sfile *f = &p->f[i];

		if (read_index(p->a->traces[f->trace], f))
			return false;
		total += f->size;
		if (pk(f, 0, PK_TB) < first)
			first = pk(f, 0, PK_TB);
		if (pk(f, f->npk - 1, PK_TE) > last)
			last = pk(f, f->npk - 1, PK_TE);
	}
	if (last <= first || last == UINT64_MAX)
		return false;
	p->cut = xcalloc(jobs + 1, sizeof(*p->cut));
	for (j = 1; j < jobs; j++) {
		uint64_t lo = p->cut[n - 1], hi;

		hi = range_reach(p, lo, last, jobs - j);
		if (hi <= lo || hi <= first || hi >= last)
			break;
		hi = cut_at_packet(p, lo, hi, last, jobs - j);
		p->cut[n++] = hi;
	}
	p->cut[n] = UINT64_MAX;
	for (j = 0; j < n; j++) {
		decoded += range_cost(p, p->cut[j], p->cut[j + 1]);
		for (i = 0; i < p->nf; i++)
			if (range_packets(&p->f[i], p->cut[j], p->cut[j + 1],
					  &a, &b))
				copies += pk(&p->f[i], b, PK_OFF) +
					  pk(&p->f[i], b, PK_BITS) / 8 -
					  pk(&p->f[i], a, PK_OFF);
	}
	/* the copies, and room to spare (64 MiB, 1/16) */
	if (n < 2 || statvfs(tmp_parent(), &vfs) ||
	    (uint64_t)vfs.f_bavail * vfs.f_frsize / 16 * 15 <
	    copies + (64u << 20)) {
		free(p->cut);
		p->cut = NULL;
		return false;
	}
	p->n = n;
	p->twice = decoded > (double)total ? (uint64_t)(decoded - (double)total) : 0;
	return true;
}

/*
 * TMP/wK/tN for each worker K (trace N, the one): a link to its metadata,
 * an index directory, and the names of the copies the worker makes
 * (worker_copy()), noted to be removed.  0, or 1.
 */
int make_split_dirs(const struct par *p, struct tmpdir *t)
{
	char path[PATH_MAX + 64], q[PATH_MAX + 64];
	unsigned int k, i, tr = p->f[0].trace;

	for (k = 0; k < p->n; k++) {
		snprintf(path, sizeof(path), "%s/w%u", t->base, k);
		if (tmp_mkdir(t, path))
			return 1;
		snprintf(path, sizeof(path), "%s/w%u/t%u", t->base, k, tr);
		if (tmp_mkdir(t, path))
			return 1;
		snprintf(q, sizeof(q), "%s/metadata", p->real[tr]);
		snprintf(path, sizeof(path), "%s/w%u/t%u/metadata", t->base,
			 k, tr);
		if (tmp_link(t, q, path))
			return 1;
		snprintf(path, sizeof(path), "%s/w%u/t%u/index", t->base, k,
			 tr);
		if (tmp_mkdir(t, path))
			return 1;
		for (i = 0; i < p->nf; i++) {
			snprintf(path, sizeof(path), "%s/w%u/t%u/%s", t->base,
				 k, tr, p->f[i].name);
			tmp_note(t, path);
			snprintf(path, sizeof(path), "%s/w%u/t%u/index/%s.idx",
				 t->base, k, tr, p->f[i].name);
			tmp_note(t, path);
		}
	}
	return 0;
}

/* Bytes [@off, @off + @len) of @in to the new file @out.  0, or -1. */
static int copy_bytes(const char *in, const char *out, uint64_t off,
		      uint64_t len)
{
	int fi = open(in, O_RDONLY | O_NONBLOCK), fo = -1, ret = -1;
	loff_t o = (loff_t)off;
	char *buf = NULL;
	struct stat st;

	if (fi < 0)
		return -1;
	/* what split_plan() read the index of, still: a regular file */
	if (fstat(fi, &st) || !S_ISREG(st.st_mode)) {
		close(fi);
		return -1;
	}
	fo = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fo < 0)
		goto out;
	/* in the kernel, where the filesystem can */
	while (len) {
		ssize_t n = copy_file_range(fi, &o, fo, NULL, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len -= (uint64_t)n;
	}
	if (len) {
		size_t cap = 1 << 20;

		buf = xcalloc(1, cap);
		while (len) {
			ssize_t n = pread(fi, buf, len < cap ? len : cap, o);
			ssize_t w;

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				goto out;
			w = write(fo, buf, (size_t)n);
			if (w != n)
				goto out;
			o += n;
			len -= (uint64_t)n;
		}
	}
	ret = 0;
out:
	free(buf);
	if (fo >= 0 && close(fo))
		ret = -1;
	close(fi);
	return ret;
}

/*
 * Worker @k's copies, by time: for each stream file, its packets that
 * can hold events of the worker's range, and their index entries with
 * the offsets moved.  0, or -1 (the parent then reads in one process).
 */
int worker_copy(const struct par *p, unsigned int k, const char *base)
{
	char in[PATH_MAX + 64], out[PATH_MAX + 64];
	unsigned int i, a, b, j;

	for (i = 0; i < p->nf; i++) {
		const struct sfile *f = &p->f[i];
		uint64_t off, end;
		unsigned char *e;
		int fd, ok;
		size_t len;

		if (!range_packets(f, p->cut[k], p->cut[k + 1], &a, &b))
			continue;
		off = pk(f, a, PK_OFF);
		end = pk(f, b, PK_OFF) + pk(f, b, PK_BITS) / 8;
		snprintf(in, sizeof(in), "%s/%s", p->real[f->trace], f->name);
		snprintf(out, sizeof(out), "%s/t%u/%s", base, f->trace,
			 f->name);
		if (copy_bytes(in, out, off, end - off))
			return -1;
		len = IDX_HDR + (size_t)(b - a + 1) * f->elen;
		e = xcalloc(1, len);
		memcpy(e, f->hdr, IDX_HDR);
		memcpy(e + IDX_HDR, f->idx + (size_t)a * f->elen,
		       (size_t)(b - a + 1) * f->elen);
		for (j = 0; j <= b - a; j++)
			put_be64(e + IDX_HDR + (size_t)j * f->elen,
				 pk(f, a + j, PK_OFF) - off);
		snprintf(out, sizeof(out), "%s/t%u/index/%s.idx", base,
			 f->trace, f->name);
		fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
		ok = fd >= 0 && write(fd, e, len) == (ssize_t)len;
		if (fd >= 0 && close(fd))
			ok = 0;
		free(e);
		if (!ok)
			return -1;
	}
	return 0;
}
