/* SPDX-License-Identifier: MIT */
/*
 * The request stream: a seeded, counter-based generator of NFSv3 READ and
 * WRITE calls, and their XDR encoding as they arrive over TCP (record
 * marker, RPC call header with AUTH_UNIX credentials, NFSv3 arguments,
 * WRITE data) and the reply headers the server sends back.
 *
 * Request number @seq of a run depends only on the seed and @seq, so the
 * same seed yields the same requests whichever thread serves them.
 */
#ifndef RPCSIM_WORKLOAD_H
#define RPCSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

enum nfs_op {
	NFS_READ,
	NFS_WRITE,
};

struct nfs_request {
	uint64_t seq;
	uint32_t xid;
	enum nfs_op op;
	uint64_t offset;	/* bytes into the file, page aligned */
	uint32_t count;		/* bytes to read or write */
};

struct workload {
	uint64_t seed;
	unsigned int read_weight, write_weight;
	uint32_t io_size;
	unsigned long file_pages;	/* the file served */
	unsigned long io_pages;		/* pages one request spans */
};

/* The record marker before each record (the kernel's rpc_fraghdr). */
#define RPC_FRAGHDR_SIZE	4

/* Longest call header (WRITE) and reply head (WRITE), marker included. */
#define NFS3_CALL_HDR_MAX	128
#define NFS3_REPLY_HDR_MAX	164

void workload_request(const struct workload *w, uint64_t seq,
		      struct nfs_request *req);
/* Order-independent digest term: the digest of a run is their sum. */
uint64_t workload_digest(const struct nfs_request *req);

/*
 * XDR-encode the call header of @req into @buf (NFS3_CALL_HDR_MAX bytes):
 * everything up to, not including, the WRITE data.  *@record_len is set to
 * the whole record on the wire: header, data and XDR padding.
 */
size_t nfs3_encode_call(const struct nfs_request *req, unsigned char *buf,
			size_t *record_len);
/*
 * Decode a call header from the first @len bytes of a received record.
 * Return: the header length (where WRITE data starts), or 0 when the bytes
 * are not an NFSv3 READ or WRITE call.
 */
size_t nfs3_decode_call(const unsigned char *buf, size_t len,
			struct nfs_request *req);
/* XDR-encode the reply head (everything before READ data) into @buf. */
size_t nfs3_encode_reply(const struct nfs_request *req, uint64_t file_size,
			 unsigned char *buf);

#endif /* RPCSIM_WORKLOAD_H */
