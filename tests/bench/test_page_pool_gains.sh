#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/page-pool-gains.sh with runs of 50 ms (its tables and arithmetic,
# never the timing): --help lists every option with its default; each
# configuration (RX queues x free mix) gets a table of the three modes
# with every run counted, the change against single computed from the
# medians it prints, and the ratio line; the default mixes are rpcsim's
# and released:1; the refills untimed unless --call-timing=on (then the
# ns columns); an rpcsim usage error comes through as one line, exit 2,
# nothing on stdout; no build exits 1; bad input exits 2 with one line
# naming the option.

# Option lists in variables are split into words on purpose.
# shellcheck disable=SC2086
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
# shellcheck source=tests/utils/tap.sh
. "$top_srcdir/tests/utils/tap.sh"
# shellcheck source=tests/bench/common.sh
. "$top_srcdir/tests/bench/common.sh"

RPCSIM=$top_builddir/rpcsim/rpcsim
tap_need_prog "$RPCSIM"
bench_script page-pool-gains.sh

options="builddir threads free-mix rounds repeat duration profile call-timing"
bad_inputs=$(cat <<'TABLE'
--threads=0	--threads=0
--threads=1,,2	--threads=1,,2
--threads=2,2	--threads=2,2
--threads=65	--threads=65
--rounds=0	--rounds=0
--rounds=101	--rounds=101
--repeat=x	--repeat=x
--profile=fast	--profile=fast
--call-timing=maybe	--call-timing=maybe
--free-mix=	--free-mix=
--builddir=	--builddir=
--rounds	--rounds
--bogus	--bogus
stray	stray
TABLE
)
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
plan_tests $((1 + nr_options + 12 + 2 * nr_bad))

have_python ||
	skip_rest "python3 not found (page-pool-gains.sh reads rpcsim's JSON with it)"

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
check_help_defaults "$(cat "$OUT")" $options

short="--builddir=$top_builddir --repeat=1 --duration=0.05"

# tables MIXES: the configurations' titles, in order, one per line
titles() { grep -E '^[0-9]+ RX queues?, free mix ' "$OUT"; }

# --- two rounds, two queue counts, two mixes given ---------------------------------
run $short --rounds=2 --threads=1,2 --free-mix=held:1 --free-mix=direct:1
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(titles)" = "1 RX queue, free mix held:1
1 RX queue, free mix direct:1
2 RX queues, free mix held:1
2 RX queues, free mix direct:1" ]
ok $? "--threads=1,2 and two --free-mix: a table for each of the four, in order" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
grep -q '^page-pool-gains\.sh: 2 rounds of rpcsim --consumer=page_pool --alloc=all --repeat=1 --duration=0\.05 --call-timing=off; RX queues 1,2; load average .* before, .* after$' "$OUT"
ok $? "the first line says what ran and the load before and after" ||
	diag "$(head -n 1 "$OUT")"
# each table: the header, single/list/array with 2 runs each (a run per
# round); the change of list and array is their median over single's; no
# ns figures, the refills untimed
awk '
	/^\| mode \|/ { t++; next }
	/^\| (single|list|array) \|/ {
		split($0, c, " *\\| *")
		rows[t]++
		if (c[3] != 2) bad = "runs " c[3] " in " $0
		if (c[2] == "single") { base = c[4]; if (c[5] != "base") bad = $0 }
		else {
			want = sprintf("%+.1f %%", 100 * (c[4] / base - 1))
			if (c[5] != want) bad = $0 " (want " want ")"
		}
		if (c[6] != "-" || c[7] != "-")
			bad = $0
	}
	END {
		if (t != 4) bad = bad " tables " t
		for (i = 1; i <= t; i++) if (rows[i] != 3) bad = bad " rows " rows[i]
		if (bad != "") { print bad; exit 1 }
	}' "$OUT" >"$tmpdir/why"
ok $? "every table: three modes, a run per round, each change the medians' ratio" ||
	diag "$(cat "$tmpdir/why")"
[ "$(grep -c '^array gain / list gain: \(-\?[0-9]*\.[0-9][0-9]\|- (no list gain)\) (kernel XDP: 2\.82; page_bench04 predicts 1\.37); from these refills'"'"' ns per page: \(-\?[0-9]*\.[0-9][0-9]\|-\)$' "$OUT")" -eq 4 ]
ok $? "a ratio line under each table, beside the kernel's" ||
	diag "$(grep '^array gain' "$OUT")"
# and one of single, list and array at a time: two runs of each (a run
# per round), each counted once
[ "$(grep -c "^one run of each mode, as the kernel's figures are: array gain / list gain \(median -\?[0-9]*\.[0-9][0-9] (-\?[0-9]*\.[0-9][0-9] to -\?[0-9]*\.[0-9][0-9]), 2\.82 or more in [0-2] of 2 runs\( (no list gain in 1)\)\?\|none: no list gain in a run\)\$" "$OUT")" -eq 4 ]
ok $? "  and from one run of each mode at a time: median, range, count at 2.82" ||
	diag "$(grep '^one run' "$OUT")"

# --- timed refills: their ns per page and per packet -------------------------------
run $short --rounds=1 --threads=1 --free-mix=released:1 --call-timing=on
[ "$status" -eq 0 ] && grep -q ' --call-timing=on; RX queues 1;' "$OUT" &&
	[ "$(grep -c '^| \(single\|list\|array\) | 1 | [0-9]* | [^|]* | [0-9]*\.[0-9] | [0-9]*\.[0-9] |$' "$OUT")" -eq 3 ] &&
	grep -q "^array gain / list gain: .*; from these refills' ns per page: \(-\?[0-9]*\.[0-9][0-9]\|-\)$" "$OUT"
ok $? "--call-timing=on: each mode's refill ns per page and ns per packet" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"

# --- the default mixes --------------------------------------------------------------
run $short --rounds=1 --threads=1
[ "$status" -eq 0 ] && [ "$(titles)" = "1 RX queue, free mix rpcsim's default
1 RX queue, free mix released:1" ]
ok $? "by default rpcsim's own mix and released:1" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"

# --- the arithmetic, on packet rates set by a stand-in rpcsim -------------------------
# Each call prints one document of known rates: round 1 single 100, list
# 110, array 130 (gains 10 % and 30 %: 3.00), round 2 100, 120, 130
# (1.50), round 3 100, 90, 120 (no list gain).  Medians: 100, 110, 130.
mkdir -p "$tmpdir/fake/rpcsim"
cat >"$tmpdir/fake/rpcsim/rpcsim" <<'EOF'
#!/bin/sh
n=$(($(cat "$0.calls" 2>/dev/null || echo 0) + 1))
echo $n >"$0.calls"
set -- $(sed -n "${n}p" "$0.rates")
doc() {
	printf '{"mode": "%s", "per_run": [{"mean_us": null, "calls": 1, "page_pool": {"packets_per_s": %s, "packets": 1}}]}' "$1" "$2"
}
printf '{"modes": [%s, %s, %s]}\n' "$(doc single $1)" "$(doc list $2)" "$(doc array $3)"
EOF
chmod +x "$tmpdir/fake/rpcsim/rpcsim"
printf '100 110 130\n100 120 130\n100 90 120\n' >"$tmpdir/fake/rpcsim/rpcsim.rates"
run --builddir="$tmpdir/fake" --rounds=3 --threads=1 --free-mix=released:1
[ "$status" -eq 0 ] &&
	grep -q '^| list | 3 | 110 | +10.0 % | - | - |$' "$OUT" &&
	grep -q '^| array | 3 | 130 | +30.0 % | - | - |$' "$OUT" &&
	grep -q '^array gain / list gain: 3.00 (kernel XDP' "$OUT" &&
	grep -q "^one run of each mode, as the kernel's figures are: array gain / list gain median 2.25 (1.50 to 3.00), 2.82 or more in 1 of 3 runs (no list gain in 1)$" "$OUT"
ok $? "known rates: the medians' changes and ratio, each run's ratio, a run without list gain left out" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
# a list that loses at the median: no ratio of the medians either
rm "$tmpdir/fake/rpcsim/rpcsim.calls"
printf '100 90 130\n' >"$tmpdir/fake/rpcsim/rpcsim.rates"
run --builddir="$tmpdir/fake" --rounds=1 --threads=1 --free-mix=released:1
[ "$status" -eq 0 ] &&
	grep -q '^array gain / list gain: - (no list gain) (kernel XDP' "$OUT" &&
	grep -q "^one run of each mode, as the kernel's figures are: array gain / list gain none: no list gain in a run$" "$OUT"
ok $? "  a list slower than single: no ratio, from the medians or the run" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"

# --- failures -----------------------------------------------------------------------
run $short --rounds=1 --threads=1 --free-mix=bogus:1
[ "$status" -eq 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q '^page-pool-gains\.sh: rpcsim: --free-mix=bogus:1: ' "$ERR"
ok $? "a mix rpcsim refuses: its one line, exit 2, nothing on stdout" ||
	diag "exit $status: $(cat "$OUT" "$ERR")"
run --builddir="$tmpdir/none"
[ "$status" -eq 1 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
	grep -q "^page-pool-gains\.sh: $tmpdir/none/rpcsim/rpcsim: not built" "$ERR"
ok $? "no rpcsim in --builddir: one line, exit 1" ||
	diag "exit $status: $(cat "$ERR")"

# SIGTERM while rpcsim runs: the script ends (143), and so do the rpcsim
# it started and its temporary folder.
sleeper "$tmpdir/slow/rpcsim/rpcsim" "$tmpdir/slow/pid"
sigterm_run "$tmpdir/slow/pid" --builddir="$tmpdir/slow" --rounds=1 --threads=1
sigterm_ok "SIGTERM mid-run: exit 143, its rpcsim ended, no temporary file left" rpcsim

check_bad_inputs page-pool-gains.sh "$bad_inputs"

exit_status
