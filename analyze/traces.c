/* SPDX-License-Identifier: MIT */
/*
 * Find the CTF traces below the paths given on the command line.
 *
 * babeltrace2 2.0.4's source.ctf.fs does not search subdirectories, and
 * lttng writes DIR/ust/uid/0/64-bit/ (per-UID buffers) or
 * DIR/ust/pid/NAME-PID-DATE/ (per-PID buffers), one CTF trace per
 * directory holding a "metadata" file.  Walk the tree and collect those.
 * Symbolic links are followed; a (device, inode) set stops loops.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include <inttypes.h>

#include "analyze.h"

#define WALK_DEPTH_MAX	32

struct walk {
	struct analysis *a;
	struct { dev_t dev; ino_t ino; } *seen;
	size_t nr_seen, cap_seen;
	unsigned int cap_traces;
	unsigned int skipped;
	int err;
	/*
	 * Folders below an argument that could not be read or were nested
	 * too deep: counted, and said in one line per argument (the first
	 * of them named), not one line each.
	 */
	unsigned int unreadable, too_deep;
	char *first_unreadable, *first_too_deep;
	int unreadable_errno;
};

/*
 * The kernel's pseudo file systems: their files are the kernel's state,
 * never a trace, and walking them (all of /proc) takes long and trips over
 * folders that vanish or cannot be read.  The name of the one @path is
 * on, or NULL.
 */
static const char *pseudo_fs(const char *path)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} pseudo[] = {
		{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" },
		{ DEVPTS_SUPER_MAGIC, "devpts" }, { DEBUGFS_MAGIC, "debugfs" },
		{ TRACEFS_MAGIC, "tracefs" }, { CGROUP_SUPER_MAGIC, "cgroup" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ SECURITYFS_MAGIC, "securityfs" }, { SELINUX_MAGIC, "selinuxfs" },
		{ BPF_FS_MAGIC, "bpf" }, { PSTOREFS_MAGIC, "pstore" },
		{ EFIVARFS_MAGIC, "efivarfs" }, { BINFMTFS_MAGIC, "binfmt_misc" },
		{ NSFS_MAGIC, "nsfs" },
	};
	struct statfs sf;

	if (statfs(path, &sf))
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((unsigned long)sf.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return NULL;
}

/* Remember the first of a kind of trouble; count them all. */
static void walk_note(unsigned int *count, char **first, const char *dir)
{
	if (!(*count)++)
		*first = xstrdup(dir);
}

static bool walk_seen(struct walk *w, const struct stat *st)
{
	size_t i;

	for (i = 0; i < w->nr_seen; i++)
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return true;
	if (w->nr_seen == w->cap_seen) {
		size_t cap = w->cap_seen ? 2 * w->cap_seen : 64;

		w->seen = xrealloc(w->seen, cap, sizeof(*w->seen));
		w->cap_seen = cap;
	}
	w->seen[w->nr_seen].dev = st->st_dev;
	w->seen[w->nr_seen].ino = st->st_ino;
	w->nr_seen++;
	return false;
}

static void walk_add_trace(struct walk *w, const char *dir)
{
	struct analysis *a = w->a;

	if (a->nr_traces == w->cap_traces) {
		unsigned int cap = w->cap_traces ? 2 * w->cap_traces : 8;

		a->traces = xrealloc(a->traces, cap, sizeof(*a->traces));
		w->cap_traces = cap;
	}
	a->traces[a->nr_traces++] = xstrdup(dir);
}

static char *path_join(const char *dir, const char *name)
{
	size_t ld = strlen(dir), ln = strlen(name);
	char *p = xcalloc(1, ld + ln + 2);

	memcpy(p, dir, ld);
	if (ld && dir[ld - 1] == '/')
		ld--;
	p[ld] = '/';
	memcpy(p + ld + 1, name, ln + 1);
	return p;
}

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void walk_dir(struct walk *w, const char *dir, dev_t dev,
		     unsigned int depth)
{
	char **subdirs = NULL;
	dev_t *subdev = NULL;
	size_t nr_sub = 0, cap_sub = 0, i;
	bool is_trace = false;
	struct dirent *de;
	DIR *d;

	if (depth > WALK_DEPTH_MAX) {
		walk_note(&w->too_deep, &w->first_too_deep, dir);
		return;
	}
	d = opendir(dir);
	if (!d) {
		if (!w->unreadable)
			w->unreadable_errno = errno;
		walk_note(&w->unreadable, &w->first_unreadable, dir);
		w->err = 1;
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		struct stat st;
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = path_join(dir, de->d_name);
		if (stat(p, &st)) {
			/* a dangling link is no trace: ignore it */
			free(p);
			continue;
		}
		if (S_ISREG(st.st_mode) && !strcmp(de->d_name, "metadata")) {
			is_trace = true;
		} else if (S_ISDIR(st.st_mode)) {
			/* A mount of /proc or /sys below: nothing to find. */
			if (st.st_dev != dev && pseudo_fs(p)) {
				free(p);
				continue;
			}
			if (walk_seen(w, &st)) {
				w->skipped++;	/* already searched */
				free(p);
				continue;
			}
			if (nr_sub == cap_sub) {
				size_t cap = cap_sub ? 2 * cap_sub : 8;

				subdirs = xrealloc(subdirs, cap,
						   sizeof(*subdirs));
				subdev = xrealloc(subdev, cap, sizeof(*subdev));
				cap_sub = cap;
			}
			subdirs[nr_sub] = p;
			subdev[nr_sub++] = st.st_dev;
			continue;
		}
		free(p);
	}
	if (errno) {
		if (!w->unreadable)
			w->unreadable_errno = errno;
		walk_note(&w->unreadable, &w->first_unreadable, dir);
		w->err = 1;
	}
	closedir(d);
	if (is_trace)
		walk_add_trace(w, dir);
	/*
	 * Sorted, so that the output does not depend on readdir() order
	 * (each folder's device moves with it: sort an index).
	 */
	if (nr_sub) {
		struct sub { char *path; dev_t dev; } *sv;

		sv = xcalloc(nr_sub, sizeof(*sv));
		for (i = 0; i < nr_sub; i++) {
			sv[i].path = subdirs[i];
			sv[i].dev = subdev[i];
		}
		qsort(sv, nr_sub, sizeof(*sv), name_cmp);
		for (i = 0; i < nr_sub; i++) {
			walk_dir(w, sv[i].path, sv[i].dev, depth + 1);
			free(sv[i].path);
		}
		free(sv);
	}
	free(subdirs);
	free(subdev);
}

/* The one line each about the folders below @path it could not search. */
static void walk_report(struct walk *w, const char *path)
{
	if (w->unreadable == 1)
		fprintf(stderr, "rpcsim-analyze: %s: cannot read directory: %s\n",
			w->first_unreadable, strerror(w->unreadable_errno));
	else if (w->unreadable)
		fprintf(stderr, "rpcsim-analyze: %s: %u directories below it cannot be read (the first, %s: %s)\n",
			path, w->unreadable, w->first_unreadable,
			strerror(w->unreadable_errno));
	if (w->too_deep)
		fprintf(stderr, "rpcsim-analyze: %s: %u directories nested deeper than %d, not searched (the first: %s)\n",
			path, w->too_deep, WALK_DEPTH_MAX, w->first_too_deep);
	free(w->first_unreadable);
	free(w->first_too_deep);
	w->first_unreadable = w->first_too_deep = NULL;
	w->unreadable = w->too_deep = 0;
}

int find_traces(struct analysis *a, char *const *paths, unsigned int n)
{
	struct walk w = { .a = a };
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int before = a->nr_traces;
		const char *fs;
		struct stat st;

		w.skipped = 0;
		if (stat(paths[i], &st)) {
			fprintf(stderr, "rpcsim-analyze: %s: %s\n", paths[i],
				strerror(errno));
			w.err = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "rpcsim-analyze: %s: not a directory (give the trace directory lttng wrote)\n",
				paths[i]);
			w.err = 1;
			continue;
		}
		fs = pseudo_fs(paths[i]);
		if (fs) {
			fprintf(stderr, "rpcsim-analyze: %s: a %s file system holds the kernel's own state, never a trace (give the trace directory lttng wrote)\n",
				paths[i], fs);
			w.err = 1;
			continue;
		}
		if (walk_seen(&w, &st))
			continue;	/* given twice, or inside an earlier one */
		walk_dir(&w, paths[i], st.st_dev, 0);
		walk_report(&w, paths[i]);
		if (a->nr_traces == before && !w.skipped && !w.err) {
			fprintf(stderr, "rpcsim-analyze: %s: no CTF trace found (no directory below it holds a 'metadata' file)\n",
				paths[i]);
			w.err = 1;
		}
	}
	free(w.seen);
	return w.err;
}

/* What a file that should be a regular one is. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * A packetized CTF metadata file is a sequence of packets, each a 37-byte
 * header (magic 0x75d11d57, uuid, checksum, content_size and packet_size
 * in bits, schemes, version) and TSDL text.  babeltrace2 2.0.4 loops
 * forever on a packet whose content runs past the end of the file (its
 * read loop does not stop at EOF), so such a file is refused here first.
 */
#define TSDL_MAGIC		0x75d11d57u
#define TSDL_HEADER_SIZE	37

uint32_t load_u32(const unsigned char *p, bool be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

int check_metadata(const char *dir)
{
	unsigned char h[TSDL_HEADER_SIZE];
	char *path = path_join(dir, "metadata");
	uint64_t off = 0, n = 0;
	struct stat st;
	bool be;
	int fd, ret = 1;

	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "rpcsim-analyze: %s: %s\n", path,
			strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "rpcsim-analyze: %s: %s, not a metadata file "
			"(LTTng writes a regular file)\n", path,
			file_kind(st.st_mode));
		goto out;
	}
	if (pread(fd, h, 4, 0) != 4) {
		ret = 0;	/* too short to be packetized: babeltrace2 says */
		goto out;
	}
	if (load_u32(h, false) == TSDL_MAGIC)
		be = false;
	else if (load_u32(h, true) == TSDL_MAGIC)
		be = true;
	else {
		ret = 0;	/* plain text metadata */
		goto out;
	}
	for (;;) {
		ssize_t got = pread(fd, h, sizeof(h), (off_t)off);
		uint32_t content, packet;

		if (got < 0) {
			fprintf(stderr, "rpcsim-analyze: %s: %s\n", path,
				strerror(errno));
			goto out;
		}
		if (got < (ssize_t)sizeof(h))
			break;		/* the end, or a cut header: reported */
		content = load_u32(h + 24, be) / 8;
		packet = load_u32(h + 28, be) / 8;
		if (content < TSDL_HEADER_SIZE || packet < content)
			break;		/* babeltrace2 reports or stops */
		if (off + content > (uint64_t)st.st_size) {
			fprintf(stderr, "rpcsim-analyze: %s: metadata packet %" PRIu64 " at offset %" PRIu64 " is cut: it holds %" PRIu32 " bytes, the file ends %" PRIu64 " bytes after its start (truncated trace)\n",
				dir, n, off, content,
				(uint64_t)st.st_size - off);
			goto out;
		}
		off += packet;
		n++;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}

uint64_t stream_bytes(const struct analysis *a)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < a->nr_traces; i++) {
		DIR *d = opendir(a->traces[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			struct stat st;
			char *p;

			if (!strcmp(de->d_name, "metadata"))
				continue;
			p = path_join(a->traces[i], de->d_name);
			if (!stat(p, &st) && S_ISREG(st.st_mode))
				sum += (uint64_t)st.st_size;
			free(p);
		}
		closedir(d);
	}
	return sum;
}

/*
 * LTTng's packet index (DIR/index/STREAM.idx): a header (magic, major,
 * minor, entry length) and one entry per packet, big-endian, each
 * starting with the packet's offset in the stream file and its size in
 * bits.  From the last entry, the least size the stream file must have.
 */
#define CTF_INDEX_ENTRY_MIN	16

uint64_t load_be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * 1 and *@need, *@packets when @idx is a readable index, 0 when it is not
 * one (nothing is concluded from it).
 */
static int index_extent(const char *idx, uint64_t *need, uint64_t *packets)
{
	unsigned char h[CTF_INDEX_HEADER_SIZE], e[CTF_INDEX_ENTRY_MIN];
	uint32_t len;
	struct stat st;
	uint64_t n;
	int fd, ret = 0;

	fd = open(idx, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    load_u32(h, true) != CTF_INDEX_MAGIC)
		goto out;
	len = load_u32(h + 12, true);
	if (len < CTF_INDEX_ENTRY_MIN || (uint64_t)st.st_size < sizeof(h))
		goto out;
	n = ((uint64_t)st.st_size - sizeof(h)) / len;
	*packets = n;
	*need = 0;
	if (n) {
		uint64_t off, bits;

		if (pread(fd, e, sizeof(e),
			  (off_t)(sizeof(h) + (n - 1) * len)) !=
		    (ssize_t)sizeof(e))
			goto out;
		off = load_be64(e);
		bits = load_be64(e + 8);
		if (off > UINT64_MAX / 2 || bits / 8 > UINT64_MAX / 2)
			goto out;	/* a damaged index proves nothing */
		*need = off + bits / 8;
	}
	ret = 1;
out:
	close(fd);
	return ret;
}

struct stream_check {
	bool partial;
	unsigned int problems;
	char *first;		/* the first problem, when not @partial */
	size_t len;
};

/* One problem with a stream file: a warning, or the first kept. */
static void stream_problem(struct stream_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void stream_problem(struct stream_check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (c->partial) {
		fputs("rpcsim-analyze: warning: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else if (!c->problems) {
		vsnprintf(c->first, c->len, fmt, ap);
	}
	va_end(ap);
	c->problems++;
}

/*
 * The stream files of one trace directory.  libbabeltrace2 skips an empty
 * stream file, a directory, a FIFO or a link to a device without a word,
 * and the analysis then misses every event of that stream; LTTng's index
 * says how long each stream file must be.  Returns the problems found.
 */
static void check_trace_streams(struct stream_check *c, const char *dir)
{
	char *index = path_join(dir, "index");
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		stream_problem(c, "%s: cannot read the trace directory: %s",
			       dir, strerror(errno));
		free(index);
		return;
	}
	while ((de = readdir(d))) {
		uint64_t need, packets;
		char *p, *idx, *idxname;
		struct stat st;
		int fd;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    !strcmp(de->d_name, "index"))
			continue;
		p = path_join(dir, de->d_name);
		if (stat(p, &st)) {
			stream_problem(c, "%s: stream file missing (%s)", p,
				       strerror(errno));
			free(p);
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			stream_problem(c, "%s: %s, not a stream file", p,
				       file_kind(st.st_mode));
			free(p);
			continue;
		}
		fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			stream_problem(c, "%s: stream file cannot be read "
				       "(%s)", p, strerror(errno));
			free(p);
			continue;
		}
		close(fd);
		idxname = xcalloc(1, strlen(de->d_name) + 5);
		sprintf(idxname, "%s.idx", de->d_name);
		idx = path_join(index, idxname);
		free(idxname);
		if (!st.st_size)
			stream_problem(c, "%s: empty stream file", p);
		else if (index_extent(idx, &need, &packets) &&
			 (uint64_t)st.st_size < need)
			stream_problem(c, "%s: stream file cut: %" PRIu64
				       " bytes, its index (%" PRIu64 " packets) "
				       "says at least %" PRIu64, p,
				       (uint64_t)st.st_size, packets, need);
		free(idx);
		free(p);
	}
	closedir(d);
	/* An index without its stream: the stream file was removed. */
	d = opendir(index);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *stream, *p;
		struct stat st;

		if (de->d_name[0] == '.' || len <= 4 ||
		    strcmp(de->d_name + len - 4, ".idx"))
			continue;
		stream = xstrdup(de->d_name);
		stream[len - 4] = '\0';
		p = path_join(dir, stream);
		if (lstat(p, &st) && errno == ENOENT)
			stream_problem(c, "%s: stream file missing (index/%s "
				       "lists it)", p, de->d_name);
		free(p);
		free(stream);
	}
	if (d)
		closedir(d);
	free(index);
}

unsigned int check_streams(const struct analysis *a, bool partial,
			   char *first, size_t len)
{
	struct stream_check c = {
		.partial = partial, .first = first, .len = len,
	};

	first[0] = '\0';
	for (unsigned int i = 0; i < a->nr_traces; i++)
		check_trace_streams(&c, a->traces[i]);
	return c.problems;
}

/*
 * @path, which libbabeltrace2 opens as a file of @what (blocking): 0 if
 * it is a regular file or not there, else 1 after saying what it is.
 */
static int check_regular(const char *path, const char *what)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	fprintf(stderr, "rpcsim-analyze: %s: %s, not %s (LTTng writes a "
		"regular file)\n", path, file_kind(st.st_mode), what);
	return 1;
}

int check_input_files(const struct analysis *a)
{
	for (unsigned int i = 0; i < a->nr_traces; i++) {
		char *p = path_join(a->traces[i], "metadata");
		char *index = path_join(a->traces[i], "index");
		struct dirent *de;
		int bad = check_regular(p, "a metadata file");
		DIR *d;

		free(p);
		d = bad ? NULL : opendir(index);
		while (d && !bad && (de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len <= 4 || strcmp(de->d_name + len - 4, ".idx"))
				continue;
			p = path_join(index, de->d_name);
			bad = check_regular(p, "an index file");
			free(p);
		}
		if (d)
			closedir(d);
		free(index);
		if (bad)
			return 1;
	}
	return 0;
}
