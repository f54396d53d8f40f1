#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/trace-overhead.sh with stand-ins (a traced build whose rpcsim and
# config.status are scripts, a configure that records its arguments):
# --help lists every option with its default; bad input exits 2 with one
# line naming the option, before anything is configured or run; a
# --builddir without rpcsim exits 1 naming it; the untraced tree is
# configured with the traced tree's own arguments plus
# --disable-lttng-ust; the runs see a LTTNG_HOME of their own (and, as
# root, a /run of their own); where that cannot be had (an unshare that
# fails) it refuses, exit 1, unless --use-running-sessiond; SIGTERM
# mid-run ends the script (143), the rpcsim it started and its temporary
# directory.  On a machine without that isolation (a chroot, a container)
# the other runs pass --use-running-sessiond and the isolation's checks
# are skipped, saying why.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

bench_script trace-overhead.sh
unset PP_LTTNG_ISOLATED PP_LTTNG_PRIVATE_HOME

options="repeat duration alloc builddir untraced use-running-sessiond"
bad_inputs=$(cat <<'TABLE'
--repeat=1	--repeat=1
--repeat=0	--repeat=0
--repeat=99999999999999999999	--repeat=99999999999999999999
--duration=abc	--duration=abc
--duration=	--duration=
--duration=1e3	--duration=1e3
--alloc=bogus	--alloc=bogus
--untraced=	--untraced=
--repeat	--repeat
--bogus	--bogus
TABLE
)
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
plan_tests $((1 + nr_options + 8 + 2 * nr_bad))

have_python ||
	skip_rest "python3 not found (trace-overhead.sh reads rpcsim's JSON with it)"

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
check_help_defaults "$(cat "$OUT")" $options

# The traced stand-in: tracepoints in its --help; each run prints known
# rates and notes its LTTNG_HOME and whether /run is the isolation's.
T=$tmpdir/traced
S=$tmpdir/src
mkdir -p "$T/rpcsim" "$S"
cat >"$T/rpcsim/rpcsim" <<'SH'
#!/bin/sh
case $1 in --help) echo '  -t, --trace[=DIR]  record'; exit 0 ;; esac
[ -n "${SLEEP_IN_RPCSIM:-}" ] && { echo $$ >"$0.pid"; exec sleep 30; }
n=$(($(cat "$0.n" 2>/dev/null || echo 0) + 1))
echo $n >"$0.n"
echo "${LTTNG_HOME:-unset} $(grep -c pp-lttng-run /proc/self/mounts)" >>"$0.env"
printf '{"modes": [{"label": "Bulk array", "requests_per_s": %d, "mean_us": 0.%d}]}\n' $((1000 + n)) $((100 + n))
SH
sed 's/--trace\[=DIR\]/--no-trace/' "$T/rpcsim/rpcsim" >"$tmpdir/plain-rpcsim"
cat >"$T/config.status" <<'SH'
#!/bin/sh
echo "'--enable-asan' 'CFLAGS=-O0 -g' '--enable-lttng-ust'"
SH
echo "abs_top_srcdir = $S" >"$T/Makefile"
cat >"$S/configure" <<SH
#!/bin/sh
for a do echo "\$a"; done >configure.args
mkdir -p rpcsim && cp "$tmpdir/plain-rpcsim" rpcsim/rpcsim
touch config.status
printf 'all:\n\t@:\n' >Makefile
SH
chmod +x "$T/rpcsim/rpcsim" "$tmpdir/plain-rpcsim" "$T/config.status" "$S/configure"

# Where no private mount namespace can be had (a chroot, a container
# without CAP_SYS_ADMIN), the script refuses unless --use-running-sessiond
# (checked below with a failing unshare): the runs that check the rest
# pass it there, and the isolation's own checks are skipped.
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"
if no_isolation=$(lttng_can_isolate); then
	anyway=
else
	anyway=--use-running-sessiond
fi

run --builddir="$T" --repeat=2 --duration=0.1 $anyway
args=$(tr '\n' '|' <"$T/bench/notrace/configure.args" 2>/dev/null)
[ "$status" -eq 0 ] && [ "$args" = "-q|--enable-asan|CFLAGS=-O0 -g|--disable-lttng-ust|" ]
ok $? "the untraced tree: the traced tree's configure arguments, --disable-lttng-ust instead of --enable-lttng-ust" ||
	diag "exit $status, configure got: $args" "$(cat "$ERR")"
grep -Eq '^Bulk array: +[0-9]+ ±[0-9.]+% +[0-9]+ ±[0-9.]+% +[-+][0-9.]+% .* (within|beyond) noise$' "$OUT"
ok $? "a row per mode, with the spread and a verdict against the noise" ||
	diag "$(cat "$OUT")"
if [ -n "$anyway" ]; then
	skip 2 "$no_isolation"
else
	if [ "$(id -u)" -eq 0 ]; then want_mounts=1; else want_mounts=0; fi
	home=${LTTNG_HOME:-$HOME}
	awk -v home="$home" -v m="$want_mounts" \
		'$1 == "unset" || $1 == home || $2 != m { bad = 1 } END { exit bad || NR != 2 }' \
		"$T/rpcsim/rpcsim.env"
	ok $? "the traced runs: a LTTNG_HOME of their own$([ "$want_mounts" = 1 ] && echo ', a /run of their own')" ||
		diag "$(cat "$T/rpcsim/rpcsim.env")"
	# --use-running-sessiond only lets it run where isolation cannot be
	# had: where it can, the runs are isolated all the same.
	rm -f "$T/rpcsim/rpcsim.env"
	run --builddir="$T" --repeat=2 --duration=0.1 --use-running-sessiond
	[ "$status" -eq 0 ] && awk -v home="$home" -v m="$want_mounts" \
		'$1 == "unset" || $1 == home || $2 != m { bad = 1 } END { exit bad || NR != 2 }' \
		"$T/rpcsim/rpcsim.env"
	ok $? "  with --use-running-sessiond too, where isolation can be had" ||
		diag "exit $status: $(cat "$T/rpcsim/rpcsim.env" "$ERR")"
fi

run --builddir="$tmpdir/nowhere"
[ "$status" -eq 1 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q -- "--builddir=$tmpdir/nowhere: no rpcsim/rpcsim" "$ERR"
ok $? "a --builddir without rpcsim: exit 1, one line naming it" ||
	diag "exit $status: $(cat "$ERR")"

# No isolation to be had: an unshare that fails (as root or in the
# tracing group, where the isolation needs it).
mkdir -p "$tmpdir/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmpdir/bin/unshare"
chmod +x "$tmpdir/bin/unshare"
if [ "$(id -u)" -eq 0 ] || id -nG | tr ' ' '\n' | grep -qx tracing; then
	rm -f "$T/rpcsim/rpcsim.n"
	PATH=$tmpdir/bin:$PATH run --builddir="$T" --repeat=2 --duration=0.1
	[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		grep -q -- "--use-running-sessiond" "$ERR" && [ ! -f "$T/rpcsim/rpcsim.n" ]
	ok $? "no isolation: exit 1 with the reason, nothing run" ||
		diag "exit $status: $(cat "$OUT" "$ERR")"
	PATH=$tmpdir/bin:$PATH run --builddir="$T" --repeat=2 --duration=0.1 \
		--use-running-sessiond
	[ "$status" -eq 0 ] && [ "$(cat "$T/rpcsim/rpcsim.n")" = 2 ]
	ok $? "  --use-running-sessiond runs all the same" ||
		diag "exit $status: $(cat "$ERR")"
else
	skip 2 "not root nor in the tracing group: a private LTTNG_HOME isolates"
fi

# SIGTERM while rpcsim runs: the script ends (143), and so do the
# rpcsim it started and its temporary directory.
mkdir -p "$tmpdir/t"
TMPDIR=$tmpdir/t SLEEP_IN_RPCSIM=1 sh "$SCRIPT" --builddir="$T" --repeat=2 \
	--duration=0.1 $anyway >"$OUT" 2>"$ERR" &
pid=$!
wait_for 20 test -s "$T/rpcsim/rpcsim.pid"
kill -TERM "$pid"
wait_pid "$pid" 20
rpid=$(cat "$T/rpcsim/rpcsim.pid" 2>/dev/null)
[ "$status" -eq 143 ] && [ -n "$rpid" ] && pid_gone "$rpid" &&
	[ -z "$(ls "$tmpdir/t")" ]
ok $? "SIGTERM mid-run: exit 143, its rpcsim ended, no temporary file left" ||
	diag "exit $status, rpcsim $rpid, left: $(ls "$tmpdir/t")" "$(cat "$ERR")"
[ -n "$rpid" ] && kill "$rpid" 2>/dev/null

check_bad_inputs trace-overhead.sh "$bad_inputs" --builddir="$T"

exit_status
