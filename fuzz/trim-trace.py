#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trim-trace: copy an LTTng-UST CTF trace without its packet padding, so a
trace of a few dozen events is a few KiB (the base of the trace fuzzer).

    trim-trace.py SRC DST

SRC is a trace directory lttng wrote (the one holding "metadata", e.g.
OUT/ust/uid/0/64-bit).  DST gets "metadata" (still packetized: every
packet's packet_size set to its content_size) and one "stream" file: the
largest stream file of SRC (record on one CPU: taskset -c 0), each packet
cut to its content_size.  Only LTTng-UST's 64-bit little-endian layout is handled:

    packet header   magic u32, uuid[16], stream_id u32,
                    stream_instance_id u64                  (32 bytes)
    packet context  timestamp_begin u64, timestamp_end u64,
                    content_size u64, packet_size u64, ...  (bits)
"""
import os
import struct
import sys

TSDL_MAGIC = 0x75D11D57
CTF_MAGIC = 0xC1FC1FC1


def trim_metadata(data):
    out = bytearray()
    off = 0
    while off + 37 <= len(data):
        magic, = struct.unpack_from("<I", data, off)
        if magic != TSDL_MAGIC:
            sys.exit("metadata: bad packet magic at %d" % off)
        content, packet = struct.unpack_from("<II", data, off + 24)
        pkt = bytearray(data[off:off + content // 8])
        struct.pack_into("<I", pkt, 28, content)
        out += pkt
        off += packet // 8
    return bytes(out)


def trim_stream(data):
    out = bytearray()
    off = 0
    while off + 64 <= len(data):
        magic, = struct.unpack_from("<I", data, off)
        if magic != CTF_MAGIC:
            sys.exit("stream: bad packet magic at %d" % off)
        content, packet = struct.unpack_from("<QQ", data, off + 48)
        size = (content + 7) // 8
        pkt = bytearray(data[off:off + size])
        struct.pack_into("<Q", pkt, 56, size * 8)
        out += pkt
        off += packet // 8
    return bytes(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(src, "metadata"), "rb") as f:
        meta = trim_metadata(f.read())
    stream = b""
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name == "metadata" or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            s = trim_stream(f.read())
        if len(s) > len(stream):
            stream = s
    with open(os.path.join(dst, "metadata"), "wb") as f:
        f.write(meta)
    with open(os.path.join(dst, "stream"), "wb") as f:
        f.write(stream)


if __name__ == "__main__":
    main()
