#!/usr/bin/env bash
#
# options_bad.sh: every option that takes a value, given a bad one (issue
# 6).  For each option of `gigebench --help` and each class of bad value
# -- missing, another option in its place ("-B -l 8192"), empty,
# non-numeric, trailing garbage, negative, zero, over the maximum,
# overflowing -- in its short and long spellings:
#
#	exit status 2, nothing on stdout, and on stderr exactly one line
#	"gigebench: OPTION: ..." naming the option as typed, plus at most
#	the hint line "Try 'gigebench --help' for more information."
#	(-A, -B and -T, whose ttcp meaning differs, also the one line that
#	says so, and only they)
#
#	GIGEBENCH=build/gigebench bash tests/options_bad.sh
#
# The ranges come from include/base/params.h and src/opts.c.  A cell that is a
# valid value for its option is left out, with the reason next to it in
# the table below.  An option in --help that the table does not know is a
# failure, so new options get rows; a row whose option this build lacks
# is reported as a comment and produces no cases.
#
# Prints "ok - ..." or "FAIL - ..." per case and ends with
# "N passed, M failed"; exits 1 when a case failed.

set -eu
LC_ALL=C
export LC_ALL

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-opts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

passed=0
failed=0
HINT="Try 'gigebench --help' for more information."
# Port 9 (discard): a bad value that wrongly passes fails fast, refused.
BASE="-t -p 9 127.0.0.1"

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	echo "$passed passed, $failed failed"
	exit 1
fi

# Bad values per kind of option, "CLASS VALUE" per line; VALUE may be
# empty or hold blanks.  Cells that are valid for the kind are missing,
# with the reason in a comment.
values()
{
	case $1 in
	size_l)		# -l: 1 byte to 64M
		printf '%s\n' "empty " "non-numeric abc" "trailing 64Kx" \
		    "trailing 12Q" "trailing 1.5K" "negative -1" "negative -64K" \
		    "zero 0" "over-maximum 65M" "over-maximum 67108865" \
		    "overflowing 99999999999999999999" "overflowing 17179869184G"
		;;
	size_rr)	# --request-size, --response-size: 1 byte to 1M
		printf '%s\n' "empty " "non-numeric one" "trailing 1Kx" \
		    "trailing 1.5K" "negative -1" "zero 0" "over-maximum 1025K" \
		    "over-maximum 1048577" "overflowing 99999999999999999999"
		;;
	size_buf)	# -b, -w, --rcvbuf, --sndbuf: 1K to 1G
		printf '%s\n' "empty " "non-numeric big" "trailing 4Mb" \
		    "trailing 0x1000" "negative -1K" "zero 0" "over-maximum 2G" \
		    "over-maximum 1073741825" \
		    "overflowing 99999999999999999999" "overflowing 17179869184G"
		;;
	seconds_T)	# -T: 0.1 to 86400 s
		printf '%s\n' "empty " "non-numeric ten" "trailing 10s" \
		    "trailing 1e3" "trailing 1.5.2" "negative -1" "zero 0" \
		    "zero 0.0001" "over-maximum 86401" \
		    "overflowing 99999999999999999999" \
		    "overflowing 18446744073709551.616"
		;;
	seconds_hs)	# --handshake-timeout: 0.1 to 600 s
		printf '%s\n' "empty " "non-numeric five" "trailing 5s" \
		    "trailing 5.0.1" "negative -5" "zero 0" "zero 0.05" \
		    "over-maximum 601" "overflowing 99999999999999999999" \
		    "overflowing 18446744073709551.616"
		;;
	seconds_silent)	# --silent-timeout: 0.5 to 3600 s
		printf '%s\n' "empty " "non-numeric long" "trailing 10sec" \
		    "trailing 1e1" "negative -10" "zero 0" "zero 0.4" \
		    "over-maximum 3601" "overflowing 99999999999999999999"
		;;
	size_bytes)	# --max-bytes: 1K to 1048576G (2^50)
		printf '%s\n' "empty " "non-numeric lots" "trailing 1T" \
		    "trailing 10GB" "trailing 1.5G" "negative -1G" "zero 0" \
		    "zero 1023" "over-maximum 1048577G" \
		    "over-maximum 1125899906842625" \
		    "overflowing 99999999999999999999" "overflowing 17179869184G"
		;;
	uint_pending)	# --max-pending, --max-pending-source: 1 to 65536
		printf '%s\n' "empty " "non-numeric many" "trailing 16x" \
		    "trailing 16.0" "negative -16" "zero 0" "over-maximum 65537" \
		    "overflowing 4294967297" "overflowing 99999999999999999999"
		;;
	seconds_i)	# -i: 0.1 to 3600 s (0 is not "off" on the command line)
		printf '%s\n' "empty " "non-numeric nan" "trailing 1s" \
		    "trailing 0x10" "negative -0.5" "zero 0" "over-maximum 3601" \
		    "overflowing 99999999999999999999"
		;;
	uint_M)		# -M: 88 to 65535
		printf '%s\n' "empty " "non-numeric mss" "trailing 1460x" \
		    "trailing 1460.0" "negative -1460" "zero 0" \
		    "over-maximum 65536" "overflowing 4294968756" \
		    "overflowing 99999999999999999999"
		;;
	uint_n)		# -n: 1 to 2^40
		printf '%s\n' "empty " "non-numeric many" "trailing 100k" \
		    "negative -1" "zero 0" "over-maximum 1099511627777" \
		    "overflowing 18446744073709551617"
		;;
	uint_P)		# -P, --max-flows: 1 to 10000
		printf '%s\n' "empty " "non-numeric four" "trailing 4x" \
		    "trailing 4.0" "negative -4" "zero 0" "over-maximum 10001" \
		    "overflowing 4294967297" "overflowing 18446744073709551617"
		;;
	uint_threads)	# --threads: 1 to 1024
		printf '%s\n' "empty " "non-numeric two" "trailing 2x" \
		    "negative -2" "zero 0" "over-maximum 1025" \
		    "overflowing 4294967298"
		;;
	uint_probes)	# --probes: 1 to 16
		printf '%s\n' "empty " "non-numeric two" "trailing 2x" \
		    "negative -2" "zero 0" "over-maximum 17" \
		    "overflowing 4294967298"
		;;
	uint_probe_rate)	# --probe-rate: 1 to 1000 a second
		printf '%s\n' "empty " "non-numeric fast" "trailing 100/s" \
		    "trailing 10.5" "negative -10" "zero 0" \
		    "over-maximum 1001" "overflowing 4294967396"
		;;
	phases)		# --phases: upload, download, both, each once
		printf '%s\n' "empty " "non-numeric up" "trailing upload," \
		    "trailing upload,,both" "leading ,upload" "twice both,both" \
		    "negative -1" "case Upload"
		;;
	uint_p)		# -p: 1 to 65535
		printf '%s\n' "empty " "non-numeric http" "trailing 5001/tcp" \
		    "negative -5001" "zero 0" "over-maximum 65536" \
		    "overflowing 4294972297" "overflowing 99999999999999999999"
		;;
	uint_mtu)	# --mtu: 1280 to 65535
		printf '%s\n' "empty " "non-numeric jumbo" "trailing 9000b" \
		    "negative -9000" "zero 0" "over-maximum 65536" \
		    "overflowing 4294976296" "overflowing 99999999999999999999"
		;;
	uint_repeat)	# --repeat: 1 to 1000
		printf '%s\n' "empty " "non-numeric five" "trailing 5x" \
		    "negative -5" "zero 0" "over-maximum 1001" \
		    "overflowing 4294967301" "overflowing 99999999999999999999"
		;;
	rate_link)	# --link-rate: 1m to 10t, bare numbers are Mbit/s
		printf '%s\n' "empty " "non-numeric fast" "trailing 1gb" \
		    "trailing 1.5g" "negative -1g" "zero 0" "zero 0g" \
		    "over-maximum 11t" "over-maximum 10000001" \
		    "overflowing 99999999999999999999" "overflowing 18446744073709552t"
		;;
	rate_fq)	# --fq-rate: 1k to 10t bit/s, bare numbers are Mbit/s
		printf '%s\n' "empty " "non-numeric fast" "trailing 500mbit" \
		    "trailing 1.5g" "negative -1g" "zero 0" "zero 0k" \
		    "over-maximum 11t" "overflowing 99999999999999999999" \
		    "overflowing 18446744073709552k"
		;;
	rate_send)	# -R: bit/s (k m g t) or packets/s (p); 0 is
			# "unpaced", a valid value; without -u any value
			# is refused naming -R as well
		printf '%s\n' "empty " "non-numeric fast" "trailing 100mbit" \
		    "trailing 1.5" "trailing 100kq" "negative -1m" "zero 0p" \
		    "over-maximum 11t" "over-maximum 101mp" \
		    "overflowing 99999999999999999999" \
		    "overflowing 18446744073709552k"
		;;
	uint_batch)	# --batch: 1 to 1024
		printf '%s\n' "empty " "non-numeric all" "trailing 32x" \
		    "trailing 32.0" "negative -1" "zero 0" "over-maximum 1025" \
		    "overflowing 4294967297" "overflowing 99999999999999999999"
		;;
	uint_rrto)	# --rr-timeout: 1 to 10000 ms
		printf '%s\n' "empty " "non-numeric soon" "trailing 100ms" \
		    "trailing 100.0" "negative -1" "zero 0" \
		    "over-maximum 10001" "overflowing 4294967297" \
		    "overflowing 99999999999999999999"
		;;
	tos)		# --tos: 0-255, 0x00-0xff or a DSCP name (EF, CS5, ...);
			# zero is a valid TOS
		printf '%s\n' "empty " "non-numeric lowdelay" "not-a-name AF44" \
		    "trailing 16x" \
		    "trailing 0x" "trailing 010.0" "negative -1" \
		    "over-maximum 256" "over-maximum 0x100" \
		    "overflowing 99999999999999999999" \
		    "overflowing 0x10000000000000000"
		;;
	cpus)		# -A: CPU numbers 0 to 1023 and ranges; "0" is CPU 0
		printf '%s\n' "empty " "non-numeric all" "trailing 0-3x" \
		    "trailing 0," "trailing 3-1" "negative -1" \
		    "over-maximum 1024" "overflowing 99999999999999999999" \
		    "overflowing 0-4294967296"
		;;
	unit)		# -f: one of k m g K M G; magnitudes do not apply
		printf '%s\n' "empty " "non-numeric x" "trailing mm" \
		    "trailing m2" "negative -1" "zero 0"
		;;
	cc)		# -C: [A-Za-z0-9_-], 1-15 characters; "-1" and "0"
			# have that shape (the kernel judges the name)
		printf '%s\n' "empty " "non-numeric cubic!" "trailing cubic x" \
		    "trailing cubic;ls" "over-maximum abcdefghijklmnop" \
		    "overflowing $(printf 'c%.0s' $(seq 1 300))"
		;;
	iface)		# -I: 1-15 bytes, no / : or blanks, not . or ..;
			# "-1" and "0" are valid names
		printf '%s\n' "empty " "non-numeric ." "non-numeric .." \
		    "trailing lo:0" "trailing eth0/x" "trailing lo x" \
		    "over-maximum abcdefghijklmnop" \
		    "overflowing $(printf 'i%.0s' $(seq 1 4096))"
		;;
	confidence)	# --confidence: LEVEL (90, 95, 99),WIDTH (0.1-50 %)
		printf '%s\n' "empty " "non-numeric high" "trailing 95,2x" \
		    "trailing 95,2,3" "trailing 95" "negative -95,2" \
		    "negative 95,-2" "zero 0,0" "zero 95,0" "over-maximum 100,2" \
		    "over-maximum 95,51" "overflowing 99999999999999999999,2" \
		    "overflowing 95,1e999"
		;;
	sweep)		# --sweep: PARAM=LIST within each parameter's range
		printf '%s\n' "empty " "non-numeric mtu=abc" "non-numeric bogus=1" \
		    "non-numeric mtu" "trailing mtu=1500x" "trailing mtu=1500," \
		    "negative mtu=-1500" "zero streams=0" "zero mtu=0" \
		    "over-maximum mtu=65536" "over-maximum length=65M" \
		    "over-maximum streams=1..1000+1" \
		    "overflowing mtu=99999999999999999999" \
		    "overflowing window=17179869184G"
		;;
	text)		# --title: printable ASCII, at most 127 characters
		printf '%s\n' "empty " "control a$(printf '\t')b" \
		    "over-maximum $(printf 'x%.0s' $(seq 128))"
		;;
	name_only)	# -B, --csv, --plot, --psk: any other string is an address or
			# a file name, judged when it is used, not a usage error
		printf '%s\n' "empty "
		;;
	*)
		echo "options_bad.sh: no values for kind $1" >&2
		return 1
		;;
	esac
}

# SHORT LONG KIND [listener] ("-" when there is no short letter).  The
# listener's own options run on a listener bound to 192.0.2.1 (TEST-NET-1,
# not this host's): a bad value that wrongly passes fails at once, and on
# a connecting side they would be refused for the role, not the value.
table="A affinity cpus
B bind name_only
b buffer size_buf
C congestion cc
f format unit
I interface iface
i interval seconds_i
l length size_l
M mss uint_M
n count uint_n
P parallel uint_P
p port uint_p
R rate rate_send
T time seconds_T
w window size_buf
- batch uint_batch
- confidence confidence
- csv name_only
- flow-csv name_only
- fq-rate rate_fq
- handshake-timeout seconds_hs listener
- link-rate rate_link
- max-bytes size_bytes listener
- max-duration seconds_T listener
- max-length size_l listener
- max-pending uint_pending listener
- max-pending-source uint_pending listener
- max-rate rate_link listener
- max-sockbuf size_buf listener
- max-flows uint_P listener
- max-streams uint_P listener
- mtu uint_mtu
- plot name_only
- psk name_only
- rcvbuf size_buf
- repeat uint_repeat
- silent-timeout seconds_silent
- sndbuf size_buf
- sweep sweep
- threads uint_threads
- tos tos
- probe-tos tos
- probes uint_probes
- probe-rate uint_probe_rate
- phases phases
- title text
- bind-dev iface
- cport uint_p
- omit seconds_hs
- request-size size_rr
- response-size size_rr
- rr-burst uint_batch
- rr-timeout uint_rrto"

# The options of this build that take a value, from --help.
rc=0
"$GB" --help >"$tmp/help" 2>"$tmp/help.err" || rc=$?
if [ "$rc" -ne 0 ] || [ -s "$tmp/help.err" ]; then
	fail "gigebench --help exits 0 with nothing on stderr (exit $rc)"
fi
sed -nE 's/^ +(-[A-Za-z0-9], )?--([a-z-]+) [a-z][a-z,=]*  .*/\2/p' \
    "$tmp/help" | sort -u >"$tmp/help.opts"
echo "$table" | awk '{ print $2 }' | sort -u >"$tmp/table.opts"
while read -r o; do
	fail "--$o takes a value in --help but has no row in this table"
done < <(comm -23 "$tmp/help.opts" "$tmp/table.opts")
while read -r o; do
	echo "# --$o: not in this build's --help, no cases"
done < <(comm -13 "$tmp/help.opts" "$tmp/table.opts")
if [ ! -s "$tmp/help.opts" ]; then
	fail "found the options of --help"
fi

# The hint a usage error of a ttcp letter adds (src/opts.c).
ttcp_hint()
{
	case $1 in
	-A) echo "-A is CPU affinity here (ttcp's buffer alignment: --ttcp -A)" ;;
	-B) echo "-B is the bind address here (ttcp's full blocks: --ttcp -B)" ;;
	-T) echo "-T is the test duration here (ttcp's touch: --ttcp -T)" ;;
	esac
}

# run_case LABEL NAME ARGS...: NAME is the option as the message must show it.
run_case()
{
	local label=$1 name=$2 rc=0 why="" n first second
	shift 2
	timeout 10 "$GB" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || why="$why; exit $rc"
	[ ! -s "$tmp/out" ] ||
	    why="$why; stdout: $(head -c 80 "$tmp/out" | tr '\n' ' ')"
	# -A, -B and -T as ttcp knew them: one line saying where ttcp's
	# meaning went comes between (issue 16), and only for them.
	case $name in
	-A | -B | -T)
		if [ "$(sed -n 2p "$tmp/err")" = "gigebench: $(ttcp_hint "$name")" ]
		then
			sed -i 2d "$tmp/err"
		else
			why="$why; no ttcp hint line for $name"
		fi
		;;
	esac
	n=$(wc -l <"$tmp/err")
	first=$(head -n 1 "$tmp/err")
	second=$(sed -n 2p "$tmp/err")
	case $first in
	"gigebench: $name: "*) ;;
	*) why="$why; first stderr line does not name $name:"
	   why="$why $(printf '%.100s' "$first")" ;;
	esac
	if [ "$n" -lt 1 ] || [ "$n" -gt 2 ] ||
	    { [ "$n" -eq 2 ] && [ "$second" != "$HINT" ]; } ||
	    [ "$(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ')" != '\n' ]; then
		why="$why; stderr is $n lines, not one (+ hint)"
	fi
	if [ -z "$why" ]; then
		pass "$label"
	else
		fail "$label # ${why#; }"
	fi
}

# expect_msg TEXT: the last case's first stderr line is "gigebench: TEXT".
expect_msg()
{
	if [ "$(head -n 1 "$tmp/err")" = "gigebench: $1" ]; then
		pass "  ... says \"$1\""
	else
		fail "  ... says \"$1\" # it says: $(head -n 1 "$tmp/err")"
	fi
}

# Printable form of a value for the case label.
shown()
{
	local v=$1
	[ -n "$v" ] || { echo '""'; return; }
	[ ${#v} -le 24 ] || v="${v:0:12}...(${#v} chars)"
	echo "$v"
}

ncases=0
while read -r short long kind role; do
	grep -qx -- "$long" "$tmp/help.opts" || continue
	base="$BASE"
	[ "$long" != port ] || base="-t 127.0.0.1"
	[ "$role" != listener ] || base="-r -p 9 -B 192.0.2.1"
	# shellcheck disable=SC2086	# $base is a list of words
	{
		# missing: the option is the last word.
		if [ "$short" != - ]; then
			run_case "-$short: missing value" "-$short" $base "-$short"
			ncases=$((ncases + 1))
		fi
		run_case "--$long: missing value" "--$long" $base "--$long"
		ncases=$((ncases + 1))
		# another option where the value belongs (issue 16):
		# "-B -l 8192" is "-B: missing value before -l"
		for next in -l --json; do
			if [ "$short" != - ]; then
				run_case "-$short $next: missing value before it" \
				    "-$short" $base "-$short" "$next" 8192
				expect_msg "-$short: missing value before $next"
			fi
			run_case "--$long $next: missing value before it" \
			    "--$long" $base "--$long" "$next" 8192
			expect_msg "--$long: missing value before $next"
			ncases=$((ncases + 2))
		done
		while read -r class value; do
			if [ "$short" != - ]; then
				run_case "-$short $(shown "$value"): $class" \
				    "-$short" $base "-$short" "$value"
			else
				run_case "--$long $(shown "$value"): $class" \
				    "--$long" $base "--$long" "$value"
			fi
			run_case "--$long=$(shown "$value"): $class" "--$long" \
			    $base "--$long=$value"
			ncases=$((ncases + 2))
		done < <(values "$kind")
	}
done <<<"$table"

# Values with a newline: the message must still be one line (fixed in
# 2bea5ca; 6561f51 and ca3b558 echoed the value raw, over two lines).
for o in -l -T -P -C -I; do
	# shellcheck disable=SC2086	# $BASE is a list of words
	run_case "$o with a trailing newline: trailing" "$o" $BASE "$o" \
	    "$(printf '8\nx')"
	ncases=$((ncases + 1))
done

# The listener's limits on a connecting side: a usage error naming the
# option, not a silently ignored one.
for o in --handshake-timeout=5 --max-bytes=1G --max-duration=60 \
    --max-length=1M --max-pending=10 --max-pending-source=2 --max-rate=1g \
    --max-sockbuf=4M --max-streams=4; do
	name=${o%%=*}
	if grep -qx -- "${name#--}" "$tmp/help.opts"; then
		# shellcheck disable=SC2086	# $BASE is a list of words
		run_case "$o with a host: listener only" "$name" $BASE "$o"
		ncases=$((ncases + 1))
	fi
done

# ttcp's habits (issue 16): the usage error, then one line saying where
# ttcp's meaning went, then the "Try" line.
habit()
{
	local label=$1 l1=$2 l2=$3 rc=0
	shift 3
	timeout 10 "$GB" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 2 ] && [ "$(sed -n 1p "$tmp/err")" = "gigebench: $l1" ] &&
	    [ "$(sed -n 2p "$tmp/err")" = "gigebench: $l2" ] &&
	    [ "$(sed -n 3p "$tmp/err")" = "$HINT" ] && [ ! -s "$tmp/out" ]; then
		pass "$label"
	else
		fail "$label # exit $rc: $(tr '\n' '|' <"$tmp/err")"
	fi
	ncases=$((ncases + 1))
}
# shellcheck disable=SC2086	# $BASE is a list of words
{
habit "ttcp's -A 16384 (alignment)" "-A: CPU number is too large (max 1023): 16384" \
    "-A is CPU affinity here (ttcp's buffer alignment: --ttcp -A)" $BASE -A 16384
habit "ttcp's -T with no number (touch)" "-T: missing value before -s" \
    "-T is the test duration here (ttcp's touch: --ttcp -T)" -r -T -s
habit "ttcp's -B with no value (full blocks)" "-B: missing value before -l" \
    "-B is the bind address here (ttcp's full blocks: --ttcp -B)" -r -B -l 8192
habit "ttcp's -O (buffer offset)" "unknown option: -O" \
    "-O is no option here (ttcp's buffer offset: --ttcp -O)" $BASE -O 8
habit "ttcp's -d (SO_DEBUG)" "unknown option: -d" \
    "-d is no option here (ttcp's SO_DEBUG: --ttcp -d)" $BASE -d
}

# --crr (issue 18) takes no value; its combinations instead.  It implies
# --rr, one transaction a connection (no --rr-burst, no --sweep burst=),
# each from a new port (no --cport).
# shellcheck disable=SC2086	# $BASE is a list of words
{
run_case "--crr --rr-burst 2: one transaction a connection" "--rr-burst" \
    $BASE --crr --rr-burst 2
expect_msg "--rr-burst: cannot be used with --crr (one transaction a connection)"
run_case "--crr --cport 30000: a new port each transaction" "--cport" \
    $BASE --crr --cport 30000
expect_msg "--cport: cannot be used with --crr (each transaction connects from a new port)"
run_case "--crr --sweep burst=1,2: one transaction a connection" \
    "--sweep burst=" $BASE --crr --sweep burst=1,2
expect_msg "--sweep burst=: cannot be used with --crr (one transaction a connection)"
ncases=$((ncases + 3))
}

echo "# $ncases cases"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
