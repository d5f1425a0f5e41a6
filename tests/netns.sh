#!/usr/bin/env bash
# A second machine for people who have one: two network namespaces, gb-a
# and gb-b, joined by a veth pair (198.18.0.1 on gb-va, 198.18.0.2 on
# gb-vb), optionally behind a tbf qdisc that emulates a link of a given
# rate.  A thin front end over tests/lib/netns.sh that leaves the test bed
# up between commands:
#
#	tests/netns.sh up [--mtu N] [--rate RATE] [--burst BYTES]
#	tests/netns.sh exec a|b CMD...
#	tests/netns.sh down
#
# Needs root.  "up" refuses to run when gb-a or gb-b already exists; "down"
# ends what still runs in them and deletes them, and is safe to repeat.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"

NETNS_NAME_A=gb-a
NETNS_NAME_B=gb-b
NS_A=$NETNS_NAME_A
NS_B=$NETNS_NAME_B

usage() {
	cat <<'EOF'
usage: tests/netns.sh up [--mtu N] [--rate RATE] [--burst BYTES]
       tests/netns.sh exec a|b CMD...
       tests/netns.sh down

  up      create namespaces gb-a (198.18.0.1, gb-va) and gb-b (198.18.0.2,
          gb-vb) joined by a veth pair; --mtu 1280-65535 (default 1500);
          --rate puts a tbf qdisc of that rate (tc syntax: 1gbit, 100mbit)
          on both ends, --burst sets its bucket (default 8 ms of data)
  exec    run CMD in gb-a or gb-b
  down    delete both namespaces and everything in them
EOF
}

exists() {	# exists NAME: namespace NAME is in "ip netns list"
	local list
	list=$(ip netns list) || return 1
	printf '%s\n' "$list" | awk '{print $1}' | grep -qx "$1"
}

cmd_up() {
	local n
	for n in "$NS_A" "$NS_B"; do
		if exists "$n"; then
			echo "netns.sh: namespace $n exists;" \
			    "run \"tests/netns.sh down\" first" >&2
			return 1
		fi
	done
	netns_setup "$@" || return $?
	# The test bed outlives this script: no cleanup on a normal exit.
	trap - EXIT INT TERM
	cat <<EOF
$NS_A: $IF_A $ADDR_A/$NETNS_PREFIX
$NS_B: $IF_B $ADDR_B/$NETNS_PREFIX
MTU $(netns_exec a cat "/sys/class/net/$IF_A/mtu")$(
	[ -z "${NETNS_BURST_BYTES:-}" ] ||
	    printf ', tbf %s' "$(tc -n "$NS_A" qdisc show dev "$IF_A" |
	    sed -n 's/.* rate \([^ ]*\) burst \([^ ]*\).*/rate \1 burst \2/p')")

Try:
  tests/netns.sh exec b build/gigebench -r -1 &
  tests/netns.sh exec a build/gigebench -t $ADDR_B -T 5
  tests/netns.sh exec b iperf3 -s -1 &
  tests/netns.sh exec a iperf3 -c $ADDR_B -t 5
  tests/netns.sh down
EOF
}

cmd_exec() {
	if [ $# -lt 2 ]; then
		usage >&2
		return 2
	fi
	case $1 in
	a | b) ;;
	*)
		echo "netns.sh: side is a or b: $1" >&2
		return 2
		;;
	esac
	if ! exists "$(netns_name "$1")"; then
		echo "netns.sh: $(netns_name "$1") does not exist;" \
		    "run \"tests/netns.sh up\" first" >&2
		return 1
	fi
	netns_exec "$@"
}

if [ $# -lt 1 ]; then
	usage >&2
	exit 2
fi
cmd=$1
shift
case $cmd in
up | down)
	if [ "$(id -u)" -ne 0 ]; then
		echo "netns.sh: network namespaces need root" >&2
		exit 1
	fi
	;;
esac
case $cmd in
up) cmd_up "$@" ;;
exec) cmd_exec "$@" ;;
down) netns_cleanup ;;
-h | --help | help) usage ;;
*)
	usage >&2
	exit 2
	;;
esac
