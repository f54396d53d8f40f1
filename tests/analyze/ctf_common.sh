# SPDX-License-Identifier: MIT
#
# The opening of the tests of rpcsim-analyze on small hand-made traces
# (test_ctf_results.sh, test_ctf_damaged.sh, test_ctf_jobs.sh,
# test_page_pool.sh): where things are, the tests' TAP helpers, $ANALYZE
# and $CTFGEN (tests/analyze/ctfgen.py, which writes the traces); the
# whole test is a skip without rpcsim-analyze or python3.  Below it, the
# helpers the test_ctf_*.sh files share: each writes its traces and the
# analyses of them in $tmpdir (tap_tmpdir), NAME.out, .err and .rc the
# text's, NAME.json, .jerr and .jrc the JSON's.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

ANALYZE=${ANALYZE:-$top_builddir/analyze/rpcsim-analyze}
CTFGEN=$top_srcdir/tests/analyze/ctfgen.py
tap_skip_without_prog "$ANALYZE" "configure found no libbabeltrace2"
have_python ||
	plan_skip_all "python3 missing (it writes the traces and checks the JSON)"

# trace NAME [--no-vtid] < script: $tmpdir/NAME/trace, then analyze it as
# text ($tmpdir/NAME.{out,err,rc}) and JSON ($tmpdir/NAME.json, .jerr, .jrc),
# with the options in $t_opts
t_opts=
trace()
{
	t_name=$1
	shift
	mkdir -p "$tmpdir/$t_name/trace"
	python3 "$CTFGEN" "$@" "$tmpdir/$t_name/trace" || return 1
	analyze_again "$t_name"
}

# analyze_again NAME: analyze $tmpdir/NAME again (after changing it)
analyze_again()
{
	# shellcheck disable=SC2086 # $t_opts: none or several words
	timeout 30 "$ANALYZE" $t_opts "$tmpdir/$1" >"$tmpdir/$1.out" \
		2>"$tmpdir/$1.err"
	echo $? >"$tmpdir/$1.rc"
	# shellcheck disable=SC2086
	timeout 30 "$ANALYZE" $t_opts --json "$tmpdir/$1" >"$tmpdir/$1.json" \
		2>"$tmpdir/$1.jerr"
	echo $? >"$tmpdir/$1.jrc"
}

# refused_as NAME PATTERN WORDS: exit 1 both ways, nothing on stdout or
# in the JSON, one line on stderr matching PATTERN (grep) and naming WORDS
refused_as()
{
	rc_is "$1" 1 && [ ! -s "$tmpdir/$1.out" ] && [ ! -s "$tmpdir/$1.json" ] &&
		[ "$(wc -l <"$tmpdir/$1.err")" -eq 1 ] &&
		grep -q "$2" "$tmpdir/$1.err" &&
		grep -qF -- "$3" "$tmpdir/$1.err" || {
		diag "exit $(cat "$tmpdir/$1.rc"): $(cat "$tmpdir/$1.err")"
		return 1
	}
}

# incomplete NAME WORDS: refused, the one line saying the trace is
# incomplete and naming WORDS
incomplete()
{
	refused_as "$1" 'incomplete trace' "$2"
}

rc_is()
{
	[ "$(cat "$tmpdir/$1.rc")" = "$2" ] && [ "$(cat "$tmpdir/$1.jrc")" = "$2" ]
}

# j NAME EXPR: EXPR is true of the JSON document d (mode(n): its mode n).
# The document must parse, with no NaN or Infinity.  (test_page_pool.sh
# defines a j of its own, over a file and its "page_pool" section.)
j()
{
	python3 - "$tmpdir/$1.json" "$2" <<'EOF' 2>"$tmpdir/j.err"
import json, sys
def no_constant(c):
    raise ValueError("non-finite number " + c)
d = json.load(open(sys.argv[1]), parse_constant=no_constant)
def mode(n):
    return [m for m in d["modes"] if m["mode"] == n][0]
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
	j_rc=$?
	[ "$j_rc" -eq 0 ] || diag "false: $2" "$(cat "$tmpdir/j.err")"
	return "$j_rc"
}

err_has()
{
	grep -q "$2" "$tmpdir/$1.err" || {
		diag "no '$2' in:" "$(cat "$tmpdir/$1.err")"
		return 1
	}
}

err_lacks()
{
	! grep -q "$2" "$tmpdir/$1.err" || {
		diag "'$2' in:" "$(cat "$tmpdir/$1.err")"
		return 1
	}
}

# packet_sizes INDEX...: each packet's size in bytes, as the LTTng
# indexes (ctfgen.py --index) list them, a line each, file by file
packet_sizes()
{
	python3 - "$@" <<'PYEOF'
import struct, sys
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    elen = struct.unpack_from(">I", b, 12)[0]
    for o in range(16, len(b), elen):
        print(struct.unpack_from(">Q", b, o + 8)[0] // 8)
PYEOF
}
