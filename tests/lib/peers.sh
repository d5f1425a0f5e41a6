# tests/lib/peers.sh: ports and peers in the background, for the scripts
# that start their own receivers (tests/ttcp.sh, tests/ttcp_classic.sh).
# The caller sets tmp (a directory), bound (seconds a process may run)
# and a trap that kills $bg.
#
#	port_free [LOW HIGH]	prints a port from LOW-HIGH (40000-49999)
#				that no TCP or UDP socket holds now
#	wait_bound PROTO PORT	0 once a tcp listener or a udp socket is
#				bound on PORT (5 s at most)
#	bg_start NAME PROTO PORT CMD...
#				CMD in the background (bounded by timeout),
#				its output in $tmp/NAME.out and .err, its
#				pid in bg; returns once it is bound on PORT
#	bg_wait			its exit status
#	pair NAME PROTO PORT RX... -- TX...
#				RX in the background, then TX to its end:
#				rc and rrc their exit statuses, output in
#				$tmp/NAME-t.* and $tmp/NAME-r.*

bg=""

port_free() {
	local p lo=${1:-40000} hi=${2:-49999}
	for _ in $(seq 1 100); do
		p=$((lo + RANDOM % (hi - lo + 1)))
		if [ -z "$(ss -Htuan "sport = :$p")" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

wait_bound() {
	local flag=-Htln
	[ "$1" = udp ] && flag=-Huln
	for _ in $(seq 1 250); do
		[ -z "$(ss "$flag" "sport = :$2")" ] || return 0
		sleep 0.02
	done
	return 1
}

bg_start() {
	local name=$1 proto=$2 port=$3
	shift 3
	timeout -k 5 "$bound" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" \
	    </dev/null &
	bg=$!
	wait_bound "$proto" "$port" || fail "$name: bound on $proto port $port"
}

bg_wait() {
	local rc=0
	wait "$bg" || rc=$?
	bg=""
	return "$rc"
}

pair() {
	local name=$1 proto=$2 port=$3 rxc=()
	shift 3
	while [ "$1" != -- ]; do
		rxc+=("$1")
		shift
	done
	shift
	bg_start "$name-r" "$proto" "$port" "${rxc[@]}"
	rc=0
	timeout -k 5 "$bound" "$@" >"$tmp/$name-t.out" 2>"$tmp/$name-t.err" ||
	    rc=$?
	rrc=0
	bg_wait || rrc=$?
}
