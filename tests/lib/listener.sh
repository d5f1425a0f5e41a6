# shellcheck shell=bash disable=SC2034	# LISTENER_* are set for the caller
# tests/lib/listener.sh - a gigebench listener for the shell tests that
# source it: started on a free port (or a given one, or inside a network
# namespace of tests/lib/netns.sh) and waited for until it listens;
# waited for to end; stopped.
#
#	. tests/lib/listener.sh
#	listener_start "$GB" "$tmp/l.out" "$tmp/l.err" -v || exit 1
#	"$GB" -t 127.0.0.1 -p "$LISTENER_PORT" -T 0.2
#	kill -s TERM "$LISTENER_PID"
#	listener_wait_exit "$LISTENER_PID" 2000	# sets LISTENER_RC
#	listener_stop "$LISTENER_PID"
#
# The listener runs under env --default-signal (GNU coreutils 8.31): a
# non-interactive shell starts its background jobs with SIGINT and
# SIGQUIT ignored, and a listener should have the default dispositions
# that a unit file or a terminal would give it.
#
# What it must not do: print ok/FAIL lines or count checks (the caller
# does, with its own names), exit the caller's shell, or kill anything
# but the process id it is given.  Works under "set -eu".

# listener_free_port: prints a TCP port in 20000-29999 that nothing
# listens on; returns 1 when 50 tries found none.
listener_free_port() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 10000))
		if ! ss -Htan "sport = :$p" | grep -q .; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# listener_start [-n NS] [-p PORT] [-a] GB OUT ERR ARG...: runs
# `GB -r -p PORT ARG...` in the background, stdout to OUT and stderr to
# ERR (-a: appended to ERR), and waits (5 s at most) until PORT listens.
# PORT is a free one unless -p gives it; with -n the listener runs in
# network namespace NS (ip netns exec, which execs, so the pid is still
# gigebench's) and the port is looked for there.  Sets LISTENER_PID
# (also when it did not come up) and LISTENER_PORT.  Returns 1 when no
# port was free, 2 when the listener did not listen in time (it may have
# exited: see ERR).
listener_start() {
	local ns="" port="" append=0 gb out err up=0
	while [ $# -gt 0 ]; do
		case $1 in
		-n) ns=$2; shift 2 ;;
		-p) port=$2; shift 2 ;;
		-a) append=1; shift ;;
		*) break ;;
		esac
	done
	gb=$1 out=$2 err=$3
	shift 3
	LISTENER_PID=""
	LISTENER_PORT=""
	if [ -z "$port" ]; then
		port=$(listener_free_port) || return 1
	fi
	LISTENER_PORT=$port
	if [ -n "$ns" ]; then
		if [ "$append" -eq 1 ]; then
			ip netns exec "$ns" env --default-signal "$gb" -r \
			    -p "$port" "$@" >"$out" 2>>"$err" &
		else
			ip netns exec "$ns" env --default-signal "$gb" -r \
			    -p "$port" "$@" >"$out" 2>"$err" &
		fi
	elif [ "$append" -eq 1 ]; then
		env --default-signal "$gb" -r -p "$port" "$@" >"$out" \
		    2>>"$err" &
	else
		env --default-signal "$gb" -r -p "$port" "$@" >"$out" \
		    2>"$err" &
	fi
	LISTENER_PID=$!
	for _ in $(seq 1 50); do
		if listener_listening "$ns" "$port"; then up=1; break; fi
		kill -0 "$LISTENER_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ "$up" -eq 1 ] || return 2
}

# listener_listening NS PORT: something listens on PORT (in namespace
# NS, or here when NS is empty).
listener_listening() {
	if [ -n "$1" ]; then
		ip netns exec "$1" ss -Htln "sport = :$2" | grep -q .
	else
		ss -Htln "sport = :$2" | grep -q .
	fi
}

# listener_wait_exit PID MS: waits at most MS milliseconds for the
# listener PID (a child of this shell) to end; sets LISTENER_RC to its
# exit status, or -1 when it is still running.
listener_wait_exit() {
	local t0
	t0=$(date +%s%3N)
	LISTENER_RC=-1
	while [ $(($(date +%s%3N) - t0)) -lt "$2" ]; do
		if ! kill -0 "$1" 2>/dev/null; then
			LISTENER_RC=0
			wait "$1" 2>/dev/null || LISTENER_RC=$?
			return 0
		fi
		sleep 0.05
	done
}

# listener_stop PID...: continues (if stopped), kills and reaps each
# listener; never fails.
listener_stop() {
	local p
	for p in "$@"; do
		kill -CONT "$p" 2>/dev/null || true
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	return 0
}
