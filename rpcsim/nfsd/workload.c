/* SPDX-License-Identifier: MIT */
/*
 * The request stream and its XDR encoding (see workload.h).  Field layouts
 * follow RFC 5531 (RPC), RFC 1831's record marking and RFC 1813 (NFSv3).
 */
#include <string.h>

#include "workload.h"

#define RPC_CALL		0
#define RPC_REPLY		1
#define RPC_VERSION		2
#define RPC_MSG_ACCEPTED	0
#define RPC_SUCCESS		0
#define RPC_AUTH_NULL		0
#define RPC_AUTH_UNIX		1
#define RPC_LAST_FRAGMENT	0x80000000U
#define NFS_PROGRAM		100003
#define NFS_V3			3
#define NFS3PROC_READ		6
#define NFS3PROC_WRITE		7
#define NFS3_OK			0
#define NFS3_UNSTABLE		0
#define NFS3_FH_SIZE		32
#define NFS3_FATTR_SIZE		84
#define NFS3_WCC_ATTR_SIZE	24

static const char rpc_machinename[] = "rpcsim";

/* splitmix64's finaliser: a bijective 64-bit mix. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void workload_request(const struct workload *w, uint64_t seq,
		      struct nfs_request *req)
{
	uint64_t r1 = mix64(w->seed + (seq + 1) * 0x9e3779b97f4a7c15ULL);
	uint64_t r2 = mix64(r1 + 0x9e3779b97f4a7c15ULL);
	uint64_t total = (uint64_t)w->read_weight + w->write_weight;
	unsigned long span = w->file_pages - w->io_pages + 1;

	req->seq = seq;
	req->xid = (uint32_t)(r2 >> 32);
	req->op = r1 % total < w->read_weight ? NFS_READ : NFS_WRITE;
	req->offset = (r2 % span) * 4096;
	req->count = w->io_size;
}

uint64_t workload_digest(const struct nfs_request *req)
{
	return mix64(req->seq ^ mix64(((uint64_t)req->op << 63) ^
				      req->offset ^
				      ((uint64_t)req->count << 40) ^
				      req->xid));
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
	return p + 4;
}

static unsigned char *put64(unsigned char *p, uint64_t v)
{
	p = put32(p, (uint32_t)(v >> 32));
	return put32(p, (uint32_t)v);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static uint32_t xdr_pad(uint32_t len)
{
	return (len + 3) & ~3U;
}

/* The file handle of the one file served: fixed bytes. */
static unsigned char *put_fh(unsigned char *p)
{
	p = put32(p, NFS3_FH_SIZE);
	for (unsigned int i = 0; i < NFS3_FH_SIZE; i++)
		*p++ = (unsigned char)(0xf0 ^ i);
	return p;
}

size_t nfs3_encode_call(const struct nfs_request *req, unsigned char *buf,
			size_t *record_len)
{
	uint32_t namelen = sizeof(rpc_machinename) - 1;
	unsigned char *p = buf + RPC_FRAGHDR_SIZE;	/* marker last */
	size_t hdr, data = 0;

	p = put32(p, req->xid);
	p = put32(p, RPC_CALL);
	p = put32(p, RPC_VERSION);
	p = put32(p, NFS_PROGRAM);
	p = put32(p, NFS_V3);
	p = put32(p, req->op == NFS_READ ? NFS3PROC_READ : NFS3PROC_WRITE);
	/* AUTH_UNIX: stamp, machine name, uid, gid, no extra gids. */
	p = put32(p, RPC_AUTH_UNIX);
	p = put32(p, 4 + 4 + xdr_pad(namelen) + 4 + 4 + 4);
	p = put32(p, (uint32_t)req->seq);
	p = put32(p, namelen);
	memset(p, 0, xdr_pad(namelen));
	memcpy(p, rpc_machinename, namelen);
	p += xdr_pad(namelen);
	p = put32(p, 0);
	p = put32(p, 0);
	p = put32(p, 0);
	p = put32(p, RPC_AUTH_NULL);
	p = put32(p, 0);
	/* READ3args / WRITE3args */
	p = put_fh(p);
	p = put64(p, req->offset);
	p = put32(p, req->count);
	if (req->op == NFS_WRITE) {
		p = put32(p, NFS3_UNSTABLE);
		p = put32(p, req->count);	/* opaque data<> length */
		data = xdr_pad(req->count);
	}
	hdr = (size_t)(p - buf);
	*record_len = hdr + data;
	put32(buf, RPC_LAST_FRAGMENT |
	      (uint32_t)(*record_len - RPC_FRAGHDR_SIZE));
	return hdr;
}

size_t nfs3_decode_call(const unsigned char *buf, size_t len,
			struct nfs_request *req)
{
	const unsigned char *p = buf, *end = buf + len;
	uint32_t proc, n;

	/* marker, xid, type, rpcvers, prog, vers, proc, cred flavor+len */
	if (len < 9 * 4 || !(get32(p) & RPC_LAST_FRAGMENT))
		return 0;
	req->xid = get32(p + 4);
	if (get32(p + 8) != RPC_CALL || get32(p + 12) != RPC_VERSION ||
	    get32(p + 16) != NFS_PROGRAM || get32(p + 20) != NFS_V3)
		return 0;
	proc = get32(p + 24);
	if (proc != NFS3PROC_READ && proc != NFS3PROC_WRITE)
		return 0;
	req->op = proc == NFS3PROC_READ ? NFS_READ : NFS_WRITE;
	p += 28;
	/* credentials and verifier: skip their bodies */
	for (int i = 0; i < 2; i++) {
		if (end - p < 8)
			return 0;
		n = get32(p + 4);
		if ((size_t)(end - p) < 8 + (size_t)xdr_pad(n))
			return 0;
		p += 8 + xdr_pad(n);
	}
	if (end - p < 4)
		return 0;
	n = get32(p);
	if (n > 64 || (size_t)(end - p) < 4 + (size_t)xdr_pad(n) + 12)
		return 0;
	p += 4 + xdr_pad(n);
	req->offset = get64(p);
	req->count = get32(p + 8);
	p += 12;
	if (req->op == NFS_WRITE) {
		if (end - p < 8 || get32(p + 4) != req->count)
			return 0;
		p += 8;
	}
	return (size_t)(p - buf);
}

/* fattr3 of the served file: a regular file of @size bytes. */
static unsigned char *put_fattr(unsigned char *p, uint64_t size)
{
	unsigned char *start = p;

	p = put32(p, 1);		/* NF3REG */
	p = put32(p, 0644);
	p = put32(p, 1);		/* nlink */
	p = put32(p, 0);		/* uid */
	p = put32(p, 0);		/* gid */
	p = put64(p, size);
	p = put64(p, size);		/* used */
	p = put64(p, 0);		/* rdev */
	p = put64(p, 1);		/* fsid */
	p = put64(p, 1);		/* fileid */
	memset(p, 0, (size_t)(NFS3_FATTR_SIZE - (p - start)));
	return start + NFS3_FATTR_SIZE;
}

size_t nfs3_encode_reply(const struct nfs_request *req, uint64_t file_size,
			 unsigned char *buf)
{
	unsigned char *p = buf + RPC_FRAGHDR_SIZE;
	uint32_t record;

	p = put32(p, req->xid);
	p = put32(p, RPC_REPLY);
	p = put32(p, RPC_MSG_ACCEPTED);
	p = put32(p, RPC_AUTH_NULL);
	p = put32(p, 0);
	p = put32(p, RPC_SUCCESS);
	p = put32(p, NFS3_OK);
	if (req->op == NFS_READ) {
		p = put32(p, 1);	/* post_op_attr follows */
		p = put_fattr(p, file_size);
		p = put32(p, req->count);
		p = put32(p, req->offset + req->count >= file_size);
		p = put32(p, req->count);
		record = (uint32_t)(p - buf) - RPC_FRAGHDR_SIZE +
			 xdr_pad(req->count);
	} else {
		p = put32(p, 1);	/* pre_op_attr: wcc_attr follows */
		memset(p, 0, NFS3_WCC_ATTR_SIZE);
		p += NFS3_WCC_ATTR_SIZE;
		p = put32(p, 1);
		p = put_fattr(p, file_size);
		p = put32(p, req->count);
		p = put32(p, NFS3_UNSTABLE);
		p = put64(p, 0x72706373696dULL);	/* write verifier */
		record = (uint32_t)(p - buf) - RPC_FRAGHDR_SIZE;
	}
	put32(buf, RPC_LAST_FRAGMENT | record);
	return (size_t)(p - buf);
}
