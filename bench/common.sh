# SPDX-License-Identifier: MIT
#
# What bench/'s scripts share (sourced).  The pagebench table scripts:
# running pagebench once with the command, its header and the load average
# printed as a Markdown code block, and its result lines as plain columns
# for their tables.  The scripts that time sides in turn on one CPU
# (pagebench-ab.sh, one-hole.sh): the CPU, checked, and the median.  The
# scripts that run a long child (trace-overhead.sh, callgrind.sh): run it
# so that a signal ends it.

# bench_cpu NAME WHY: $cpu, a CPU to pin to with taskset: checked, or when
# empty the first this shell may run on.  NAME: the script's, for its
# messages; WHY: what the pinning is for, said when taskset is missing.
# Exits 2 for a --cpu that is no CPU of this shell, 1 without taskset.
bench_cpu()
{
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
	case $cpu in
	'')
		cpu=${allowed%%[,-]*}
		;;
	*[!0-9]*)
		echo "$1: --cpu: '$cpu' is not a CPU number (this shell may run on $allowed)" >&2
		exit 2
		;;
	esac
	if ! command -v taskset >/dev/null 2>&1; then
		echo "$1: taskset (util-linux) not found: $2" >&2
		exit 1
	fi
	if ! taskset -c "$cpu" true 2>/dev/null; then
		echo "$1: --cpu=$cpu: not a CPU this shell may run on ($allowed)" >&2
		exit 2
	fi
}

# bench_count VALUE MAX: VALUE is an integer from 1 to MAX (digits only,
# no leading 0).
bench_count()
{
	case $1 in ''|0*|*[!0-9]*) return 1 ;; esac
	[ ${#1} -le ${#2} ] && [ "$1" -le "$2" ]
}

# bench_counts LIST MAX: LIST is such integers separated by commas, each
# once.  Status 1 when an item is empty or not one of them, 2 when one
# comes twice.
bench_counts()
{
	case ,$1, in *,,*) return 1 ;; esac
	bc_seen=,
	for bc_n in $(echo "$1" | tr , ' '); do
		bench_count "$bc_n" "$2" || return 1
		case $bc_seen in *,$bc_n,*) return 2 ;; esac
		bc_seen=$bc_seen$bc_n,
	done
}

# An awk function, to put before a program: median(LIST), the median of
# the numbers of LIST (separated by spaces); of an even count, the mean of
# the middle two.
# shellcheck disable=SC2034 # used by the scripts that source this
bench_awk_median='
function median(list,    v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) {
				t = v[i]; v[i] = v[j]; v[j] = t
			}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
'

# An awk function, to put before a program: pp_predict(S, L, A), the
# page_pool consumer's array gain / list gain as an allocator predicts
# it from its ns per page for a single page (S) and the bulk list (L) and
# array (A) at 64, its refill size: with the rest of a packet's work
# alike in every mode the gains are the refills' savings, so the ratio is
# (S - A) / (S - L) (doc/results/2026-12-06-page-pool-kernel-series.md);
# "- (no list gain)" when L >= S.  Compared as numbers: figures cut from
# a line with substr() are strings to awk, and "1227.38" > "513.68" is
# false as strings.
bench_awk_pp_predict='
function pp_predict(s, l, a) {
	s += 0; l += 0; a += 0
	return s > l ? sprintf("%.2f", (s - a) / (s - l)) : "- (no list gain)"
}
'

# pb_main NAME ABOUT [--builddir=DIR] [PAGEBENCH OPTION]...: a table
# script's front.  With -h or --help anywhere, its usage (ABOUT: what it
# prints, a line or two, and $pb_help_more if set), exit 0.  Else
# pagebench of DIR (--builddir anywhere; default: the current build
# tree) run with $defaults, then the other options given in their order,
# into $pb_file (a temporary file, removed at exit), printed as pb_run()
# prints it.  $pb_before_run, if set, names a function called once
# $pb_bin is known, before the run (it may change $defaults).  Exits 1
# when pagebench is not built, 2 for an empty --builddir=, with
# pagebench's status when it fails.
pb_main()
{
	pb_name=$1
	pb_about=$2
	shift 2
	pb_builddir=.
	for pb_arg do
		shift
		case $pb_arg in
		-h|--help)
			cat <<EOF
Usage: $pb_name [--builddir=DIR] [PAGEBENCH OPTION]...
$pb_about
pagebench runs with: $defaults
then the options given.  DIR: the build tree (default: the current one).${pb_help_more:+
$pb_help_more}
EOF
			exit 0
			;;
		--builddir=*)
			pb_builddir=${pb_arg#*=}
			if [ -z "$pb_builddir" ]; then
				echo "$pb_name: --builddir: '' is not a build tree" >&2
				exit 2
			fi
			;;
		*) set -- "$@" "$pb_arg" ;;
		esac
	done
	pb_bin=$pb_builddir/pagebench/pagebench
	if [ ! -x "$pb_bin" ]; then
		echo "$pb_name: $pb_bin not built (run make first)" >&2
		exit 1
	fi
	[ -z "${pb_before_run:-}" ] || "$pb_before_run"
	pb_file=$(mktemp "${TMPDIR:-/tmp}/${pb_name%.sh}.XXXXXX") || exit 1
	# A signal ends the pagebench run by its pid (bench_run_child).
	bench_traps 'rm -f "$pb_file"'
	# shellcheck disable=SC2086
	pb_run "$pb_file" "$pb_bin" -- $defaults "$@" || exit $?
}

# pb_run OUT PAGEBENCH [VAR=VALUE] -- ARGS...: PAGEBENCH ARGS (with
# VAR=VALUE in its environment) into OUT; then the command, the header and
# the load average before and after, indented, and a blank line.
pb_run()
{
	pb_out=$1 pb_bin=$2
	shift 2
	pb_env=
	if [ "$1" != "--" ]; then
		pb_env=$1
		shift
	fi
	shift
	pb_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	bench_run_child env $pb_env "$pb_bin" "$@" >"$pb_out" || return $?
	pb_load_after=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "    \$ ${pb_env:+$pb_env }pagebench $*"
	# The header: CPU, TSC, where each baseline comes from.
	sed -n '1,/^$/p' "$pb_out" | sed '/^$/d; s/^/    /'
	echo "    load average $pb_load_before before, $pb_load_after after"
	echo
}

# pb_columns OUT: each result line of OUT as "allocator api bulk
# ns_per_page min_ns max_ns spread_pct tsc_per_page".
pb_columns()
{
	awk '
	/^pagebench allocator=/ {
		delete f
		for (i = 2; i <= NF; i++) {
			eq = index($i, "=")
			f[substr($i, 1, eq - 1)] = substr($i, eq + 1)
		}
		print f["allocator"], f["api"], f["bulk"], f["ns_per_page"],
		      f["min_ns"], f["max_ns"], f["spread_pct"],
		      f["tsc_per_page"]
	}' "$1"
}

# bench_cc NAME SRCDIR BUILDDIR SOURCE OUTPUT: build the C program
# SRCDIR/SOURCE against the libpagepool of the build tree BUILDDIR (its
# rpath set), with that build's sanitizer flags, as the build's own
# programs are (a sanitizer's library needs its runtime in the program),
# into OUTPUT; exits 1 naming SOURCE when it does not build.
bench_cc()
{
	bcc_san=$(sed -n 's/^SAN_CFLAGS = //p' "$3/Makefile" 2>/dev/null)
	# shellcheck disable=SC2086 # the flags split on spaces
	${CC:-cc} -O2 $bcc_san -I"$2/include" -I"$3/include" "$2/$4" -o "$5" \
		-L"$3/alloc/.libs" -lpagepool -Wl,-rpath,"$3/alloc/.libs" || {
		echo "$1: $4 did not build against $3" >&2
		exit 1
	}
}

# bench_run_child CMD [ARG]...: CMD in the background, waited for, so
# that a signal's trap can end it by its pid (bench_end_child); its exit
# status.
bench_child=
bench_forking=
bench_before=
bench_run_child()
{
	bench_before=${!:-}
	bench_forking=1
	"$@" &
	bench_child=$!
	bench_forking=
	wait "$bench_child"
	bench_rc=$?
	bench_child=
	return $bench_rc
}

# bench_end_child: for the EXIT trap, end what bench_run_child runs, if
# anything: also one forked but not yet named (a signal between the fork
# and bench_child=$!), which $! already is.
bench_end_child()
{
	if [ -z "$bench_child" ] && [ -n "$bench_forking" ] &&
		[ "${!:-}" != "$bench_before" ]; then
		bench_child=$!
	fi
	if [ -n "$bench_child" ]; then
		kill -TERM "$bench_child" 2>/dev/null
		wait "$bench_child" 2>/dev/null
		bench_child=
	fi
}

# bench_traps CLEANUP: at exit, end what bench_run_child runs, then run
# CLEANUP (a command, as trap takes it: the temporary files); HUP, INT,
# PIPE and TERM exit 128 + N, as the programs they run do.
bench_traps()
{
	# shellcheck disable=SC2064 # CLEANUP is expanded now, on purpose
	trap "bench_end_child; $1" EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 141' PIPE
	trap 'exit 143' TERM
}
