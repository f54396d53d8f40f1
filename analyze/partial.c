/* SPDX-License-Identifier: MIT */
/*
 * --partial: a stream file cut in the middle of a packet (a trace copied
 * while it was written, a full disk) is read up to its last whole packet.
 * libbabeltrace2 refuses the whole trace otherwise ("Failed to index CTF
 * stream file"): it indexes every packet of a stream file when the
 * reading starts, and the last one runs past the end.
 *
 * Where each packet ends: LTTng's index (index/NAME.idx) says it; without
 * one, the packets are walked: each starts with the CTF magic, and its
 * context holds content_size then packet_size (in bits), at the same
 * offset in every packet of the stream; that offset is the first one in
 * the first packet whose packet_size leads to the next packet's magic, or
 * exactly to the file's end.  A stream that cannot be walked so (one cut
 * in its first packet, without an index) is left as it is, for
 * libbabeltrace2 to say what it finds.
 *
 * Each trace is then read from a directory of the temporary one, TMP/tN
 * (N the trace's index), as a worker reads its own (graph.c, decode.c
 * name the trace's own paths in what they say): links to its metadata,
 * stream and index files, but a copy of each cut stream file's whole
 * packets, and of their index entries.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

#define CTF_PACKET_MAGIC	0xC1FC1FC1u
#define WALK_OFFSET_MAX		256	/* where packet_size may be */
#define INDEX_ENTRY_MIN		16	/* offset, packet size in bits */

/* A cut stream file: its whole packets are its first @keep bytes. */
struct cut {
	unsigned int trace;
	char *name;
	uint64_t size, keep;
	unsigned int packets;	/* whole */
	unsigned char *idx;	/* the index's header and whole entries */
	size_t idx_len;
};

static uint64_t load64(const unsigned char *p, bool be)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * (be ? 7 - i : i));
	return v;
}

/*
 * From @fd's index (@ifd): the whole packets' bytes in *@keep and their
 * count; the header and entries to keep in c->idx.  1 if the file is cut
 * (or runs on past its packets), 0 if not, -1 if the index is no help.
 */
static int cut_by_index(int ifd, struct cut *c)
{
	unsigned char h[CTF_INDEX_HEADER_SIZE], e[INDEX_ENTRY_MIN];
	struct stat st;
	uint32_t len;
	uint64_t n, i, end = 0;

	if (fstat(ifd, &st) || !S_ISREG(st.st_mode) ||
	    pread(ifd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    load_u32(h, true) != CTF_INDEX_MAGIC)
		return -1;
	len = load_u32(h + 12, true);
	if (len < INDEX_ENTRY_MIN || len > 4096 ||
	    (uint64_t)st.st_size < sizeof(h))
		return -1;
	n = ((uint64_t)st.st_size - sizeof(h)) / len;
	/* entry by entry: the index is as large as it says, no more */
	for (i = 0; i < n; i++) {
		uint64_t off, bits;

		if (pread(ifd, e, sizeof(e), (off_t)(sizeof(h) + i * len)) !=
		    (ssize_t)sizeof(e))
			return -1;
		off = load64(e, true);
		bits = load64(e + 8, true);
		if (off != end || !bits || bits % 8 || bits / 8 > c->size - end)
			break;
		end += bits / 8;
	}
	if (end == c->size)
		return 0;
	if (i > UINT_MAX)
		return -1;
	c->keep = end;
	c->packets = (unsigned int)i;
	c->idx_len = sizeof(h) + (size_t)i * len;
	c->idx = xcalloc(1, c->idx_len);
	memcpy(c->idx, h, sizeof(h));
	if (i && pread(ifd, c->idx + sizeof(h), c->idx_len - sizeof(h),
		       sizeof(h)) != (ssize_t)(c->idx_len - sizeof(h))) {
		free(c->idx);
		c->idx = NULL;
		return -1;
	}
	return 1;
}

/* Whether @fd holds the packet magic at @off (in the order @be). */
static bool magic_at(int fd, uint64_t off, bool be)
{
	unsigned char m[4];

	return pread(fd, m, 4, (off_t)off) == 4 &&
	       load_u32(m, be) == CTF_PACKET_MAGIC;
}

/* content_size and packet_size in bytes at @off + @at; false if not so */
static bool sizes_at(int fd, uint64_t off, unsigned int at, bool be,
		     uint64_t *packet)
{
	unsigned char b[16];
	uint64_t content, bits;

	if (pread(fd, b, 16, (off_t)(off + at - 8)) != 16)
		return false;
	content = load64(b, be);
	bits = load64(b + 8, be);
	if (!content || content > bits || bits % 8 || bits / 8 <= at + 8)
		return false;
	*packet = bits / 8;
	return true;
}

/* Without an index: walk the packets (above).  As cut_by_index(). */
static int cut_by_walk(int fd, struct cut *c)
{
	unsigned int at;
	uint64_t off = 0, len;
	bool be;

	if (magic_at(fd, 0, false))
		be = false;
	else if (magic_at(fd, 0, true))
		be = true;
	else
		return -1;
	for (at = 16; at < WALK_OFFSET_MAX; at += 8)
		if (sizes_at(fd, 0, at, be, &len) &&
		    (len == c->size || magic_at(fd, len, be)))
			break;
	if (at >= WALK_OFFSET_MAX)
		return -1;
	c->packets = 0;
	while (off < c->size) {
		if (!magic_at(fd, off, be) ||
		    !sizes_at(fd, off, at, be, &len)) {
			/* its header cut is a cut; else not a packet */
			if (off + at + 8 <= c->size)
				return -1;
			break;
		}
		if (len > c->size - off)
			break;
		off += len;
		c->packets++;
	}
	if (off == c->size)
		return 0;
	c->keep = off;
	return 1;
}

/* The cut stream files of trace @tr, appended to *@cuts. */
static void find_cuts(const struct analysis *a, unsigned int tr,
		      struct cut **cuts, unsigned int *nr)
{
	const char *dir = a->traces[tr];
	char path[PATH_MAX + 300];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		struct cut c = { .trace = tr };
		struct stat st;
		int fd, ifd, r;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    !strcmp(de->d_name, "index"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
			close(fd);
			continue;
		}
		c.size = (uint64_t)st.st_size;
		snprintf(path, sizeof(path), "%s/index/%s.idx", dir,
			 de->d_name);
		ifd = open(path, O_RDONLY | O_NONBLOCK);
		r = ifd >= 0 ? cut_by_index(ifd, &c) : -1;
		if (ifd >= 0)
			close(ifd);
		if (r < 0)
			r = cut_by_walk(fd, &c);
		close(fd);
		if (r <= 0)
			continue;
		c.name = xstrdup(de->d_name);
		*cuts = xrealloc(*cuts, *nr + 1, sizeof(**cuts));
		(*cuts)[(*nr)++] = c;
	}
	if (d)
		closedir(d);
}

static const struct cut *cut_of(const struct cut *cuts, unsigned int nr,
				unsigned int tr, const char *name)
{
	for (unsigned int i = 0; i < nr; i++)
		if (cuts[i].trace == tr && !strcmp(cuts[i].name, name))
			return &cuts[i];
	return NULL;
}

/* @len bytes of @in from its start to the new file @out.  0, or -1. */
static int copy_head(const char *in, const char *out, uint64_t len)
{
	int fi = open(in, O_RDONLY | O_NONBLOCK), fo = -1, ret = -1;
	char *buf = xcalloc(1, 1 << 20);
	off_t o = 0;

	if (fi < 0)
		goto out;
	fo = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
	while (fo >= 0 && len) {
		ssize_t n = pread(fi, buf, len < (1 << 20) ? len : 1 << 20, o);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || write(fo, buf, (size_t)n) != n)
			goto out;
		o += n;
		len -= (uint64_t)n;
	}
	ret = fo >= 0 ? 0 : -1;
out:
	if (fo >= 0 && close(fo))
		ret = -1;
	if (fi >= 0)
		close(fi);
	free(buf);
	return ret;
}

static int write_file(const char *path, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int ok = fd >= 0 && write(fd, p, len) == (ssize_t)len;

	if (fd >= 0 && close(fd))
		ok = 0;
	return ok ? 0 : -1;
}

/* @real/@name into @dir: a link, or the cut file's copy.  0, or -1. */
static int shadow_entry(struct tmpdir *t, const char *real, const char *dir,
			const char *name, const struct cut *c, bool index)
{
	char from[PATH_MAX + 300], to[PATH_MAX + 300];

	snprintf(from, sizeof(from), "%s/%s", real, name);
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (!c)
		return tmp_link(t, from, to);
	tmp_note(t, to);
	return index ? write_file(to, c->idx, c->idx_len) :
		       copy_head(from, to, c->keep);
}

/* TMP/tN for trace @tr: links, and the copies of its cut files. */
static int shadow_trace(const struct analysis *a, struct tmpdir *t,
			unsigned int tr, const struct cut *cuts,
			unsigned int nr)
{
	char dir[PATH_MAX + 64], idir[PATH_MAX + 128], ireal[PATH_MAX + 64];
	char *real = realpath(a->traces[tr], NULL);
	struct dirent *de;
	DIR *d;
	int ret = -1;

	snprintf(dir, sizeof(dir), "%s/t%u", t->base, tr);
	if (!real || tmp_mkdir(t, dir))
		goto out;
	d = opendir(real);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "index"))
			continue;
		if (shadow_entry(t, real, dir, de->d_name,
				 cut_of(cuts, nr, tr, de->d_name), false)) {
			closedir(d);
			goto out;
		}
	}
	if (!d)
		goto out;
	closedir(d);
	snprintf(ireal, sizeof(ireal), "%s/index", real);
	d = opendir(ireal);
	if (!d) {
		ret = 0;	/* no index */
		goto out;
	}
	snprintf(idir, sizeof(idir), "%s/index", dir);
	if (tmp_mkdir(t, idir)) {
		closedir(d);
		goto out;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		const struct cut *c = NULL;

		if (de->d_name[0] == '.')
			continue;
		if (len > 4 && !strcmp(de->d_name + len - 4, ".idx")) {
			char *stream = xstrdup(de->d_name);

			stream[len - 4] = '\0';
			c = cut_of(cuts, nr, tr, stream);
			free(stream);
			/* found by walking: its index is of no use */
			if (c && !c->idx)
				continue;
		}
		if (shadow_entry(t, ireal, idir, de->d_name, c, true)) {
			closedir(d);
			goto out;
		}
	}
	closedir(d);
	ret = 0;
out:
	free(real);
	return ret;
}

char **partial_trim(const struct analysis *a, struct tmpdir *t)
{
	struct cut *cuts = NULL;
	unsigned int nr = 0, i;
	char **inputs = NULL;
	char c1[32], c2[32];

	for (i = 0; i < a->nr_traces; i++)
		find_cuts(a, i, &cuts, &nr);
	if (!nr)
		return NULL;
	tmp_guard(t);
	if (tmp_make_base(t)) {
		fprintf(stderr, "rpcsim-analyze: --partial: a temporary "
			"directory in %s for the cut stream files' whole "
			"packets: %s\n", tmp_parent(), strerror(errno));
		goto fail;
	}
	for (i = 0; i < a->nr_traces; i++)
		if (shadow_trace(a, t, i, cuts, nr)) {
			fprintf(stderr, "rpcsim-analyze: --partial: copying "
				"the whole packets of %s's cut stream files "
				"into %s: %s\n", a->traces[i], t->base,
				errno ? strerror(errno) : "failed");
			goto fail;
		}
	for (i = 0; i < nr; i++)
		fprintf(stderr, "rpcsim-analyze: warning: %s/%s: cut in the "
			"middle of a packet: read up to its last whole packet "
			"(%u packet%s, %s bytes), the %s bytes after it "
			"dropped\n", a->traces[cuts[i].trace], cuts[i].name,
			cuts[i].packets, cuts[i].packets == 1 ? "" : "s",
			fmt_thousands(c1, sizeof(c1), cuts[i].keep),
			fmt_thousands(c2, sizeof(c2),
				      cuts[i].size - cuts[i].keep));
	inputs = xcalloc(a->nr_traces, sizeof(*inputs));
	for (i = 0; i < a->nr_traces; i++) {
		size_t len = strlen(t->base) + 16;

		inputs[i] = xcalloc(1, len);
		snprintf(inputs[i], len, "%s/t%u", t->base, i);
	}
	goto out;
fail:
	tmp_unguard();
	tmp_remove(t);
	inputs = NULL;
out:
	for (i = 0; i < nr; i++) {
		free(cuts[i].name);
		free(cuts[i].idx);
	}
	free(cuts);
	return inputs;
}
