# tests/lib/netns.sh - a two-host test bed on one machine, for tests that
# source it.  Two network namespaces, A and B, joined by a veth pair and
# addressed from 198.18.0.0/15 (RFC 2544, reserved for benchmarking), with
# an optional tbf qdisc on both ends that turns the pair into an emulated
# link of a given rate (this kernel has tbf, not netem).
#
#	. tests/lib/netns.sh
#	if ! netns_need_root >/dev/null; then	# sets NETNS_MISSING
#		skip_or_fail "$NETNS_MISSING"	# tests/lib/skip.sh
#		exit $?
#	fi
#	netns_setup --mtu 9000 --rate 1gbit
#	netns_exec b iperf3 -s -1 &
#	netns_exec a iperf3 -c "$ADDR_B"
#	netns_cleanup
#
# netns_setup installs traps on EXIT, INT and TERM that call netns_cleanup
# (INT and TERM then exit 130 and 143), and so replaces any trap the
# caller set before it; it does not chain them.  A caller that needs its
# own trap sets it after netns_setup and calls netns_cleanup from it.
# netns_cleanup is idempotent and never fails.
#
# What it must not do: touch any interface, address or route outside the
# two namespaces it made, or exit the caller's shell (functions return
# nonzero with a reason on stderr).  Works under "set -eu".
#
# Why the default tbf burst is what it is (measured on 6.x, BBR, 2 CPUs):
# TCP small queues keep only about 1 ms of data (two 64K GSO skbs) in the
# qdisc, so any stall of the sender longer than that idles the link; a
# real NIC hides such stalls behind its TX ring.  The tbf bucket plays the
# ring's part: tokens saved while the link idles let the sender catch up.
# At 1 Gbit/s with 5 s runs, bursts of 16K and 64K lose 1-2 % (and tbf
# must split the 64K GSO skbs); 128K and 256K lose 0.2-1.8 % when other
# work shares the CPUs; 512K mostly stays within 0.2 %, with dips to
# -0.6 %; 1M stays within -0.3 %.  The price is that the bucket starts
# full: its bytes cross at once, which adds burst*8/T bit/s to a test of T
# seconds (1,000,000 bytes over 5 s: +1.6 Mbit/s, +0.17 % at 1gbit).  The
# default is the data of 8 ms at the rate, at least 64K + 2 frames (so
# that tbf never splits a GSO skb) and at most 4M: 1gbit gets 1,000,000
# bytes.

# shellcheck source=tests/lib/skip.sh
. "$(dirname "${BASH_SOURCE[0]}")/skip.sh"

NETNS_MTU_MIN=1280
NETNS_MTU_MAX=65535
NETNS_ADDR_A=198.18.0.1
NETNS_ADDR_B=198.18.0.2
NETNS_PREFIX=24
# The queue behind the bucket, in time at the rate (tbf "latency"); TCP
# small queues keep it mostly empty, it matters with many streams.
NETNS_LATENCY=20ms

# netns_need_root: 0 when this process can build the test bed; otherwise
# prints "SKIP: <reason>", sets NETNS_MISSING to the reason and returns 1
# (a test discards the line and passes the reason to skip_or_fail: a
# skip, or a failure under CI; bench/run.sh reads the line).  Probes by making a
# throwaway namespace with a tbf qdisc on its loopback, then deleting it.
netns_need_root() {
	local probe="gb-probe-$$" cmd
	NETNS_MISSING=""
	if [ "$(id -u)" -ne 0 ]; then
		NETNS_MISSING="network namespaces need root"
		echo "SKIP: $NETNS_MISSING"
		return 1
	fi
	for cmd in ip tc; do
		if ! command -v "$cmd" >/dev/null 2>&1; then
			NETNS_MISSING="$cmd not found (Debian package iproute2)"
			echo "SKIP: $NETNS_MISSING"
			return 1
		fi
	done
	if ! ip netns add "$probe" 2>/dev/null; then
		NETNS_MISSING="cannot create a network namespace (ip netns add)"
		echo "SKIP: $NETNS_MISSING"
		return 1
	fi
	if ! ip -n "$probe" link set lo up 2>/dev/null ||
	    ! tc -n "$probe" qdisc add dev lo root tbf rate 1gbit \
	    burst 64k latency 10ms 2>/dev/null; then
		ip netns del "$probe" 2>/dev/null || true
		NETNS_MISSING="the tbf qdisc is not available (sch_tbf)"
		echo "SKIP: $NETNS_MISSING"
		return 1
	fi
	if ! ip netns del "$probe" 2>/dev/null; then
		NETNS_MISSING="cannot delete a network namespace (ip netns del)"
		echo "SKIP: $NETNS_MISSING"
		return 1
	fi
	return 0
}

# netns_rate_bps RATE: prints RATE (tc syntax: 100mbit, 1gbit, 10Gbit,
# 500kbit, 125mbps...) in bit/s; returns 1 for a form it does not know.
netns_rate_bps() {
	local r n unit mul
	r=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
	case $r in
	*[!0-9a-z]* | '') return 1 ;;
	esac
	n=${r%%[a-z]*}
	unit=${r#"$n"}
	[ -n "$n" ] || return 1
	case $unit in
	bit) mul=1 ;;
	kbit) mul=1000 ;;
	mbit) mul=1000000 ;;
	gbit) mul=1000000000 ;;
	tbit) mul=1000000000000 ;;
	bps) mul=8 ;;
	kbps) mul=8000 ;;
	mbps) mul=8000000 ;;
	gbps) mul=8000000000 ;;
	*) return 1 ;;
	esac
	# strip leading zeros so that bash does not read the number as octal
	n=$(printf '%s' "$n" | sed 's/^0*//')
	[ -n "$n" ] || return 1
	[ "${#n}" -le 6 ] || return 1
	echo $((n * mul))
}

# netns_size_bytes SIZE: prints SIZE (bytes, or with k/m suffix, powers of
# 1024, optionally followed by b as tc writes it) in bytes.
netns_size_bytes() {
	local s n unit
	s=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
	s=${s%b}
	case $s in
	'' | *[!0-9km]*) return 1 ;;
	esac
	n=${s%[km]}
	unit=${s#"$n"}
	case $n in
	'' | *[!0-9]*) return 1 ;;
	esac
	n=$(printf '%s' "$n" | sed 's/^0*//')
	[ -n "$n" ] && [ "${#n}" -le 9 ] || return 1
	case $unit in
	'') echo "$n" ;;
	k) echo $((n * 1024)) ;;
	m) echo $((n * 1024 * 1024)) ;;
	esac
}

# netns_setup [--mtu N] [--rate RATE] [--burst BYTES] [--queues Q]: builds
# the test bed and exports NS_A NS_B IF_A IF_B ADDR_A ADDR_B, and
# NETNS_BURST_BYTES (the tbf bucket in bytes; empty without --rate).  RATE
# is an integer in tc's units (bit, kbit, mbit, gbit, tbit, bps, kbps,
# mbps, gbps); BYTES an integer with an optional k or m (powers of 1024);
# Q the rx and tx queues of each end of the veth pair (1-64; the kernel's
# default is 1).  Usage errors
# return 2, failures of ip or tc 1 (after cleaning up).  Namespaces are named
# gb-a-<pid> and gb-b-<pid> unless NETNS_NAME_A/NETNS_NAME_B are set (the
# CLI in tests/netns.sh uses that for its persistent gb-a and gb-b).
netns_setup() {
	local mtu=1500 rate="" burst="" queues=1
	local rate_bps burst_bytes frame ns dev
	while [ $# -gt 0 ]; do
		case $1 in
		--mtu | --rate | --burst | --queues)
			if [ $# -lt 2 ]; then
				echo "netns_setup: $1 needs a value" >&2
				return 2
			fi
			case $1 in
			--mtu) mtu=$2 ;;
			--rate) rate=$2 ;;
			--burst) burst=$2 ;;
			--queues) queues=$2 ;;
			esac
			shift 2
			;;
		*)
			echo "netns_setup: unknown option: $1" >&2
			return 2
			;;
		esac
	done
	case $mtu in
	'' | *[!0-9]*) mtu=bad ;;
	esac
	if [ "$mtu" = bad ] || [ "${#mtu}" -gt 5 ] ||
	    [ "$mtu" -lt "$NETNS_MTU_MIN" ] || [ "$mtu" -gt "$NETNS_MTU_MAX" ]; then
		echo "netns_setup: MTU is out of range" \
		    "($NETNS_MTU_MIN-$NETNS_MTU_MAX): $mtu" >&2
		return 2
	fi
	case $queues in
	[1-9] | [1-5][0-9] | 6[0-4]) ;;
	*)
		echo "netns_setup: queues is out of range (1-64): $queues" >&2
		return 2
		;;
	esac
	frame=$((mtu + 14))
	if [ -n "$rate" ]; then
		if ! rate_bps=$(netns_rate_bps "$rate") || [ "$rate_bps" -lt 8000 ]; then
			echo "netns_setup: rate is not a tc rate of at least" \
			    "8kbit (like 1gbit): $rate" >&2
			return 2
		fi
		if [ -n "$burst" ]; then
			if ! burst_bytes=$(netns_size_bytes "$burst"); then
				echo "netns_setup: burst is not a size" \
				    "(like 512k): $burst" >&2
				return 2
			fi
		else
			# 8 ms of data, within [64K + 2 frames, 4M]
			burst_bytes=$((rate_bps / 8 / 125))
			[ "$burst_bytes" -ge $((65536 + 2 * frame)) ] ||
			    burst_bytes=$((65536 + 2 * frame))
			[ "$burst_bytes" -le 4194304 ] || burst_bytes=4194304
		fi
		if [ "$burst_bytes" -lt "$frame" ]; then
			echo "netns_setup: burst is smaller than one frame" \
			    "of MTU $mtu ($frame bytes): $burst" >&2
			return 2
		fi
	elif [ -n "$burst" ]; then
		echo "netns_setup: --burst needs --rate" >&2
		return 2
	fi

	NS_A=${NETNS_NAME_A:-gb-a-$$}
	NS_B=${NETNS_NAME_B:-gb-b-$$}
	IF_A=gb-va
	IF_B=gb-vb
	ADDR_A=$NETNS_ADDR_A
	ADDR_B=$NETNS_ADDR_B
	NETNS_BURST_BYTES=${burst_bytes:-}
	export NS_A NS_B IF_A IF_B ADDR_A ADDR_B NETNS_BURST_BYTES
	trap netns_cleanup EXIT
	trap 'netns_cleanup; exit 130' INT
	trap 'netns_cleanup; exit 143' TERM

	# The veth is created inside A, its peer moved to B at birth, so that
	# no interface ever appears in the caller's namespace.  IPv6 is off
	# in both namespaces: its link-local chatter (DAD, router
	# solicitations, MLD) would add packets to the counters under test.
	if ! { ip netns add "$NS_A" && ip netns add "$NS_B" &&
	    netns_sysctl_v6off "$NS_A" && netns_sysctl_v6off "$NS_B" &&
	    ip -n "$NS_A" link add "$IF_A" mtu "$mtu" \
	    numtxqueues "$queues" numrxqueues "$queues" type veth \
	    peer name "$IF_B" netns "$NS_B" mtu "$mtu" \
	    numtxqueues "$queues" numrxqueues "$queues" &&
	    ip -n "$NS_A" addr add "$ADDR_A/$NETNS_PREFIX" dev "$IF_A" &&
	    ip -n "$NS_B" addr add "$ADDR_B/$NETNS_PREFIX" dev "$IF_B" &&
	    ip -n "$NS_A" link set lo up && ip -n "$NS_B" link set lo up &&
	    ip -n "$NS_A" link set "$IF_A" up &&
	    ip -n "$NS_B" link set "$IF_B" up; }; then
		echo "netns_setup: could not build $NS_A <-> $NS_B" >&2
		netns_cleanup
		return 1
	fi
	if [ -n "$rate" ]; then
		for ns in a b; do
			if [ $ns = a ]; then dev=$IF_A; else dev=$IF_B; fi
			if ! tc -n "$(netns_name $ns)" qdisc add dev "$dev" root \
			    tbf rate "$rate" burst "$burst_bytes" \
			    latency "$NETNS_LATENCY"; then
				echo "netns_setup: tc tbf on $dev failed" >&2
				netns_cleanup
				return 1
			fi
		done
	fi
	return 0
}

# netns_sysctl_v6off NS: turns IPv6 off for interfaces made later in NS.
netns_sysctl_v6off() {
	ip netns exec "$1" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6 &&
	    echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null ||
	    [ ! -d /proc/sys/net/ipv6 ]
}

# netns_name a|b: the namespace's name.
netns_name() {
	case ${1:-} in
	a) echo "${NS_A:?netns_setup has not run}" ;;
	b) echo "${NS_B:?netns_setup has not run}" ;;
	*)
		echo "netns: side is a or b: ${1:-}" >&2
		return 2
		;;
	esac
}

# netns_exec a|b CMD...: runs CMD in that namespace; its exit status.
netns_exec() {
	local ns
	ns=$(netns_name "${1:-}") || return 2
	shift
	ip netns exec "$ns" "$@"
}

# netns_cleanup: ends the processes still running in the two namespaces
# (a namespace, and the veth in it, lives on while a process is inside),
# then deletes them, and with them the veth pair and its qdiscs.
# Idempotent; never fails, so that it is safe in any trap.
netns_cleanup() {
	local ns
	for ns in "${NS_A:-}" "${NS_B:-}"; do
		[ -z "$ns" ] || netns_remove "$ns"
	done
	return 0
}

# netns_remove NS: ends the processes in namespace NS (TERM, then KILL
# after a second) and deletes it; nothing when there is no NS.  Never
# fails (tests/mesh.sh removes its fleet's namespaces with it too).
netns_remove() {
	local pids
	[ -e "/run/netns/$1" ] || return 0
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(ip netns pids "$1" 2>/dev/null) || pids=""
		[ -n "$pids" ] || break
		# shellcheck disable=SC2086
		kill $pids 2>/dev/null || true
		sleep 0.1
	done
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086
		kill -KILL $pids 2>/dev/null || true
	fi
	ip netns del "$1" 2>/dev/null || true
	return 0
}
