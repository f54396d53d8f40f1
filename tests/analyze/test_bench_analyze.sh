#!/bin/sh
# SPDX-License-Identifier: MIT
#
# analyze/bench-analyze.sh's command line, nothing timed or recorded:
# --help lists every option with its default; bad input (a ratio that
# is no decimal number above 0, an --events too small for one tracegen
# call, counts out of range, empty values) exits 2 with one line naming
# the option; where the recording cannot be kept away from the user's
# LTTng session daemon (an unshare that fails, as root or in the tracing
# group) it refuses, exit 1, naming --use-running-sessiond, and records
# nothing; a SIGTERM ends the reading it runs (a stand-in).

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"
SCRIPT=$top_srcdir/analyze/bench-analyze.sh
tap_tmpdir bench-analyze-test
run() { run_cmd 60 sh "$SCRIPT" "$@"; }
unset PP_LTTNG_ISOLATED PP_LTTNG_PRIVATE_HOME

options="events repeat builddir min-ratio jobs target-ratio use-running-sessiond"
bad_inputs=$(cat <<'TABLE'
--min-ratio=abc	--min-ratio 'abc'
--min-ratio=	--min-ratio ''
--min-ratio=0	--min-ratio '0'
--target-ratio=-1	--target-ratio '-1'
--target-ratio=1e3	--target-ratio '1e3'
--events=0	--events '0'
--events=9	--events '9'
--events=99999999999999999999	--events '99999999999999999999'
--jobs=257	--jobs '257'
--repeat=00	--repeat '00'
--builddir=	--builddir ''
--bogus	--bogus
TABLE
)
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
plan_tests $((1 + nr_options + 2 + 2 * nr_bad))

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
check_help_defaults "$(cat "$OUT")" $options

# No isolation to be had: an unshare that fails.
mkdir -p "$tmpdir/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmpdir/bin/unshare"
chmod +x "$tmpdir/bin/unshare"
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx tracing; then
	skip 1 "not root nor in the tracing group: a private LTTNG_HOME isolates"
elif [ ! -x "$top_builddir/analyze/rpcsim-analyze" ] ||
	! command -v babeltrace2 >/dev/null 2>&1; then
	skip 1 "no rpcsim-analyze or babeltrace2: the script stops before"
else
	PATH=$tmpdir/bin:$PATH run --builddir="$top_builddir" --events=100 --repeat=1
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q "^bench-analyze.sh: cannot keep .*--use-running-sessiond" "$ERR"
	ok $? "no isolation: exit 1 with the reason and the option, nothing recorded" ||
		diag "exit $status: $(cat "$OUT" "$ERR")"
fi

# SIGTERM while rpcsim-analyze reads: the script ends (143), and so do the
# rpcsim-analyze it started (a stand-in that sleeps) and its temporary
# folder.  A trace of its own (--trace): no recording, no LTTng.
if command -v babeltrace2 >/dev/null 2>&1; then
	mkdir -p "$tmpdir/trace"
	sleeper "$tmpdir/slow/analyze/rpcsim-analyze" "$tmpdir/slow/pid"
	sigterm_run "$tmpdir/slow/pid" --builddir="$tmpdir/slow" \
		--trace="$tmpdir/trace" --repeat=1 --jobs=1
	sigterm_ok "SIGTERM while rpcsim-analyze reads: exit 143, it ended, no temporary file left" rpcsim-analyze
else
	skip 1 "babeltrace2 missing: the script stops before"
fi

check_bad_inputs bench-analyze.sh "$bad_inputs"

exit_status
