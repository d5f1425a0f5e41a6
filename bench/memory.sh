#!/usr/bin/env bash
#
# memory.sh: resident memory of both ends over one long test and over
# many back-to-back tests (issue 5: "the receiver's and sender's resident
# size stays flat over a 60 s test and over 1,000 back-to-back tests").
# Loopback, no root.  Not a test: it prints figures for bench/README.md.
#
#	bash bench/memory.sh [--seconds S] [--count N] [--modes LIST]
#	    [--parts abc]
#
# a. One test of S seconds (default 60) per mode, a fresh listener each:
#    VmRSS of the listener and of the client from /proc/PID/status every
#    second.  Start is the first sample (1 s in), end the last one before
#    the client exits; growth is end - start.
# b. N back-to-back tests (default 1000) per mode against one listener:
#    its VmRSS when it is idle again after each test (fds and threads back
#    to their idle counts), and each client's peak resident size (wait4's
#    ru_maxrss, through bench/cpuwrap.c).  Each test moves 256 buffers per
#    stream (-n 256: 32 MiB at the default 128K), about 20-50 ms.
# c. N back-to-back tests of mixed shapes (as tests/soak.sh draws them:
#    -P 1-4, -l 16K-1M, either direction, every data path), twice: as
#    built, and with mallopt() made a no-op by an LD_PRELOAD shim, so
#    that the effect of main.c's mallopt(M_MMAP_THRESHOLD, 64K) shows.
#
# Modes (--modes, ';'-separated client options): "-t", "-t -P 4",
# "-t -Z", "-t --sendfile" by default; the client transmits in all four,
# so the listener receives ("-r -Z" would make the listener transmit).
# GIGEBENCH=path picks the binary (copied at the start, as bench/run.sh
# does); CC builds the two helpers.  Exit 0 when every test passed.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
GB_SRC=${GIGEBENCH:-$top/build/gigebench}
CC=${CC:-cc}
seconds=60
count=1000
parts=abc
modes="-t;-t -P 4;-t -Z;-t --sendfile"

usage() { echo "usage: memory.sh [--seconds S] [--count N] [--modes LIST]" \
    "[--parts abc]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || usage; seconds=$2; shift ;;
	--count) [ $# -ge 2 ] || usage; count=$2; shift ;;
	--modes) [ $# -ge 2 ] || usage; modes=$2; shift ;;
	--parts) [ $# -ge 2 ] || usage; parts=$2; shift ;;
	*) usage ;;
	esac
	shift
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-memory.XXXXXX")
srv=""
cli=""
errors=0
# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	for p in $cli $srv; do kill -KILL "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

GB=$tmp/gigebench
cp "$GB_SRC" "$GB"
"$CC" -O2 -o "$tmp/cpuwrap" "$here/cpuwrap.c"
printf '#include <malloc.h>\nint mallopt(int p, int v) '\
'{ (void)p; (void)v; return 1; }\n' >"$tmp/nomallopt.c"
"$CC" -O2 -shared -fPIC -o "$tmp/nomallopt.so" "$tmp/nomallopt.c"

lopts=""
if "$GB" --help 2>/dev/null | grep -q -- '--allow-reverse'; then
	lopts="--allow-reverse"
fi

field()	# field PID NAME: a /proc/PID/status value (kB), builtins only
{
	local k v
	while read -r k v _; do
		[ "$k" != "$2:" ] || { echo "$v"; return 0; }
	done <"/proc/$1/status" 2>/dev/null
	echo ""
}
idle_counts()	# idle_counts PID: "FDS THREADS"
{
	local n=0
	for _ in "/proc/$1/fd/"*; do n=$((n + 1)); done
	echo "$n $(field "$1" Threads)"
}

port=$((20000 + RANDOM % 10000))
start_listener()	# start_listener [env...]: sets $srv and $idle
{
	port=$((port + 1))
	# shellcheck disable=SC2086	# $lopts is zero or one word
	env "$@" "$GB" -S -q -p "$port" $lopts >/dev/null 2>"$tmp/srv.err" &
	srv=$!
	for _ in $(seq 1 50); do
		ss -Htln "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	idle=$(idle_counts "$srv")
}
stop_listener()
{
	kill -TERM "$srv" 2>/dev/null || true
	wait "$srv" 2>/dev/null || true
	srv=""
}
wait_idle()	# the listener's fds and threads back to idle, at most 2 s
{
	local n
	for ((n = 0; n < 200; n++)); do
		[ "$(idle_counts "$srv")" != "$idle" ] || return 0
		sleep 0.01
	done
	return 1
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
stats()	# stats "K K K ...": "min median max" in KiB
{
	echo "$1" | tr ' ' '\n' | grep . | sort -n |
	    awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)], v[NR] }'
}

echo "# gigebench memory, $(date -u +%Y-%m-%dT%H:%M:%SZ)," \
    "$(nproc) CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# binary: $GB_SRC ($("$GB" -V 2>&1 | head -n 1))," \
    "sha256 $(sha256sum "$GB" | cut -c1-12)"

IFS=';' read -r -a mode_list <<<"$modes"

case $parts in *a*)
echo
echo "a. one test of $seconds s per mode; VmRSS in MiB, growth in KiB"
printf '%-16s %-9s %7s %7s %7s %7s %7s\n' mode side idle start max end growth
for m in "${mode_list[@]}"; do
	start_listener
	lidle=$(field "$srv" VmRSS)
	# shellcheck disable=SC2086	# $m is a list of options
	"$GB" $m 127.0.0.1 -p "$port" -q -T "$seconds" >"$tmp/c.out" \
	    2>"$tmp/c.err" &
	cli=$!
	ls_=""; cs_=""
	sleep 1
	while kill -0 "$cli" 2>/dev/null; do
		l=$(field "$srv" VmRSS); c=$(field "$cli" VmRSS)
		[ -z "$l" ] || [ -z "$c" ] || { ls_="$ls_ $l"; cs_="$cs_ $c"; }
		sleep 1
	done
	rc=0
	wait "$cli" || rc=$?
	cli=""
	[ "$rc" -eq 0 ] || { errors=$((errors + 1)); echo "# $m: exit $rc:" \
	    "$(head -n 1 "$tmp/c.err")"; }
	wait_idle || true
	lafter=$(field "$srv" VmRSS)
	for side in listener client; do
		if [ $side = listener ]; then s=$ls_; i=$lidle; else s=$cs_; i=""; fi
		# shellcheck disable=SC2086	# a list of numbers
		set -- $s
		first=${1:-0}
		last=${!#}
		max=$(stats "$s" | cut -d' ' -f3)
		printf '%-16s %-9s %7s %7s %7s %7s %+7d\n' "$m" "$side" \
		    "$( [ -n "$i" ] && mib "$i" || echo -)" "$(mib "$first")" \
		    "$(mib "$max")" "$(mib "$last")" $((last - first))
	done
	echo "# $m: $(echo "$ls_" | wc -w) samples; listener idle again:" \
	    "$(mib "$lafter") MiB; $(tail -n 1 "$tmp/c.out" | cut -c1-60)"
	stop_listener
done
;; esac

# b2b_row LABEL N GENERATOR [ENV...]: N tests against one listener
# (started with ENV), the client's options from GENERATOR; the listener's
# idle VmRSS after each test and each client's peak; prints one row.
b2b_row()
{
	local label=$1 n=$2 gen=$3 i rc rss list="" cmax="" fails=0 l1 l10 l100
	local trail="" step=$(( $2 >= 10 ? $2 / 10 : 1 ))
	shift 3
	start_listener "$@"
	local l0
	l0=$(field "$srv" VmRSS)
	for ((i = 1; i <= n; i++)); do
		rc=0
		"$gen"		# sets $args, in this shell: RANDOM goes on
		# shellcheck disable=SC2086	# $args is a list of options
		"$tmp/cpuwrap" "$tmp/cw" "$GB" $args 127.0.0.1 \
		    -p "$port" -q >/dev/null 2>"$tmp/c.err" || rc=$?
		if [ "$rc" -ne 0 ]; then
			fails=$((fails + 1))
			[ "$fails" -gt 3 ] ||
			    echo "# $label test $i: exit $rc: $(head -n 1 "$tmp/c.err")"
		fi
		wait_idle || { fails=$((fails + 1));
		    echo "# $label test $i: listener not idle after 2 s"; }
		rss=$(field "$srv" VmRSS)
		list="$list $rss"
		cmax="$cmax $(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' "$tmp/cw")"
		case $i in 1) l1=$rss ;; 10) l10=$rss ;; 100) l100=$rss ;; esac
		[ $((i % step)) -ne 0 ] || trail="$trail $rss"
	done
	# shellcheck disable=SC2086	# a list of numbers
	set -- $list
	local last=${!#}
	local after10 tail_max
	after10=$(echo "$list" | tr ' ' '\n' | grep . | tail -n +10 | tr '\n' ' ')
	tail_max=$(stats "$after10" | cut -d' ' -f3)
	read -r cmin cmed cmx < <(stats "$cmax")
	printf '%-22s %6s %6s %6s %6s %6s %6s %+7d | %6s %6s %6s %5s\n' \
	    "$label" "$(mib "$l0")" "$(mib "${l1:-0}")" "$(mib "${l10:-0}")" \
	    "$(mib "${l100:-0}")" "$(mib "$last")" "$(mib "$tail_max")" \
	    $((last - ${l10:-0})) "$(mib "$cmin")" "$(mib "$cmed")" \
	    "$(mib "$cmx")" "$fails"
	echo "#   listener VmRSS KiB every $step tests:$trail"
	errors=$((errors + fails))
	stop_listener
}
b2b_head()
{
	printf '%-22s %6s %6s %6s %6s %6s %6s %7s | %6s %6s %6s %5s\n' \
	    "" idle "#1" "#10" "#100" "#$count" "max" "growth" min median max \
	    fails
	printf '%-22s %s\n' "" "listener VmRSS after test # (max: tests 10-$count; growth, KiB: #$count - #10) | client peak RSS"
}

fixed_args() { args="$mode -n 256"; }
lengths=(16K 32K 64K 128K 256K 512K 1M)
paths=("" "" "" "" -Z --sendfile --skip-rx-copy --splice)
mixed_args()	# soak.sh's shapes, short: -n of 1-8 MiB per stream
{
	local l=${lengths[RANDOM % 7]} b
	case $l in *K) b=$((${l%K} * 1024)) ;; *M) b=$((${l%M} * 1048576)) ;; esac
	local dir=-t
	[ $((RANDOM % 10)) -ge 3 ] || dir=-r
	args="$dir -P $((1 + RANDOM % 4)) -l $l ${paths[RANDOM % 8]}"
	args="$args -n $(( (1 + RANDOM % 8) * 1048576 / b ))"
}

case $parts in *b*)
echo
echo "b. $count back-to-back tests per mode (-n 256 each); MiB, growth KiB"
b2b_head
for mode in "${mode_list[@]}"; do
	b2b_row "$mode" "$count" fixed_args
done
;; esac

case $parts in *c*)
echo
echo "c. $count back-to-back tests of mixed shapes (same draw both rows);"
echo "   MiB, growth KiB"
b2b_head
RANDOM=4242
b2b_row "mixed, as built" "$count" mixed_args
RANDOM=4242
b2b_row "mixed, no mallopt" "$count" mixed_args \
    LD_PRELOAD="$tmp/nomallopt.so"
;; esac

echo
echo "# $errors failed tests"
[ "$errors" -eq 0 ]
