# SPDX-License-Identifier: MIT
#
# Shared by rpcsim's shell tests: where things are, and how to run rpcsim
# with a time limit, keeping its stdout, stderr and exit status.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
RPCSIM=${RPCSIM:-$top_builddir/rpcsim/rpcsim}

# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"

# No run should come near this; a hang shows up as status 124.
RPCSIM_TIMEOUT=${RPCSIM_TIMEOUT:-120}

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/rpcsim-test.XXXXXX") ||
	bail_out "mktemp failed"
trap 'rm -rf "$tmpdir"' EXIT
OUT=$tmpdir/stdout
ERR=$tmpdir/stderr

[ -x "$RPCSIM" ] || bail_out "$RPCSIM not built"

# run ARGS...: rpcsim ARGS into $OUT and $ERR; its status in $status.
run()
{
	timeout "$RPCSIM_TIMEOUT" "$RPCSIM" "$@" >"$OUT" 2>"$ERR"
	status=$?
}

# run_env VAR=VALUE ARGS...: run with VAR=VALUE in rpcsim's environment
# only (a prefix assignment on a shell function may outlive the call).
run_env()
{
	run_var=$1
	shift
	timeout "$RPCSIM_TIMEOUT" env "$run_var" "$RPCSIM" "$@" >"$OUT" 2>"$ERR"
	status=$?
}

# ran_ok DESCRIPTION: the last run exited 0 (its stderr shown if not).
ran_ok()
{
	[ "$status" -eq 0 ]
	ok $? "$*" || diag "exit $status: $(head -c 2000 "$ERR")"
}

# summary KEY: the value of KEY= on the (last) SUMMARY line of $OUT.
summary()
{
	sed -n "s/^SUMMARY .* $1=\\([^ ]*\\).*/\\1/p" "$OUT" | tail -n 1
}

have_python()
{
	command -v python3 >/dev/null 2>&1
}

# check_bad_inputs TABLE [ARG]...: each line of TABLE is "ARGS<tab>TEXT";
# rpcsim ARGS [ARG]... must exit 2 with nothing on stdout and one line on
# stderr, starting "rpcsim: " and naming TEXT.  Two checks per line.
check_bad_inputs()
{
	cbi_table=$1
	shift
	while IFS='	' read -r args text; do
		# shellcheck disable=SC2086 # ARGS are several words
		run $args "$@" </dev/null
		[ "$status" -eq 2 ] && [ ! -s "$OUT" ]
		ok $? "bad input '$args' exits 2, prints nothing on stdout" ||
			diag "exit $status"
		[ "$(wc -l <"$ERR")" -eq 1 ] && grep -qF -- "$text" "$ERR" &&
			grep -q '^rpcsim: ' "$ERR"
		ok $? "bad input '$args' explained in one line naming '$text'" ||
			diag "$(cat "$ERR")"
	done <<EOF_TABLE
$cbi_table
EOF_TABLE
}
