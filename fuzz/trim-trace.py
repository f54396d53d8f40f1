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


# Where each kind of packet keeps what trim_packets() needs: its magic,
# the bytes its header takes, and the struct format and offset of its
# (content_size, packet_size) pair, both in bits.
METADATA = ("metadata", TSDL_MAGIC, 37, "<II", 24)
STREAM = ("stream", CTF_MAGIC, 64, "<QQ", 48)


def trim_packets(data, layout):
    """Every packet of data cut to its content (whole bytes), its
    packet_size set to the bytes kept."""
    what, magic, header, sizes, at = layout
    one = sizes[:2]
    out = bytearray()
    off = 0
    while off + header <= len(data):
        found, = struct.unpack_from("<I", data, off)
        if found != magic:
            sys.exit("%s: bad packet magic at %d" % (what, off))
        content, packet = struct.unpack_from(sizes, data, off + at)
        size = (content + 7) // 8
        pkt = bytearray(data[off:off + size])
        struct.pack_into(one, pkt, at + struct.calcsize(one), size * 8)
        out += pkt
        off += packet // 8
    return bytes(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(src, "metadata"), "rb") as f:
        meta = trim_packets(f.read(), METADATA)
    stream = b""
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name == "metadata" or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            s = trim_packets(f.read(), STREAM)
        if len(s) > len(stream):
            stream = s
    with open(os.path.join(dst, "metadata"), "wb") as f:
        f.write(meta)
    with open(os.path.join(dst, "stream"), "wb") as f:
        f.write(stream)


if __name__ == "__main__":
    main()
