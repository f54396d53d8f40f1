#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The LTTng tests leave the user's LTTng alone (issue #11, item 18: a
# user's "lttng stop" failed with "Can't find valid lttng config
# /root/.lttngrc" while make check ran).  In a mount namespace of its own
# (so that it is not the real user's either) this test plays a user: a
# HOME, a session daemon of the user's, and an active session "users-own"
# recording rpcsim:*.  Then it runs what every LTTng test does
# (tests/utils/lttng.sh: lttng_can_isolate, lttng_isolate,
# lttng_sessiond_up, lttng_record, rpcsim --trace, lttng_cleanup) and
# checks that the user's ~/.lttngrc, daemon and session are as they were,
# that the test never saw the user's session, that the user's session
# recorded none of the test's events, and that "lttng stop" still works.
# Needs root (the user's daemon is the system one) and unshare.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/utils/lttng.sh
. "$top_srcdir/tests/utils/lttng.sh"

RPCSIM=$top_builddir/rpcsim/rpcsim

if why=$(lttng_missing); then
	echo "1..0 # SKIP $why"
	exit 0
fi
if ! "$RPCSIM" --help | grep -q -- '--trace\[=DIR\]'; then
	echo "1..0 # SKIP rpcsim built without LTTng-UST"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP playing a user with the system-wide session daemon needs root"
	exit 0
fi
run=$(readlink -f /var/run 2>/dev/null || echo /var/run)
if [ -z "${PP_PLAYED_USER:-}" ]; then
	# The played user's world: a /var/run and a /dev/shm of its own.
	if ! unshare --mount --propagation private sh -c \
		"mount -t tmpfs pp-user-run '$run'" >/dev/null 2>&1; then
		echo "1..0 # SKIP no private mount namespace (unshare --mount)"
		exit 0
	fi
	PP_PLAYED_USER=1
	export PP_PLAYED_USER
	# shellcheck disable=SC2016 # expanded by the inner shell
	exec unshare --mount --propagation private sh -c '
		mount -t tmpfs -o mode=0755 pp-user-run "$1" &&
		mount -t tmpfs -o mode=1777 pp-user-shm /dev/shm || exit 99
		shift
		exec sh "$@"' sh "$run" "$0" "$@"
fi

plan_tests 9

tap_tmpdir test-lttng-isolation
user_pid=
# The played user's session and daemon go when the test does.
stop_user()
{
	[ -n "$user_pid" ] || return 0
	HOME=$tmpdir/home lttng_cmd destroy users-own >/dev/null 2>&1
	kill -TERM "$user_pid" 2>/dev/null
	i=0
	while kill -0 "$user_pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
tap_at_exit stop_user

# The user: a HOME, no LTTNG_HOME, their daemon, their active session.
mkdir "$tmpdir/home"
HOME=$tmpdir/home
export HOME
unset LTTNG_HOME PP_LTTNG_ISOLATED PP_LTTNG_PRIVATE_HOME
lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 ||
	bail_out "the played user's lttng-sessiond did not start"
user_pid=$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)
case $user_pid in
''|*[!0-9]*) user_pid=; bail_out "the played user's daemon left no pid file" ;;
esac
{ lttng_cmd create users-own --output="$tmpdir/users-trace" &&
  lttng_cmd enable-event -u 'rpcsim:*' &&
  lttng_cmd start; } >/dev/null 2>&1 ||
	bail_out "the played user's session did not start"
rc_before=$(cksum <"$HOME/.lttngrc")

# What an LTTng test does, through tests/utils/lttng.sh.
cat >"$tmpdir/a-test.sh" <<'EOT'
. "$top_srcdir/tests/utils/lttng.sh"
# (A tests/utils/lttng.sh from before the isolation has neither.)
if command -v lttng_isolate >/dev/null 2>&1; then
	why=$(lttng_can_isolate) || { echo "cannot isolate: $why"; exit 77; }
	lttng_isolate "$0" "$@"
fi
trap lttng_cleanup EXIT
lttng_sessiond_up || exit 1
echo "$LTTNG_HOME $lttng_started_pid" >"$OUTDIR/own"
lttng_cmd list >"$OUTDIR/seen" 2>&1
lttng_record a-test "$OUTDIR/test-trace" "" 'rpcsim:*' vtid -- \
	"$top_builddir/rpcsim/rpcsim" --requests=100 --threads=1 --quiet ||
	exit 1
"$top_builddir/rpcsim/rpcsim" --requests=100 --threads=1 --json \
	--trace="$OUTDIR/rpcsim-trace" >/dev/null || exit 1
exit 0
EOT
OUTDIR=$tmpdir top_srcdir=$top_srcdir top_builddir=$top_builddir \
	timeout 300 sh "$tmpdir/a-test.sh" >"$tmpdir/a-test.out" 2>&1
st=$?
[ "$st" -eq 0 ]
ok $? "an LTTng test runs: its own daemon, a session, rpcsim --trace (exit $st)" ||
	diag "$(head -c 2000 "$tmpdir/a-test.out")"
[ -s "$tmpdir/seen" ] && ! grep -q users-own "$tmpdir/seen"
ok $? "the test never sees the user's session" || diag "$(cat "$tmpdir/seen")"
[ -f "$HOME/.lttngrc" ] && [ "$(cksum <"$HOME/.lttngrc")" = "$rc_before" ]
ok $? "the user's ~/.lttngrc is as it was"
kill -0 "$user_pid" 2>/dev/null
ok $? "the user's session daemon still runs (pid $user_pid)"
lttng_cmd list users-own 2>/dev/null | grep -q 'users-own.*\[active\]'
ok $? "the user's session is still there, still active" ||
	diag "$(lttng_cmd list 2>&1 | head -n 20)"
! lttng_cmd list 2>/dev/null | grep -q -e 'a-test-' -e 'rpcsim-[0-9]'
ok $? "none of the test's sessions is in the user's daemon"
lttng_cmd stop >"$tmpdir/stop.out" 2>&1
ok $? "the user's own 'lttng stop' works" || diag "$(cat "$tmpdir/stop.out")"
# The test's rpcsim runs were not recorded by the user's session.
n=$(babeltrace2 "$tmpdir/users-trace" 2>/dev/null | grep -c 'rpcsim:')
[ "${n:-0}" -eq 0 ]
ok $? "the user's session recorded none of the test's events ($n)"
read -r own_home own_pid <"$tmpdir/own"
[ -n "$own_home" ] && [ ! -e "$own_home" ] && [ -n "$own_pid" ] &&
	! kill -0 "$own_pid" 2>/dev/null
ok $? "the test's own daemon ($own_pid) and LTTng home ($own_home) are gone"

exit_status
exit $?
