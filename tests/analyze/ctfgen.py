#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctfgen: write a small CTF 1.8 trace with rpcsim's event schema, from a
script on stdin, so that rpcsim-analyze can be tested on exact timestamps
without LTTng.

    ctfgen.py [--no-vtid] [--vpid] [--old] [--index] [--seq] [--instance]
              [--uuid=UUID] [--hostname=NAME] OUTDIR < script

The events and fields are those of tracepoints/trace_schema.h, read from
it, with its enumerations as CTF enumerations (as LTTng writes them);
--old writes the schema of the first version instead, frozen below:
plain integers, run_start without pid, backend and bulk_variant.
--vpid adds a vpid context after vtid (set per event with vpid=N,
default 1).  --instance gives the packet header a stream_instance_id, as
LTTng writes it (each stream file's: "stream N instance=I", default N);
--uuid declares the trace's UUID, as LTTng does; --hostname gives the
trace an environment with that hostname, as LTTng's (libbabeltrace2
names the trace after it).

Script lines (# starts a comment):

    TS EVENT [FIELD=VALUE]...   an event at TS ns; EVENT is run_start,
                                run_end, entry, exit, err, request,
                                recv_short (rpcsim:svc_tcp_recv_short) or
                                alloc_bulk (pagepool:mm_page_alloc_bulk),
                                pp_hold, pp_put, pp_destroy or pp_slow
                                (page_pool:page_pool_state_hold,
                                _state_release, _release, _alloc_slow);
                                vtid=N sets the thread (default 1); an
                                enumeration's VALUE is its number or label
    packet [discarded=N] [seq=S]  start a new packet; N is the tracer's
                                cumulative count of discarded events, S
                                its sequence number (with --seq; default
                                one more than the last)
    stream N [instance=I] [class=C]  what follows goes to stream file
                                stream_N (default 0), as LTTng writes
                                one per CPU: its packets and counts are
                                its own; I its stream instance id
                                (--instance); C its stream class
                                (default 0), as LTTng writes one per
                                channel, each declaring every event

Missing fields are 0 ("" for strings).  OUTDIR/metadata and
OUTDIR/stream_0 (and each other stream_N used) are written, and with
--index OUTDIR/index/stream_N.idx,
LTTng's packet index (big-endian: magic 0xC1F1DCC1, version 1.1, entry
length, then per packet its offset, packet and content size in bits,
begin and end timestamps, events discarded, stream id, stream instance
id and sequence number).
"""
import os
import re
import struct
import sys

# The first version's schema (--old): a fixture of the integer encoding.
OLD_EVENTS = [
    # (script name, CTF name, [(field, type)]); type: u32, u64, str
    ("run_start", "rpcsim:run_start", [
        ("mode_name", "str"), ("mode", "u32"), ("run", "u32"),
        ("threads", "u32"), ("slots", "u32"), ("io_size", "u64"),
        ("max_payload", "u64"), ("pool_pages", "u64"),
        ("file_pages", "u64"), ("pcp_batch", "u32"), ("pcp_high", "u32"),
        ("completion", "str"), ("read_weight", "u32"),
        ("write_weight", "u32"), ("seed", "u64"), ("version", "str")]),
    ("run_end", "rpcsim:run_end", [
        ("mode", "u32"), ("run", "u32"), ("calls", "u64"), ("pages", "u64"),
        ("latency_sum_ns", "u64"), ("requests", "u64"),
        ("no_progress", "u64")]),
    ("entry", "rpcsim:svc_alloc_arg_entry", [
        ("slots", "u32"), ("holes", "u32"), ("mode", "u32")]),
    ("exit", "rpcsim:svc_alloc_arg_exit", [
        ("allocated", "u32"), ("alloc_calls", "u32"), ("retries", "u32"),
        ("latency_ns", "u64")]),
    ("err", "rpcsim:svc_alloc_arg_err", [
        ("requested", "u32"), ("allocated", "u32")]),
    ("request", "rpcsim:request", [
        ("op", "u32"), ("bytes", "u64"), ("request_pages", "u32")]),
    ("alloc_bulk", "pagepool:mm_page_alloc_bulk", [
        ("requested", "u64"), ("populated", "u64"), ("allocated", "u64"),
        ("variant", "u32"), ("fallback", "u32")]),
]

TYPES = {"u32": "uint32_t", "u64": "uint64_t", "s32": "int32_t",
         "str": "string"}

# script name -> event name in the schema
ALIASES = {"entry": "svc_alloc_arg_entry", "exit": "svc_alloc_arg_exit",
           "err": "svc_alloc_arg_err", "recv_short": "svc_tcp_recv_short",
           "alloc_bulk": "mm_page_alloc_bulk",
           "pp_hold": "page_pool_state_hold",
           "pp_put": "page_pool_state_release",
           "pp_destroy": "page_pool_release",
           "pp_slow": "page_pool_alloc_slow"}

CTYPES = {"unsigned int": "u32", "int": "s32", "uint64_t": "u64",
          "uint32_t": "u32", "int32_t": "s32", "uintptr_t": "u64",
          "unsigned long": "u64", "const char *": "str"}

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "tracepoints", "trace_schema.h")


def read_schema(path):
    """EVENTS and ENUMS from trace_schema.h: the macros' rows."""
    text = open(path).read().replace("\\\n", " ")
    enums, lists = {}, {}
    for name, body in re.findall(r"#define TRACE_ENUM_(\w+)\(V\)(.*)", text):
        enums[name] = [(lab, int(v)) for lab, v in
                       re.findall(r'V\("([^"]*)",\s*(\d+)\)', body)]
    for name, body in re.findall(r"#define (TRACE_FIELDS_\w+)\(F\)(.*)",
                                 text):
        rows = re.findall(r"F\((\w+),\s*([^,]+?),\s*(\w+),", body)
        lists[name] = [(f, CTYPES[c.strip()], t[5:] if
                        t.startswith("ENUM_") else None)
                       for t, c, f in rows]
    body = re.search(r"#define TRACE_EVENTS\(E\)(.*)", text).group(1)
    events = []
    for prov, ev, fl in re.findall(r"E\((\w+),\s*(\w+),\s*(\w+)\)", body):
        script = [k for k, v in ALIASES.items() if v == ev]
        events.append((script[0] if script else ev, "%s:%s" % (prov, ev),
                       lists[fl]))
    if not events:
        sys.exit("ctfgen: no event found in " + path)
    return events, enums


def ctf_type(t, enum, enums):
    if enum is None:
        return TYPES[t]
    labels = ", ".join('"%s" = %d' % (lab, v) for lab, v in enums[enum])
    return "enum : %s { %s }" % (TYPES[t], labels)


def value_of(v, enum, enums):
    if v is None:
        return 0
    if enum is not None and not re.match(r"^-?\d+$", v):
        for lab, n in enums[enum]:
            if lab == v:
                return n
        sys.exit("ctfgen: %s is not a label of enum %s" % (v, enum))
    return int(v)


def metadata(events, enums, vtid, vpid, seq, instance, uuid, hostname,
             classes):
    m = ["/* CTF 1.8 */",
         "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;",
         "typealias integer { size = 32; align = 8; signed = true; } := int32_t;",
         "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;"]
    if hostname is not None:
        m.append('env { hostname = "%s"; };' % hostname)
    m += ["trace {",
         "  major = 1; minor = 8; byte_order = le;" +
         (' uuid = "%s";' % uuid if uuid else ""),
         "  packet.header := struct { uint32_t magic; uint32_t stream_id;%s };"
         % (" uint64_t stream_instance_id;" if instance is not None else ""),
         "};",
         "clock { name = \"monotonic\";"
         " uuid = \"6d0d1a5a-2b46-4c43-8c5a-9d8e4f0b1c2d\";"
         " freq = 1000000000; offset = 0; };",
         "typealias integer { size = 64; align = 8; signed = false;"
         " map = clock.monotonic.value; } := uint64_clock_t;"]
    ctx = (["int32_t _vtid;"] if vtid else []) + \
        (["int32_t _vpid;"] if vpid else [])
    for sc in classes:
        m += ["stream {",
              "  id = %d;" % sc,
              "  event.header := struct { uint32_t id; uint64_clock_t timestamp; };",
              "  packet.context := struct { uint64_clock_t timestamp_begin;"
              " uint64_clock_t timestamp_end; uint64_t content_size;"
              " uint64_t packet_size; uint64_t events_discarded;%s };"
              % (" uint64_t packet_seq_num;" if seq else "")]
        if ctx:
            m.append("  event.context := struct { %s };" % " ".join(ctx))
        m.append("};")
    for sc in classes:
        for i, (_, name, fields) in enumerate(events):
            # "_" + name, as LTTng writes them: readers strip it, and it
            # keeps "variant" from being the TSDL keyword
            decl = " ".join("%s _%s;" % (ctf_type(t, en, enums), f)
                            for f, t, en in fields)
            m.append("event { name = \"%s\"; id = %d; stream_id = %d;"
                     " fields := struct { %s }; };" % (name, i, sc, decl))
    return "\n".join(m) + "\n"


def encode(ev_id, ts, fields, values, vtid, vpid, enums):
    out = struct.pack("<IQ", ev_id, ts)
    for ctx, on in (("vtid", vtid), ("vpid", vpid)):
        if on:
            out += struct.pack("<i", int(values.pop(ctx, 1)))
        else:
            values.pop(ctx, None)
    for f, t, en in fields:
        v = values.pop(f, None)
        if t == "str":
            out += (v or "").encode() + b"\0"
        else:
            fmt = {"u32": "<I", "s32": "<i", "u64": "<Q"}[t]
            out += struct.pack(fmt, value_of(v, en, enums))
    if values:
        sys.exit("ctfgen: unknown fields %s" % ", ".join(values))
    return out


def packet(events, discarded, seqnum, instance, sc):
    body = b"".join(e for _, e in events)
    ts0 = events[0][0] if events else 0
    ts1 = events[-1][0] if events else 0
    ctx = 40 if seqnum is None else 48
    hdr = 8 if instance is None else 16
    size = (hdr + ctx + len(body)) * 8
    out = (struct.pack("<II", 0xC1FC1FC1, sc) +
           (b"" if instance is None else struct.pack("<Q", instance)) +
           struct.pack("<QQQQQ", ts0, ts1, size, size, discarded))
    if seqnum is not None:
        out += struct.pack("<Q", seqnum)
    return out + body


def index(packets, instance, sc):
    out = struct.pack(">IIII", 0xC1F1DCC1, 1, 1, 72)
    off = 0
    for seq, p in enumerate(packets):
        ts0, ts1, size, _, discarded = struct.unpack_from(
            "<QQQQQ", p, 8 if instance is None else 16)
        out += struct.pack(">QQQQQQQQQ", off, size, size, ts0, ts1,
                           discarded, sc, instance or 0, seq)
        off += len(p)
    return out


def main():
    args = sys.argv[1:]
    vtid = True
    vpid = False
    old = False
    want_index = False
    seq = False
    instance = False
    uuid = None
    hostname = None
    while args and (args[0] in ("--no-vtid", "--vpid", "--old", "--index",
                                "--seq", "--instance") or
                    args[0].startswith("--uuid=") or
                    args[0].startswith("--hostname=")):
        if args[0].startswith("--uuid="):
            uuid = args[0][7:]
        elif args[0].startswith("--hostname="):
            hostname = args[0][11:]
        elif args[0] == "--instance":
            instance = True
        elif args[0] == "--no-vtid":
            vtid = False
        elif args[0] == "--vpid":
            vpid = True
        elif args[0] == "--old":
            old = True
        elif args[0] == "--index":
            want_index = True
        else:
            seq = True
        args = args[1:]
    if len(args) != 1:
        sys.exit("usage: ctfgen.py [--no-vtid] [--vpid] [--old] [--index]"
                 " [--seq] [--instance] [--uuid=UUID] [--hostname=NAME]"
                 " OUTDIR < script")
    out = args[0]
    if old:
        events = [(n, c, [(f, t, None) for f, t in fl])
                  for n, c, fl in OLD_EVENTS]
        enums = {}
    else:
        events, enums = read_schema(SCHEMA)
    by_name = {n: (i, f) for i, (n, _, f) in enumerate(events)}
    # per stream file: [packets, current packet, discarded, seqnum,
    # instance id, stream class]
    streams = {0: [[], [], 0, 0 if seq else None, 0 if instance else None,
                   0]}
    st = streams[0]
    for line in sys.stdin:
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "stream":
            n = int(words[1])
            st = streams.setdefault(n, [[], [], 0, 0 if seq else None,
                                        n if instance else None, 0])
            for w in words[2:]:
                k, v = w.split("=", 1)
                if k == "instance" and instance:
                    st[4] = int(v)
                elif k == "class":
                    st[5] = int(v)
                else:
                    sys.exit("ctfgen: unknown stream field " + k)
            continue
        if words[0] == "packet":
            st[0].append(packet(st[1], st[2], st[3], st[4], st[5]))
            st[1] = []
            if seq:
                st[3] += 1
            for w in words[1:]:
                k, v = w.split("=", 1)
                if k == "discarded":
                    st[2] = int(v)
                elif k == "seq" and seq:
                    st[3] = int(v)
                else:
                    sys.exit("ctfgen: unknown packet field " + k)
            continue
        ts, name = int(words[0]), words[1]
        values = dict(w.split("=", 1) for w in words[2:])
        ev_id, fields = by_name[name]
        st[1].append((ts, encode(ev_id, ts, fields, values, vtid, vpid,
                                 enums)))
    with open(out + "/metadata", "w") as f:
        f.write(metadata(events, enums, vtid, vpid, seq,
                         0 if instance else None, uuid, hostname,
                         sorted(set(st[5] for st in streams.values()))))
    for n, st in sorted(streams.items()):
        packets = st[0] + [packet(st[1], st[2], st[3], st[4], st[5])]
        with open(out + "/stream_%d" % n, "wb") as f:
            for p in packets:
                f.write(p)
        if want_index:
            os.makedirs(out + "/index", exist_ok=True)
            with open(out + "/index/stream_%d.idx" % n, "wb") as f:
                f.write(index(packets, st[4], st[5]))

if __name__ == "__main__":
    main()
