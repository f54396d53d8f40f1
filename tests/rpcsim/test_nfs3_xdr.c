/* SPDX-License-Identifier: MIT */
/*
 * rpcsim's NFSv3 codec (rpcsim/nfsd/workload.c, included whole: a
 * white-box test), byte for byte where rpcsim's runs cannot look: the
 * record a WRITE puts on the wire (its data padded to 4 bytes, RFC 1813's
 * opaque, and the record marker saying so), a call decoded back from its
 * own bytes, a call cut short anywhere refused without a byte read past
 * its end (each cut copied into a buffer of exactly its length, which
 * the ASan tier checks), and the READ reply's eof flag at the file's end.
 * rpcsim's runs decode only whole calls it encoded, and nothing reads a
 * reply's eof.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nfsd/workload.c"

#include "tap.h"

#define FILE_SIZE	(64ULL << 20)

/* The reply word after READ3resok's post_op_attr and count: eof. */
#define REPLY_EOF_OFF	(RPC_FRAGHDR_SIZE + 7 * 4 + 4 + NFS3_FATTR_SIZE + 4)

static const uint32_t counts[] = { 1, 2, 3, 4093, 4096, 65535, 262144 };
#define NR_COUNTS	(sizeof(counts) / sizeof(counts[0]))

static struct nfs_request call(enum nfs_op op, uint32_t count)
{
	return (struct nfs_request){ .seq = 77, .xid = 0x1234abcd, .op = op,
				     .offset = 5 * 4096, .count = count };
}

/* A WRITE's record: header, data, pad to 4; the marker says its length. */
static void test_record(void)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < NR_COUNTS; i++) {
		for (int op = NFS_READ; op <= NFS_WRITE; op++) {
			struct nfs_request r = call((enum nfs_op)op, counts[i]);
			unsigned char buf[NFS3_CALL_HDR_MAX];
			size_t record, hdr = nfs3_encode_call(&r, buf, &record);
			size_t want = hdr;

			if (op == NFS_WRITE)
				want += ((size_t)counts[i] + 3) & ~(size_t)3;
			if (record != want || get32(buf) !=
			    (RPC_LAST_FRAGMENT | (uint32_t)(want - 4))) {
				diag("%s of %u: record %zu, marker %#x; want %zu",
				     op == NFS_READ ? "READ" : "WRITE",
				     counts[i], record, get32(buf), want);
				bad++;
			}
		}
	}
	ok(!bad, "nfs3_encode_call - a WRITE's record is its header and its data padded to 4 bytes, the READ's its header, as the marker says (%u wrong)",
	   bad);
}

/*
 * Each call decodes back from its own header, and from no shorter
 * prefix: each prefix in a buffer of its own length.
 */
static void test_decode(void)
{
	unsigned int wrong = 0, accepted = 0;

	for (unsigned int i = 0; i < NR_COUNTS; i++) {
		for (int op = NFS_READ; op <= NFS_WRITE; op++) {
			struct nfs_request r = call((enum nfs_op)op, counts[i]);
			struct nfs_request d;
			unsigned char buf[NFS3_CALL_HDR_MAX];
			size_t record, hdr = nfs3_encode_call(&r, buf, &record);

			memset(&d, 0, sizeof(d));
			if (nfs3_decode_call(buf, hdr, &d) != hdr ||
			    d.xid != r.xid || d.op != r.op ||
			    d.offset != r.offset || d.count != r.count)
				wrong++;
			for (size_t len = 0; len < hdr; len++) {
				unsigned char *cut = malloc(len ? len : 1);

				if (!cut)
					bail_out("out of memory");
				memcpy(cut, buf, len);
				if (nfs3_decode_call(cut, len, &d)) {
					if (!accepted)
						diag("%s of %u: %zu of its %zu header bytes decoded",
						     op == NFS_READ ? "READ" :
						     "WRITE", counts[i], len,
						     hdr);
					accepted++;
				}
				free(cut);
			}
		}
	}
	ok(!wrong, "nfs3_decode_call - each call decoded from its header: its xid, op, offset and count (%u wrong)",
	   wrong);
	ok(!accepted, "nfs3_decode_call - a header cut short anywhere is refused (%u cuts accepted)",
	   accepted);
}

/* eof: the READ reaches the end of the file, not only past it. */
static void test_reply_eof(void)
{
	static const struct {
		uint64_t offset;
		uint32_t want;
	} cases[] = {
		{ 0, 0 },
		{ FILE_SIZE - 262144 - 4096, 0 },
		{ FILE_SIZE - 262144, 1 },
	};
	unsigned int bad = 0;

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nfs_request r = call(NFS_READ, 262144);
		unsigned char buf[NFS3_REPLY_HDR_MAX];
		size_t len;

		r.offset = cases[i].offset;
		len = nfs3_encode_reply(&r, FILE_SIZE, buf);
		if (len != REPLY_EOF_OFF + 8 ||
		    get32(buf + REPLY_EOF_OFF) != cases[i].want ||
		    get32(buf + REPLY_EOF_OFF - 4) != r.count) {
			diag("READ at %llu: eof %u, want %u",
			     (unsigned long long)r.offset,
			     get32(buf + REPLY_EOF_OFF), cases[i].want);
			bad++;
		}
	}
	ok(!bad, "nfs3_encode_reply - a READ's eof is set when it reaches the file's last byte, clear before (%u wrong)",
	   bad);
}

int main(void)
{
	plan_tests(4);
	test_record();
	test_decode();
	test_reply_eof();
	return exit_status();
}
