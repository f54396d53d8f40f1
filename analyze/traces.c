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
		void *p = realloc(w->seen, cap * sizeof(*w->seen));

		if (!p) {
			fprintf(stderr, "rpcsim-analyze: out of memory\n");
			exit(1);
		}
		w->seen = p;
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
		char **p = realloc(a->traces, cap * sizeof(*p));

		if (!p) {
			fprintf(stderr, "rpcsim-analyze: out of memory\n");
			exit(1);
		}
		a->traces = p;
		w->cap_traces = cap;
	}
	a->traces[a->nr_traces++] = xstrdup(dir);
}

static char *path_join(const char *dir, const char *name)
{
	size_t ld = strlen(dir), ln = strlen(name);
	char *p = malloc(ld + ln + 2);

	if (!p) {
		fprintf(stderr, "rpcsim-analyze: out of memory\n");
		exit(1);
	}
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
				char **q = realloc(subdirs, cap * sizeof(*q));
				dev_t *v = q ? realloc(subdev, cap * sizeof(*v)) :
					       NULL;

				if (!q || !v) {
					fprintf(stderr, "rpcsim-analyze: out of memory\n");
					exit(1);
				}
				subdirs = q;
				subdev = v;
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

		sv = malloc(nr_sub * sizeof(*sv));
		if (!sv) {
			fprintf(stderr, "rpcsim-analyze: out of memory\n");
			exit(1);
		}
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

/*
 * A packetized CTF metadata file is a sequence of packets, each a 37-byte
 * header (magic 0x75d11d57, uuid, checksum, content_size and packet_size
 * in bits, schemes, version) and TSDL text.  babeltrace2 2.0.4 loops
 * forever on a packet whose content runs past the end of the file (its
 * read loop does not stop at EOF), so such a file is refused here first.
 */
#define TSDL_MAGIC		0x75d11d57u
#define TSDL_HEADER_SIZE	37

static uint32_t load_u32(const unsigned char *p, bool be)
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

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "rpcsim-analyze: %s: %s\n", path,
			strerror(errno));
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
