#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rpcsim-analyze on hand-made CTF traces (tests/analyze/ctfgen.py) that are
# incomplete or corrupted: a run without its run_end; a stream file
# emptied, cut, gone, unreadable, or a directory, a FIFO or /dev/zero in
# its place; an index file that is no regular file; loss counters that go
# backwards or jump, and lttng-ust's readings of 0 between counts.  Each
# refused with exit 1 and one line saying what is missing or wrong, or,
# with --partial where it applies, read as far as it goes, with a warning.
# Needs python3, not LTTng.

# shellcheck source=tests/analyze/ctf_common.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/analyze/ctf_common.sh"
plan_no_plan
tap_tmpdir test-analyze-ctf-damaged

###########################################################################
# incomplete traces: exit 1 and what is missing, unless --partial
trace noend <<'EOF'
1000 run_start mode=1 run=1
1100 entry vtid=5 mode=1
1200 exit vtid=5 latency_ns=40
1300 run_end mode=1 run=1 calls=1 latency_sum_ns=40
2000 run_start mode=2 run=1
2100 entry vtid=5 mode=2
2400 exit vtid=5 latency_ns=240
EOF
incomplete noend "Bulk array run 1 started (run_start) but never ended (no run_end)"
ok $? "a mode announced (run_start) and never finished: incomplete, exit 1"
t_opts=--partial
analyze_again noend
t_opts=
sh -c "[ \$(cat '$tmpdir/noend.rc') = 0 ] && grep -q '^Bulk array: ' '$tmpdir/noend.out' && grep -q 'warning: Bulk array: no run_end' '$tmpdir/noend.err'"
ok $? "  with --partial: exit 0, reported, warned"
trace discarded_end <<'EOF'
2000 run_start mode=2 run=1
2100 entry vtid=5 mode=2
packet discarded=3
2400 exit vtid=5 latency_ns=240
EOF
rc_is discarded_end 0
ok $? "  no run_end but a discard recorded: a warning, exit 0"

# Stream files libbabeltrace2 skips without a word: the report would
# miss every event in them.  A whole trace, with LTTng's index.
whole()
{
	rm -rf "${tmpdir:?}/$1"
	mkdir -p "$tmpdir/$1/trace"
	python3 "$CTFGEN" --index "$tmpdir/$1/trace" <<'EOF'
1000 run_start mode=2 run=1
2000 entry vtid=1 mode=2
3000 exit vtid=1 latency_ns=900
packet
4000 entry vtid=1 mode=2
5000 exit vtid=1 latency_ns=900
6000 run_end mode=2 run=1 calls=2 latency_sum_ns=1800
EOF
}
whole good
analyze_again good
rc_is good 0
ok $? "a whole trace with its index: exit 0"
whole empty_stream
: >"$tmpdir/empty_stream/trace/stream_0"
analyze_again empty_stream
incomplete empty_stream "empty_stream/trace/stream_0: empty stream file"
ok $? "a stream file emptied: incomplete, names it"
whole dir_stream
rm "$tmpdir/dir_stream/trace/stream_0"
mkdir "$tmpdir/dir_stream/trace/stream_0"
analyze_again dir_stream
incomplete dir_stream "dir_stream/trace/stream_0: a directory, not a stream file"
ok $? "a stream file replaced by a directory: incomplete"
whole fifo_stream
rm "$tmpdir/fifo_stream/trace/stream_0"
mkfifo "$tmpdir/fifo_stream/trace/stream_0"
analyze_again fifo_stream
incomplete fifo_stream "fifo_stream/trace/stream_0: a FIFO, not a stream file"
ok $? "a stream file replaced by a FIFO: incomplete, no hang"
whole zero_stream
ln -sf /dev/zero "$tmpdir/zero_stream/trace/stream_0"
analyze_again zero_stream
incomplete zero_stream "zero_stream/trace/stream_0: a device, not a stream file"
ok $? "a stream file replaced by a link to /dev/zero: incomplete"
# An index or metadata file that is not a regular file: libbabeltrace2
# opens and reads it blocking (a FIFO stopped it until the indexing
# watchdog called the trace corrupted), --partial or not.  Refused at
# once, one line naming it.
# refused NAME LINE: exit 1 both ways, nothing out, the one line LINE
refused()
{
	rc_is "$1" 1 && [ ! -s "$tmpdir/$1.out" ] && [ ! -s "$tmpdir/$1.json" ] &&
		[ "$(cat "$tmpdir/$1.err")" = "$2" ] || {
		diag "exit $(cat "$tmpdir/$1.rc"): $(cat "$tmpdir/$1.err")"
		return 1
	}
}
for opts in "" "--partial" "--partial --jobs=2"; do
	t_opts=$opts
	whole fifo_index
	rm "$tmpdir/fifo_index/trace/index/stream_0.idx"
	mkfifo "$tmpdir/fifo_index/trace/index/stream_0.idx"
	analyze_again fifo_index
	refused fifo_index "rpcsim-analyze: $tmpdir/fifo_index/trace/index/stream_0.idx: a FIFO, not an index file (LTTng writes a regular file)"
	ok $? "an index file replaced by a FIFO${opts:+ ($opts)}: refused at once, naming it, exit 1"
done
whole dir_index
rm "$tmpdir/dir_index/trace/index/stream_0.idx"
mkdir "$tmpdir/dir_index/trace/index/stream_0.idx"
analyze_again dir_index
refused dir_index "rpcsim-analyze: $tmpdir/dir_index/trace/index/stream_0.idx: a directory, not an index file (LTTng writes a regular file)"
ok $? "an index file replaced by a directory: refused, exit 1"
whole zero_index
ln -sf /dev/zero "$tmpdir/zero_index/trace/index/stream_0.idx"
t_opts=--jobs=2
analyze_again zero_index
t_opts=
refused zero_index "rpcsim-analyze: $tmpdir/zero_index/trace/index/stream_0.idx: a device, not an index file (LTTng writes a regular file)"
ok $? "an index file replaced by a link to /dev/zero (--jobs=2): refused, exit 1"
whole cut_stream
truncate -s 100 "$tmpdir/cut_stream/trace/stream_0"
analyze_again cut_stream
incomplete cut_stream "cut_stream/trace/stream_0: stream file cut: 100 bytes, its index (2 packets) says at least"
ok $? "a stream file shorter than its index says: incomplete"
# --partial reads a stream cut in the middle of a packet (a trace copied
# while written, a full disk) up to its last whole packet, and says how
# much it dropped; it refused the whole trace ("Failed to index CTF stream
# file").  With its index, without it (the packets walked), by --jobs.
mkdir "$tmpdir/cuttmp"
for how in index noindex jobs; do
	whole "cut_$how"
	truncate -s 250 "$tmpdir/cut_$how/trace/stream_0"
	[ $how = noindex ] && rm -r "$tmpdir/cut_$how/trace/index"
	t_opts=--partial
	[ $how = jobs ] && t_opts="--partial --jobs=2"
	TMPDIR=$tmpdir/cuttmp analyze_again "cut_$how"
	t_opts=
	# the first packet's size, from the index (the schema's sizes make it)
	first=$(packet_sizes "$tmpdir/cut_index/trace/index/stream_0.idx" |
		head -n 1)
	rc_is "cut_$how" 0 &&
		grep -qxF "rpcsim-analyze: warning: $tmpdir/cut_$how/trace/stream_0: cut in the middle of a packet: read up to its last whole packet (1 packet, $first bytes), the $((250 - first)) bytes after it dropped" "$tmpdir/cut_$how.err" &&
		j "cut_$how" 'mode(2)["calls"] == 1 and mode(2)["latency_ns"]["sum_ns"] == 900' &&
		[ -z "$(ls -A "$tmpdir/cuttmp")" ]
	ok $? "--partial, a stream file cut in its second packet ($how): its first packet read, the cut said, exit 0" ||
		diag "exit $(cat "$tmpdir/cut_$how.rc"): $(cat "$tmpdir/cut_$how.err")" \
			"left: $(ls -A "$tmpdir/cuttmp")"
done
analyze_again cut_noindex
rc_is cut_noindex 1 && [ ! -s "$tmpdir/cut_noindex.out" ]
ok $? "a stream file cut in its second packet, without --partial: refused, exit 1"
whole gone_stream
rm "$tmpdir/gone_stream/trace/stream_0"
analyze_again gone_stream
incomplete gone_stream "gone_stream/trace/stream_0: stream file missing (index/stream_0.idx lists it)"
ok $? "a stream file the index lists, gone: incomplete"
whole unread_stream
chmod 000 "$tmpdir/unread_stream/trace/stream_0"
if [ "$(id -u)" -ne 0 ]; then
	analyze_again unread_stream
	incomplete unread_stream "unread_stream/trace/stream_0: stream file cannot be read"
	ok $? "an unreadable stream file: incomplete"
elif command -v runuser >/dev/null 2>&1 &&
     runuser -u nobody -- test -x "$ANALYZE" 2>/dev/null; then
	chmod 755 "$tmpdir"
	chmod -R a+rX "$tmpdir/unread_stream"
	chmod 000 "$tmpdir/unread_stream/trace/stream_0"
	runuser -u nobody -- timeout 30 "$ANALYZE" "$tmpdir/unread_stream" \
		>"$tmpdir/unread_stream.out" 2>"$tmpdir/unread_stream.err"
	echo $? >"$tmpdir/unread_stream.rc"
	runuser -u nobody -- timeout 30 "$ANALYZE" --json "$tmpdir/unread_stream" \
		>"$tmpdir/unread_stream.json" 2>/dev/null
	echo $? >"$tmpdir/unread_stream.jrc"
	incomplete unread_stream "unread_stream/trace/stream_0: stream file cannot be read (Permission denied)"
	ok $? "an unreadable stream file (as nobody): incomplete"
else
	skip 1 "an unreadable stream file: root reads everything, and nobody cannot run $ANALYZE"
fi
# A second stream, emptied: --partial reads the first.
whole two_streams
: >"$tmpdir/two_streams/trace/stream_1"
analyze_again two_streams
incomplete two_streams "two_streams/trace/stream_1: empty stream file"
ok $? "one of two stream files emptied: incomplete"
t_opts=--partial
analyze_again two_streams
t_opts=
sh -c "[ \$(cat '$tmpdir/two_streams.rc') = 0 ] && grep -q 'warning: .*stream_1: empty stream file' '$tmpdir/two_streams.err' && grep -q '^Bulk array: .* over 2 calls' '$tmpdir/two_streams.out'"
ok $? "  --partial: a warning, the other stream reported, exit 0"

###########################################################################
# loss counters that go backwards or jump: corruption, not losses
# corrupted NAME WORDS: refused (refused_as), the one line saying
# stream_0 is corrupted and naming WORDS
corrupted()
{
	refused_as "$1" 'corrupted trace: .*stream_0: ' "$2"
}
# packets NAME [--seq] PACKET...: trace NAME, one array run with a call
# across each packet boundary "packet PACKET" (discarded=N; seq=N, with
# --seq), from 2000 ns on, 2000 ns apart.
packets()
{
	p_name=$1
	shift
	p_seq=
	if [ "$1" = --seq ]; then
		p_seq=--seq
		shift
	fi
	p_n=0
	{
		echo "1000 run_start mode=2 run=1"
		for p_packet in "$@"; do
			p_n=$((p_n + 1))
			echo "$((p_n * 2000)) entry vtid=1 mode=2"
			echo "packet $p_packet"
			echo "$((p_n * 2000 + 1000)) exit vtid=1 latency_ns=900"
		done
		echo "6000 run_end mode=2 run=1 calls=$p_n latency_sum_ns=$((p_n * 900))"
	} >"$tmpdir/$p_name.script"
	# shellcheck disable=SC2086 # $p_seq: none or one word
	trace "$p_name" $p_seq <"$tmpdir/$p_name.script"
}
packets back_events discarded=10 discarded=5
corrupted back_events "its count of discarded events (events_discarded) went backwards"
ok $? "events_discarded going backwards (10, then 5): corrupted, exit 1"
packets jump_events discarded=72057594037927936
corrupted jump_events "jumped by 72,057,594,037,927,936"
ok $? "events_discarded with a flipped high byte (2^56): corrupted, exit 1"
packets back_seq --seq seq=7 seq=2
corrupted back_seq "its packet sequence number (packet_seq_num) went backwards"
ok $? "packet_seq_num going backwards (7, then 2): corrupted, exit 1"
packets jump_seq --seq seq=72057594037927937
corrupted jump_seq "packet sequence number (packet_seq_num) jumped by"
ok $? "packet_seq_num with a flipped high byte: corrupted, exit 1"
packets lost_seq --seq seq=5
sh -c "[ \$(cat '$tmpdir/lost_seq.rc') = 0 ] && grep -q 'warning: 4 packets were lost' '$tmpdir/lost_seq.err'"
ok $? "packets really lost (sequence 0, then 5): 4 packets, a warning, exit 0"
# lttng-ust 2.13 writes packets whose events_discarded reads 0 between
# packets that count (a real trace under heavy discard): libbabeltrace2
# reports that 0 as the counter going back, then the next packet's whole
# count as lost.  Lost: what the counter gained over the most it read.
# readings NAME N...: packets with these events_discarded, a call in each
readings()
{
	r_name=$1
	shift
	r_t=1000
	{
		echo "1000 run_start mode=2 run=1"
		for r_n in "$@"; do
			echo "$((r_t + 100)) entry vtid=1 mode=2"
			echo "$((r_t + 1100)) exit vtid=1 latency_ns=900"
			echo "packet discarded=$r_n"
			r_t=$((r_t + 2000))
		done
		echo "$r_t run_end mode=2 run=1 calls=$# latency_sum_ns=$(($# * 900))"
	} >"$tmpdir/$r_name.script"
	trace "$r_name" <"$tmpdir/$r_name.script"
}
readings zero_reading 5 0 9
rc_is zero_reading 0 && j zero_reading 'd["discarded_events"] == 9 and d["discarded_events_records"] == 2' &&
	err_has zero_reading 'warning: the tracer discarded 9 events (2 discard records)' &&
	err_lacks zero_reading corrupted
ok $? "events_discarded reading 0 between 5 and 9 (lttng-ust's): 9 events lost, exit 0"
readings zero_again 5 0 5 0 12
rc_is zero_again 0 && j zero_again 'd["discarded_events"] == 12 and d["discarded_events_records"] == 2'
ok $? "events_discarded 5, 0, 5, 0, 12: 12 events lost in 2 gaps, exit 0"
readings zero_back 10 0 5
corrupted zero_back "its count of discarded events (events_discarded) went backwards"
ok $? "events_discarded 10, 0, then 5: corrupted, exit 1"

exit_status
