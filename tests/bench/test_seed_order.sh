#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/seed-order.sh in smoke mode (a few requests per run: the table's
# format, never the timing): --help lists every option with its default;
# this build alone (the other missing, with a hint how to make it) gives
# the header, one row per thread count and mode with every column, and
# verdicts that agree with the figures beside them; two stand-in builds
# (this rpcsim with a pcp_impl added to or removed from its JSON) show
# which pcp implementation ran, or "?"; an rpcsim failure exits 1, no
# build at all exits 1, no python3 exits 1 before any run; bad input
# (empty values and a --tcp-read too large for the shell's arithmetic
# included) exits 2 with one line naming the option.

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
# As the script prints it.
top_builddir=$(cd "$top_builddir" && pwd) || bail_out "no $top_builddir"
bench_script seed-order.sh

options="plain asan threads repeat duration requests profile tcp-read"
bad_inputs=$(cat <<'TABLE'
--threads=0	--threads=0
--threads=1,,2	--threads=1,,2
--threads=2,2	--threads=2,2
--threads=4097	--threads=4097
--repeat=0	--repeat=0
--repeat=x	--repeat=x
--duration=0	--duration=0
--duration=1e3	--duration=1e3
--requests=-1	--requests=-1
--profile=fast	--profile=fast
--tcp-read=512	--tcp-read=512
--tcp-read=1x	--tcp-read=1x
--tcp-read=65m	--tcp-read=65m
--tcp-read=99999999m	--tcp-read=99999999m
--tcp-read=	--tcp-read=
--duration=	--duration=
--requests=	--requests=
--profile=	--profile=
--plain=	--plain=
--threads	--threads
--bogus	--bogus
stray	stray
TABLE
)
nr_options=$(echo $options | wc -w)
nr_bad=$(printf '%s\n' "$bad_inputs" | wc -l)
nr_tests=$((1 + nr_options + 14 + 1 + 2 + 2 + 2 + 1 + 1 + 1 + 2 * nr_bad))
plan_tests $nr_tests

have_python ||
	skip_rest "python3 not found (seed-order.sh reads rpcsim's JSON with it)"

run --help
[ "$status" -eq 0 ] && [ ! -s "$ERR" ]
ok $? "--help exits 0, nothing on stderr"
check_help_defaults "$(cat "$OUT")" $options

# This build as the kind it is; the other kind missing.
if grep -q '^#define PP_CONFIG_ASAN 1' "$top_builddir/config.h"; then
	kind=asan other=plain
else
	kind=plain other=asan
fi
run --$kind="$top_builddir" --$other="$tmpdir/none" --threads=1,2 \
	--repeat=1 --requests=100
[ "$status" -eq 0 ]
ok $? "this build alone, --threads=1,2 --repeat=1 --requests=100: exit 0" ||
	diag "exit $status: $(head -c 2000 "$ERR")"
grep -q "no $other build in $tmpdir/none.*setup\\.sh" "$ERR" &&
	grep -q "running the $kind build only" "$ERR"
ok $? "the missing $other build: how to make it, and only $kind runs" ||
	diag "$(cat "$ERR")"

num='[0-9]+\.[0-9]{3}'
head_re='^build +threads +mode +runs +calls +alloc_calls +mean_us +p50_us'
head_re="$head_re +trylock_fail/1k +fallback_trylock/1k +waits +fail<0\\.1"
head_re="$head_re +fallback<0\\.1 +no_waits +order_mean +order_p50\$"
row_re="^(plain|asan) +[0-9]+ +(single|list|array) +[0-9]+ +[0-9,]+ +[0-9,]+"
row_re="$row_re +$num( ±[0-9]+%)? +$num +$num +$num +[0-9]+( +(yes|no)){5}\$"
rows=$(grep -E '^(plain|asan) ' "$OUT")

grep -Eq "^seed order: rpcsim --alloc=all --requests=100, 1 run per mode" "$OUT"
ok $? "the first line says what ran" || diag "$(head -n 1 "$OUT")"
load='[0-9]+\.[0-9]+'
grep -Eq "^load average at start: $load $load $load$" "$OUT" &&
	grep -Eq "^load average at end: $load $load $load$" "$OUT"
ok $? "the load average at start and at end" ||
	diag "$(grep load "$OUT")"
grep -Eq "^$kind: +$top_builddir \\(rpcsim [0-9.]+, pcp implementation [^ ]+, profile (kernel|lean)\\)$" "$OUT" &&
	! grep -q "^$other: " "$OUT"
ok $? "the $kind build named with the pcp implementation, not the $other" ||
	diag "$(grep -E '^(plain|asan):' "$OUT")"
[ "$(grep -Ec "$head_re" "$OUT")" -eq 1 ]
ok $? "one header line with every column" || diag "$(sed -n 6p "$OUT")"
[ "$(printf '%s\n' "$rows" | grep -Evc "$row_re")" -eq 0 ]
ok $? "every row has every column" ||
	diag "$(printf '%s\n' "$rows" | grep -Ev "$row_re")"
[ "$(printf '%s\n' "$rows" | awk '{ print $1, $2, $3, $4 }' | tr '\n' ,)" = \
	"$kind 1 single 1,$kind 1 list 1,$kind 1 array 1,$kind 2 single 1,$kind 2 list 1,$kind 2 array 1," ]
ok $? "one row per thread count and mode, in order, 1 run each" ||
	diag "$rows"
# --requests=100 makes 100 svc_alloc_arg() calls per run; each makes at
# least one allocator call.
printf '%s\n' "$rows" | awk '{ c = $5; a = $6; gsub(",", "", c);
	gsub(",", "", a); if (c != 100 || a + 0 < 100) bad = 1 }
	END { exit bad }'
ok $? "calls: 100 per run; alloc_calls at least as many" || diag "$rows"
# Verdicts against the figures printed beside them (ties at three
# decimals say nothing about the order).
printf '%s\n' "$rows" | awk '
	{ n = NF; v = (NF == 17); }
	function want(cond) { return cond ? "yes" : "no" }
	$(n - 4) != want($(9 + v) < 0.1) || $(n - 3) != want($(10 + v) < 0.1) ||
	$(n - 2) != want($(11 + v) == 0) { bad = 1 }
	END { exit bad }'
ok $? "fail<0.1, fallback<0.1 and no_waits agree with their columns" ||
	diag "$rows"
printf '%s\n' "$rows" | awk '
	{ v = (NF == 17); mean[$3] = $7; p50[$3] = $(8 + v);
	  om[$3] = $(NF - 1); op[$3] = $NF }
	function check(x, verdict) {
		if (x["single"] > x["list"] && x["list"] > x["array"])
			return verdict == "yes"
		if (x["single"] < x["list"] || x["list"] < x["array"])
			return verdict == "no"
		return 1
	}
	$3 == "array" {
		if (om["single"] != om["list"] || om["list"] != om["array"] ||
		    op["single"] != op["list"] || op["list"] != op["array"] ||
		    !check(mean, om["array"]) || !check(p50, op["array"]))
			bad = 1
	}
	END { exit bad }'
ok $? "order_mean and order_p50: one verdict per thread count, as the figures say" ||
	diag "$rows"
grep -Eq "^targets: failures and fallbacks below 0\\.1 per 1,000 allocator calls in [0-6] of 6 cells, no retry waits in [0-6] of 6; single > list > array by mean in [0-2] of 2 build x thread counts, by median in [0-2] of 2\$" "$OUT"
ok $? "the targets' summary line" || diag "$(grep '^targets' "$OUT")"
# table_rows REGEX: the lines after the line REGEX matches in $OUT, up
# to the next empty line.
table_rows()
{
	awk -v re="$1" '$0 ~ re { on = 1; next } on && $0 == "" { exit } on' \
		"$OUT"
}

# The medians by refill size: a header, one row per thread count of this
# build, each kind's three medians and a verdict that they say.
refill_rows=$(table_rows '^medians by refill size' | sed 1d)
[ "$(table_rows '^medians by refill size' | sed -n 1p)" = \
	"  build threads  one:single    list   array order  more:single    list   array order" ] &&
	[ "$(printf '%s\n' "$refill_rows" | awk '{ print $1, $2 }' | tr '\n' ,)" = "$kind 1,$kind 2," ] &&
	printf '%s\n' "$refill_rows" | awk '
	function want(a, b, c) { return a > b && b > c ? "yes" : "no" }
	NF != 10 { bad = 1 }
	{ for (i = 3; i <= 10; i++)
		if (i != 6 && i != 10 && $i !~ /^[0-9]+\.[0-9][0-9][0-9]$/)
			bad = 1
	  if ($6 != want($3 + 0, $4 + 0, $5 + 0) ||
	      $10 != want($7 + 0, $8 + 0, $9 + 0))
		bad = 1 }
	END { exit bad }'
ok $? "the medians by refill size: one row per thread count, each kind's order as its figures say" ||
	diag "$(table_rows '^medians by refill size')"
grep -Eq "^by refill size: single > list > array by the median of the calls that refilled more than one page in [0-2] of 2, of those that refilled one page in [0-2] of 2\$" "$OUT"
ok $? "the by-refill summary line" || diag "$(grep '^by refill' "$OUT")"
# The ratios of the means beside the seed's: one row for the seed, one
# per thread count, each the quotient of the means in the rows above
# (within what the means' three decimals allow).
ratio_rows=$(table_rows '^ratios of the means' | grep -E '^  (seed|plain|asan) ')
printf '%s\n' "$rows" | awk -v ratios="$ratio_rows" '
	{ mean[$2 "/" $3] = $7 }
	# The means are printed to three decimals: 1 % of slack.
	function off(printed, r) { return printed < 0.99 * r - 0.005 ||
					  printed > 1.01 * r + 0.005 }
	END {
		n = split(ratios, line, "\n")
		if (n != 3 || line[1] !~ /^  seed +- +4\.00 +5\.45 +1\.36 +-$/)
			exit 1
		for (i = 2; i <= n; i++) {
			split(line[i], f, " ")
			t = f[2]
			if (f[6] != "-" && f[1] != "asan")
				exit 1
			if (off(f[3], mean[t "/single"] / mean[t "/list"]) ||
			    off(f[4], mean[t "/single"] / mean[t "/array"]) ||
			    off(f[5], mean[t "/list"] / mean[t "/array"]))
				exit 1
		}
	}'
ok $? "the ratios beside the seed's: the seed's 4.00, 5.45, 1.36, then each thread count's quotients of the means" ||
	diag "$ratio_rows"

# Stand-in builds: this rpcsim, its JSON with config.pcp_impl set (plain)
# or removed (asan) and config.asan saying which build it is.
for b in plain asan; do
	mkdir -p "$tmpdir/$b/rpcsim"
	cat >"$tmpdir/$b/rpcsim/rpcsim" <<EOF
#!/bin/sh
"$RPCSIM" "\$@" >"$tmpdir/$b/json" || exit
python3 - "$tmpdir/$b/json" $b <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["config"]["asan"] = sys.argv[2] == "asan"
if sys.argv[2] == "plain":
    doc["config"]["pcp_impl"] = "stand-in"
else:
    doc["config"].pop("pcp_impl", None)
json.dump(doc, sys.stdout)
PY
EOF
	chmod +x "$tmpdir/$b/rpcsim/rpcsim"
done
run --plain="$tmpdir/plain" --asan="$tmpdir/asan" --threads=1 --repeat=1 \
	--requests=20
[ "$status" -eq 0 ] && [ ! -s "$ERR" ] &&
	[ "$(grep -Ec "^(plain +1 +(single|list|array)|asan +1 +(single|list|array)) " "$OUT")" -eq 6 ]
ok $? "two builds: both run, three rows each, nothing on stderr" ||
	diag "exit $status: $(head -c 2000 "$ERR")"
grep -q "^plain: .*, pcp implementation stand-in, profile .*)$" "$OUT" &&
	grep -q "^asan: .*, pcp implementation ?, profile .*)$" "$OUT"
ok $? "the pcp implementation from rpcsim's JSON, ? when it says none" ||
	diag "$(grep -E '^(plain|asan):' "$OUT")"

# SIGTERM while rpcsim runs: the script ends (143), and so do the rpcsim
# it started and its temporary folder.
sleeper "$tmpdir/slow/rpcsim/rpcsim" "$tmpdir/slow/pid"
sigterm_run "$tmpdir/slow/pid" --plain="$tmpdir/slow" --asan="$tmpdir/none" \
	--threads=1 --repeat=1 --requests=20
sigterm_ok "SIGTERM mid-run: exit 143, its rpcsim ended, no temporary file left" rpcsim

# --tcp-read reaches rpcsim: the header says it, and rpcsim's JSON made
# more calls than requests (a WRITE's record came in pieces).
run --$kind="$top_builddir" --$other="$tmpdir/none" --threads=1 --repeat=1 \
	--requests=20 --tcp-read=64k
calls=$(awk '$2 == 1 && $3 == "array" { gsub(",", "", $5); print $5 }' "$OUT")
[ "$status" -eq 0 ] &&
	grep -Eq "^seed order: rpcsim --alloc=all --requests=20 --tcp-read=64k, " "$OUT" &&
	[ "${calls:-0}" -gt 20 ]
ok $? "--tcp-read=64k is passed to rpcsim: more calls ($calls) than 20 requests" ||
	diag "exit $status: $(head -n 1 "$OUT"; head -c 500 "$ERR")"

mkdir -p "$tmpdir/broken/rpcsim"
printf '#!/bin/sh\necho "rpcsim: it broke" >&2\nexit 1\n' \
	>"$tmpdir/broken/rpcsim/rpcsim"
chmod +x "$tmpdir/broken/rpcsim/rpcsim"
run --plain="$tmpdir/broken" --asan="$tmpdir/none" --threads=1 --repeat=1 \
	--requests=1
[ "$status" -eq 1 ]
ok $? "rpcsim failing: exit 1" || diag "exit $status"
grep -q "rpcsim/rpcsim .* failed:" "$ERR" && grep -q "^rpcsim: it broke" "$ERR"
ok $? "rpcsim failing: the command and rpcsim's own message" ||
	diag "$(cat "$ERR")"

run --plain="$tmpdir/none" --asan="$tmpdir/none"
[ "$status" -eq 1 ] && [ ! -s "$OUT" ]
ok $? "no build at all: exit 1, nothing on stdout" || diag "exit $status"
grep -q "neither build found" "$ERR" &&
	[ "$(grep -c 'make it with: .*setup\.sh' "$ERR")" -eq 2 ]
ok $? "no build at all: how to make each, and why nothing ran" ||
	diag "$(cat "$ERR")"

# Without python3 (a PATH of every command but it): refused before any
# run, not after all of them.
mkdir -p "$tmpdir/nopy" "$tmpdir/counted/rpcsim"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
	case ${f##*/} in python3*) continue ;; esac
	[ -e "$tmpdir/nopy/${f##*/}" ] || ln -s "$f" "$tmpdir/nopy/${f##*/}"
done
printf '#!/bin/sh\necho ran >>"$0.ran"\nexit 1\n' >"$tmpdir/counted/rpcsim/rpcsim"
chmod +x "$tmpdir/counted/rpcsim/rpcsim"
PATH=$tmpdir/nopy run --plain="$tmpdir/counted" --asan="$tmpdir/none" \
	--threads=1 --repeat=1 --requests=1
[ "$status" -eq 1 ] && [ ! -s "$OUT" ] &&
	grep -q "^seed-order.sh: python3 not found" "$ERR" &&
	[ ! -f "$tmpdir/counted/rpcsim/rpcsim.ran" ]
ok $? "no python3: exit 1 before any run" ||
	diag "exit $status: $(cat "$ERR")"

check_bad_inputs seed-order.sh "$bad_inputs"

exit_status
