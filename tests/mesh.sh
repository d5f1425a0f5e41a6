#!/usr/bin/env bash
# tests/mesh.sh: the fleet mesh of contrib/ansible on a simulated fleet
# (issue 20).  Four "hosts" h1-h4, each a network namespace with its own
# hostname (a UTS namespace) and its own sshd on its address, joined by a
# bridge in a fifth namespace, the controller's, from which
# ansible-playbook reaches them over real SSH with a key made here:
#
#	ctl (bridge, 198.18.20.254) --+-- h1 198.18.20.1 --+
#	                              +-- h2 198.18.20.2   | a link of its own
#	                              +-- h3 198.18.20.3   | for h1 -> h4 only,
#	                              +-- h4 198.18.20.4 --+ tbf 50 Mbit/s
#
# Every host sends through a tbf qdisc of 400 Mbit/s on its own port (a
# fleet of links, not of CPUs: 2 tests at once on 2 CPUs would otherwise
# measure the CPU share), except h1 to h4, routed over a link of its own
# limited to 50 Mbit/s: the one slow pair.  Checks:
#   1. the bed: each host answers over SSH with its own hostname;
#   2. the role (mesh.yml --tags install, gigebench_install=binary,
#      gigebench_service=process: no systemd here) installs gigebench and
#      starts one listener in each host's namespace, and a second run
#      changes nothing;
#   3. a test into h2 from the controller holds h2's listener while the
#      mesh starts: the mesh's test into h2 is refused as busy, tried
#      again and done;
#   4. the mesh (--tags mesh,merge) fetches 12 results, one per ordered
#      pair, each a finished test, h1 -> h4 at 80-101 % of 50 Mbit/s
#      and the others at more than 240 Mbit/s;
#   5. gigebench merge's matrix: every ordered pair present, nothing
#      missing, h1 -> h4 the one outlier and explained as the path
#      between them, the CSV's 12 rows and the heat map;
#   6. afterwards nothing it made is left: no namespace, process, key or
#      file.
# Root; without it "# SKIP" (a failure under CI: tests/lib/skip.sh).  It
# needs ansible, openssh-server (sshd, not started as a service: each
# host runs its own), iproute2 and util-linux.  About 90 s.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
. "$here/lib/tally.sh"
. "$here/lib/netns.sh"	# skip.sh, netns_remove

if [ "$(id -u)" -ne 0 ]; then
	skip_or_fail "network namespaces and sshd need root"
	exit $?
fi
for t in ansible-playbook /usr/sbin/sshd ssh-keygen ip tc unshare \
    start-stop-daemon; do
	if ! command -v "$t" >/dev/null; then
		skip_or_fail "$t is not installed (apt-get install ansible openssh-server iproute2 util-linux)"
		exit $?
	fi
done

NET=198.18.20
HOSTS="1 2 3 4"
SLOW_RATE=50mbit
SLOW_MBPS=50
LINK_RATE=400mbit
id=$$
ctl=gbm-ctl-$id
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-mesh.XXXXXX")
made_run_sshd=
blocker=

ns() { echo "gbm-h$1-$id"; }

cleanup()
{
	local n
	[ -z "$blocker" ] || kill "$blocker" 2>/dev/null
	for n in $HOSTS; do
		netns_remove "$(ns "$n")"
	done
	netns_remove "$ctl"
	[ -z "$made_run_sshd" ] || rmdir /run/sshd 2>/dev/null
	# MESH_LOGS=DIR keeps the plays' logs and the results there.
	[ -z "${MESH_LOGS:-}" ] || cp -r "$tmp"/*.log "$tmp/results" \
	    "$MESH_LOGS"/ 2>/dev/null
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the bed -------------------------------------------------------------
# The namespaces, the bridge in ctl, a veth from each host to it.
bed()
{
	local i h
	ip netns add "$ctl" &&
	    ip -n "$ctl" link set lo up &&
	    ip -n "$ctl" link add gbm-br type bridge &&
	    ip -n "$ctl" addr add "$NET.254/24" dev gbm-br &&
	    ip -n "$ctl" link set gbm-br up || return 1
	for i in $HOSTS; do
		h=$(ns "$i")
		ip netns add "$h" &&
		    ip netns exec "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		    net.ipv4.conf.all.rp_filter=0 \
		    net.ipv4.conf.default.rp_filter=0 &&
		    ip -n "$h" link set lo up &&
		    ip -n "$h" link add eth0 type veth peer name "gbm-p$i" \
		    netns "$ctl" &&
		    ip -n "$h" addr add "$NET.$i/24" dev eth0 &&
		    ip -n "$h" link set eth0 up &&
		    tc -n "$h" qdisc add dev eth0 root tbf rate "$LINK_RATE" \
		    burst 400000 latency 20ms &&
		    ip -n "$ctl" link set "gbm-p$i" master gbm-br &&
		    ip -n "$ctl" link set "gbm-p$i" up || return 1
	done
	# h1 -> h4 only: a route over a link of its own, 50 Mbit/s.  h4
	# answers over the bridge (rp_filter 0 lets it take h1's packets on
	# the other port).
	ip -n "$(ns 1)" link add gbm-l14 type veth peer name gbm-l41 \
	    netns "$(ns 4)" &&
	    ip netns exec "$(ns 4)" sysctl -qw \
	    net.ipv4.conf.default.rp_filter=0 &&
	    ip -n "$(ns 1)" link set gbm-l14 up &&
	    ip -n "$(ns 4)" link set gbm-l41 up &&
	    tc -n "$(ns 1)" qdisc add dev gbm-l14 root tbf rate "$SLOW_RATE" \
	    burst 100000 latency 20ms &&
	    ip -n "$(ns 1)" route add "$NET.4/32" dev gbm-l14
}

# Keys (a host key for all four, one client key), sshd's configuration,
# one sshd per host in its namespace and a UTS namespace named hN.
sshds()
{
	local i
	ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" &&
	    ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" &&
	    cp "$tmp/id.pub" "$tmp/authorized_keys" || return 1
	if [ ! -d /run/sshd ]; then
		mkdir -m 0755 /run/sshd && made_run_sshd=1 || return 1
	fi
	cat >"$tmp/sshd_config" <<-EOF
	HostKey $tmp/host_key
	AuthorizedKeysFile $tmp/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	MaxStartups 100
	LogLevel ERROR
	Subsystem sftp /usr/lib/openssh/sftp-server
	EOF
	/usr/sbin/sshd -t -f "$tmp/sshd_config" || return 1
	: >"$tmp/known_hosts"
	for i in $HOSTS; do
		mkdir -p "$tmp/h$i" &&
		    ip netns exec "$(ns "$i")" unshare --uts sh -c \
		    "hostname h$i && exec /usr/sbin/sshd -f '$tmp/sshd_config' \
		    -o ListenAddress=$NET.$i -o PidFile='$tmp/h$i/sshd.pid' \
		    -E '$tmp/h$i/sshd.log'" || return 1
		echo "$NET.$i $(cut -d' ' -f1,2 "$tmp/host_key.pub")" \
		    >>"$tmp/known_hosts"
	done
}

if ! bed >"$tmp/bed.log" 2>&1 || ! sshds >>"$tmp/bed.log" 2>&1; then
	fail "the bed: $(tail -3 "$tmp/bed.log" | tr '\n' ' ')"
	finish
	exit 1
fi

in_ctl() { ip netns exec "$ctl" "$@"; }
ssh_to() {
	in_ctl ssh -i "$tmp/id" -o UserKnownHostsFile="$tmp/known_hosts" \
	    -o StrictHostKeyChecking=yes -o BatchMode=yes \
	    -o ConnectTimeout=5 "root@$NET.$1" "${@:2}"
}

# --- 1. the hosts answer over SSH ----------------------------------------
names=
for i in $HOSTS; do
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		n=$(ssh_to "$i" hostname 2>>"$tmp/ssh.err") && break
		sleep 0.3
	done
	names="$names ${n:-none}"
done
check "1. each host answers over SSH with its own hostname:$names" \
    [ "$names" = " h1 h2 h3 h4" ]

# --- the inventory and Ansible's environment ----------------------------
{
	echo "[gigebench]"
	for i in $HOSTS; do
		echo "h$i ansible_host=$NET.$i gigebench_bin_dir=$tmp/h$i/bin" \
		    "gigebench_pidfile=$tmp/h$i/listener.pid" \
		    "gigebench_logfile=$tmp/h$i/listener.log"
	done
	cat <<-EOF
	[gigebench:vars]
	ansible_user=root
	ansible_ssh_private_key_file=$tmp/id
	ansible_ssh_common_args=-o UserKnownHostsFile=$tmp/known_hosts -o StrictHostKeyChecking=yes
	ansible_python_interpreter=/usr/bin/python3
	gigebench_install=binary
	gigebench_binary=$GB
	gigebench_binary_libraries=false
	gigebench_service=process
	gigebench_listener_options=["--max-duration", "60"]
	EOF
} >"$tmp/inventory.ini"
play() {
	in_ctl env PYTHONUNBUFFERED=1 ANSIBLE_HOME="$tmp/ansible" \
	    ANSIBLE_LOCAL_TEMP="$tmp/ansible/tmp" \
	    ANSIBLE_REMOTE_TEMP="$tmp/ansible/remote" \
	    ANSIBLE_SSH_CONTROL_PATH_DIR="$tmp/ansible/cp" \
	    ANSIBLE_NOCOLOR=1 ANSIBLE_CONFIG="$top/contrib/ansible/ansible.cfg" \
	    ANSIBLE_CALLBACKS_ENABLED=${MESH_CALLBACKS:-} ansible-playbook -i "$tmp/inventory.ini" \
	    "$top/contrib/ansible/mesh.yml" "$@"
}

# --- 2. the role ---------------------------------------------------------
rc=0
play --tags install >"$tmp/install.log" 2>&1 || rc=$?
check "2. the role's play runs (exit $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || tail -30 "$tmp/install.log"
up=
for i in $HOSTS; do
	pids=$(ip netns pids "$(ns "$i")" | while read -r p; do
		[ "$(readlink "/proc/$p/exe")" = "$tmp/h$i/bin/gigebench" ] &&
		    echo "$p"; done)
	lis=$(ip netns exec "$(ns "$i")" ss -Htln "sport = :5001" | wc -l)
	up="$up h$i:$(echo "$pids" | grep -c .)/$lis"
done
check "2. one listener in each host's namespace, on port 5001:$up" \
    [ "$up" = " h1:1/1 h2:1/1 h3:1/1 h4:1/1" ]
rc=0
play --tags install >"$tmp/install2.log" 2>&1 || rc=$?
recap=$(grep -E '^h[1-4] +:' "$tmp/install2.log" | grep -v 'changed=0 ' |
    tr -s ' ')
check "2. a second run changes nothing (exit $rc)${recap:+: $recap}" \
    all [ "$rc" -eq 0 ] -- [ -z "$recap" ] -- \
    grep -q '^h4 .*changed=0 ' "$tmp/install2.log"
[ -z "$recap" ] || grep -B3 '^changed:' "$tmp/install2.log" | grep '^TASK' |
    sort -u

# --- 3 and 4. the mesh, with h2 busy at its start ------------------------
# The blocker holds h2 until the mesh's test into h2 has been refused
# once (or for 60 s, when the check below fails).
# (ip netns exec, not in_ctl: $! is then gigebench itself.)
ip netns exec "$ctl" "$GB" -t "$NET.2" -T 60 --fq-rate 20m -q \
    >"$tmp/blocker.out" 2>&1 &
blocker=$!
(
	for _ in $(seq 1 600); do
		grep -q 'RETRYING' "$tmp/mesh.log" 2>/dev/null && break
		sleep 0.1
	done
	kill -TERM "$blocker" 2>/dev/null
) &
sleep 1
rc=0
play --tags mesh,merge -e gigebench_time=2 -e gigebench_mesh_delay=2 \
    -e gigebench_mesh_results="$tmp/results" -e gigebench_merge="${MESH_MERGE-$GB}" \
    >"$tmp/mesh.log" 2>&1 || rc=$?
wait
blocker=
check "4. the mesh's plays run (exit $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || tail -40 "$tmp/mesh.log"
check "3. a test into h2 was refused as busy and tried again" \
    grep -q 'RETRYING: \[h[134]\]: Round' "$tmp/mesh.log"

PY=${PY:-python3}
judge_out=$("$PY" - "$tmp/results" "$SLOW_MBPS" <<'EOF'
import glob, json, os, sys
d, slow = sys.argv[1], float(sys.argv[2])
hosts = ["h1", "h2", "h3", "h4"]
want = {(a, b) for a in hosts for b in hosts if a != b}
got = {}
for f in glob.glob(os.path.join(d, "*.json")):
    tx, rx = os.path.basename(f)[:-5].split("__")
    doc = json.load(open(f))
    got[(tx, rx)] = doc
ok = lambda c, t: print(("ok - " if c else "FAIL - ") + t)
ok(set(got) == want, "4. one result per ordered pair (%d of 12%s)" % (
    len(set(got) & want),
    "; missing " + " ".join("%s->%s" % p for p in sorted(want - set(got)))
    if want - set(got) else ""))
bad = ["%s->%s: %s" % (p + (d.get("error", "no result"),))
       for p, d in sorted(got.items()) if not d.get("result")]
ok(not bad, "4. each a finished test%s" % (": " + "; ".join(bad) if bad else ""))
names = ["%s->%s" % p for p, d in sorted(got.items()) if d.get("result") and
         d["provenance"]["host"]["hostname"] != p[0]]
ok(not names, "4. each run by its sender, on its receiver%s" %
   (": not " + " ".join(names) if names else ""))
mbps = {p: d["result"]["mbps"] for p, d in got.items() if d.get("result")}
s = mbps.get(("h1", "h4"), 0)
ok(0.80 * slow <= s <= 1.01 * slow,
   "4. h1->h4 at 80-101 %% of %g Mbit/s (%.1f)" % (slow, s))
low = ["%s->%s %.0f" % (p + (m,)) for p, m in sorted(mbps.items())
       if p != ("h1", "h4") and m < 240]
ok(not low and len(mbps) > 1, "4. the other pairs above 240 Mbit/s%s" %
   (": not " + ", ".join(low) if low else ""))
EOF
)
printf '%s\n' "$judge_out" >"$tmp/judge.out"
tally "$tmp/judge.out"

# --- 5. the matrix -------------------------------------------------------
m=$tmp/results/matrix.txt
check "5. merge wrote the matrix, its CSV and its heat map" \
    all [ -s "$m" ] -- [ -s "$tmp/results/matrix.csv" ] -- \
    grep -q '<svg' "$tmp/results/matrix.svg"
cat "$m" 2>/dev/null
judge_out=$("$PY" - "$tmp/results/matrix.csv" "$m" <<'EOF'
import csv, sys
ok = lambda c, t: print(("ok - " if c else "FAIL - ") + t)
try:
    rows = list(csv.DictReader(open(sys.argv[1])))
    text = open(sys.argv[2]).read()
except OSError as e:
    ok(False, "5. the matrix: %s" % e)
    sys.exit(0)
pairs = {(r["sender"], r["receiver"]) for r in rows}
hosts = ["h1", "h2", "h3", "h4"]
ok(pairs == {(a, b) for a in hosts for b in hosts if a != b} and
   len(rows) == 12, "5. the CSV's 12 rows, every ordered pair (%d)" % len(rows))
out = sorted("%s->%s" % (r["sender"], r["receiver"]) for r in rows
             if r["outlier"] == "1")
ok(out == ["h1->h4"], "5. h1->h4 is the one outlier (%s)" % " ".join(out))
why = [r["why"] for r in rows if (r["sender"], r["receiver"]) == ("h1", "h4")]
ok(bool(why) and "path" in why[0],
   "5. and is explained as the path between them (%s)" % (why or [""])[0])
ok("missing" not in text.split("outliers")[-1] or
   "missing: none" in text or "\nmissing:" not in text,
   "5. the text matrix lists no missing pair")
ok(all(h in text for h in hosts) and "h1 -> h4" in text,
   "5. the text matrix names the hosts and the outlier")
EOF
)
printf '%s\n' "$judge_out" >"$tmp/judge2.out"
tally "$tmp/judge2.out"

# --- 6. nothing left -----------------------------------------------------
keep=$tmp
cleanup
trap - EXIT
left=$(ip netns list | grep -c -- "-$id\b")
procs=$(pgrep -f "$keep" | wc -l)
check "6. nothing left: namespaces $left, processes $procs, files $([ -e "$keep" ] && echo yes || echo no)" \
    all [ "$left" -eq 0 ] -- [ "$procs" -eq 0 ] -- [ ! -e "$keep" ]
finish
