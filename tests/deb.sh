#!/usr/bin/env bash
# tests/deb.sh: the Debian package, from the tree to a purge (issue 19).
#   1. the version is one: include/base/version.h, debian/changelog, the
#      "make dist" tarball's name, the package's and "gigebench -V";
#   2. "make deb" (dpkg-buildpackage -us -uc -b on a copy of the tree)
#      builds gigebench_VERSION_ARCH.deb, and lintian finds no error and
#      no warning in it;
#   3. dpkg -i installs the binary, the man page, the README, the bash
#      completion (the same file as contrib's), the unit (ExecStart at
#      /usr/bin, not enabled), and "ttcp" as an alternative that runs the
#      classic mode, whose completion bash loads by that name;
#   4. the unit's ExecStart, run as the unit runs it (an unprivileged
#      user, no privileges), serves one loopback test;
#   5. dpkg --purge leaves nothing: dpkg -L empty, no file, no unit, no
#      ttcp alternative.
# Root (it installs on this machine); it refuses to run where a
# gigebench package is already installed, which it would remove.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/tally.sh"
. "$here/lib/skip.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_or_fail "installing a package needs root"
	exit $?
fi
for t in dpkg-buildpackage dh lintian setpriv; do
	if ! command -v "$t" >/dev/null; then
		skip_or_fail "$t is not installed (apt-get install dpkg-dev debhelper lintian util-linux)"
		exit $?
	fi
done
if dpkg -s gigebench >/dev/null 2>&1; then
	skip_or_fail "a gigebench package is installed here; this test would purge it"
	exit $?
fi
compdir=/usr/share/bash-completion/completions
ttcp_before=
[ -e /usr/bin/ttcp ] && ttcp_before=$(readlink -f /usr/bin/ttcp)

tmp=$(mktemp -d)
lpid=
cleanup()
{
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	dpkg -s gigebench >/dev/null 2>&1 && dpkg --purge gigebench >/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- 1. one version ----------------------------------------------------
ver=$(sed -n 's/^#define GB_VERSION[^"]*"\(.*\)"/\1/p' \
    "$top/include/base/version.h")
chver=$(cd "$top" && dpkg-parsechangelog -S Version)
check "debian/changelog's version is version.h's ($chver, $ver)" \
    all [ -n "$ver" ] -- [ "$chver" = "$ver" ]
if (cd "$top" && git rev-parse --git-dir >/dev/null 2>&1); then
	(cd "$top" && make -s dist) >"$tmp/dist.out" 2>&1
	tarball=$top/gigebench-$ver.tar.gz
	if [ -f "$tarball" ] && tar -tzf "$tarball" >"$tmp/dist.list" &&
	    grep -qx "gigebench-$ver/debian/changelog" "$tmp/dist.list" &&
	    grep -qx "gigebench-$ver/include/base/version.h" "$tmp/dist.list"
	then
		pass "make dist: gigebench-$ver.tar.gz, gigebench-$ver/ inside"
	else
		fail "make dist: gigebench-$ver.tar.gz, gigebench-$ver/ inside"
		cat "$tmp/dist.out"
	fi
	rm -f "$tarball"
else
	fail "make dist needs the git tree ($top is not one)"
fi

# --- 2. build and lintian ----------------------------------------------
arch=$(dpkg --print-architecture)
deb=$top/build/deb/gigebench_${ver}_$arch.deb
if (cd "$top" && make -s deb) >"$tmp/build.log" 2>&1 && [ -f "$deb" ]; then
	pass "make deb builds gigebench_${ver}_$arch.deb"
else
	fail "make deb builds gigebench_${ver}_$arch.deb"
	tail -n 30 "$tmp/build.log"
	finish
	exit 1
fi
if lintian --fail-on error,warning "$deb" >"$tmp/lintian" 2>&1; then
	pass "lintian: no error, no warning"
else
	fail "lintian: no error, no warning"
	cat "$tmp/lintian"
fi

# --- 3. install ---------------------------------------------------------
if dpkg -i "$deb" >"$tmp/install.log" 2>&1; then
	pass "dpkg -i installs it"
else
	fail "dpkg -i installs it"
	cat "$tmp/install.log"
	finish
	exit 1
fi
v=$(/usr/bin/gigebench -V 2>&1 | head -n 1)
pkgver=$(dpkg-query -W -f '${Version}' gigebench)
case " $v " in *" $ver "*) vok=1 ;; *) vok=0 ;; esac
check "gigebench -V says $ver, the package's version ($v; $pkgver)" \
    all [ "$vok" = 1 ] -- [ "$pkgver" = "$ver" ]
for f in /usr/bin/gigebench /usr/share/man/man1/gigebench.1.gz \
    /usr/share/doc/gigebench/README.md.gz \
    /usr/share/doc/gigebench/copyright \
    /lib/systemd/system/gigebench.service; do
	check "installed: $f" [ -f "$f" ]
done
check "installed: the bash completion, contrib's file" \
    cmp -s /usr/share/bash-completion/completions/gigebench \
    "$top/contrib/completion/gigebench.bash"
unit=/lib/systemd/system/gigebench.service
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
check "the unit's ExecStart is /usr/bin's binary ($exec_start)" \
    [ "${exec_start%% *}" = /usr/bin/gigebench ]
check "the unit is not enabled (no multi-user.target.wants link)" \
    [ ! -e /etc/systemd/system/multi-user.target.wants/gigebench.service ]
if [ -z "$ttcp_before" ]; then
	check "ttcp is an alternative pointing at gigebench" \
	    [ "$(readlink -f /usr/bin/ttcp)" = /usr/bin/gigebench ]
	ttcp -h >"$tmp/ttcp.h" 2>&1
	check "ttcp runs the classic mode (its usage names ttcp -t/-r)" \
	    grep -q 'ttcp -t' "$tmp/ttcp.h"
	# What bash-completion's loader finds for "ttcp <TAB>" in a new shell.
	comp=$(bash -c '. /usr/share/bash-completion/bash_completion
	    _completion_loader ttcp >/dev/null 2>&1; complete -p ttcp' 2>&1)
	check "ttcp's completion loads by its name: gigebench's ($comp)" \
	    all [ "$(readlink -f "$compdir/ttcp")" = "$compdir/gigebench" ] \
	    -- grep -q _gigebench <<<"$comp"
else
	check "ttcp stays $ttcp_before (gigebench's alternative is lower)" \
	    [ "$(readlink -f /usr/bin/ttcp)" = "$ttcp_before" ]
fi

# --- 4. the unit's command line, as the unit runs it --------------------
# DynamicUser=, NoNewPrivileges=, an empty capability bounding set: an
# unprivileged uid without groups or privileges.  Its port is 5001
# unless the unit says -p.
port=$(sed -n 's/.* -p \([0-9]*\).*/\1/p' <<<"$exec_start")
port=${port:-5001}
if ss -Hltn "sport = :$port" | grep -q .; then
	fail "port $port (the unit's) is free for the listener"
else
	# shellcheck disable=SC2086 # the unit's words, as systemd splits them
	setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs \
	    --bounding-set=-all $exec_start >"$tmp/listener.out" 2>&1 &
	lpid=$!
	for _ in $(seq 50); do
		ss -Hltn "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	if /usr/bin/gigebench -t 127.0.0.1 -p "$port" -T 1 --no-progress \
	    >"$tmp/client.out" 2>&1 && grep -q 'Mbps' "$tmp/client.out"; then
		pass "the unit's listener ($exec_start, uid 65534) serves a loopback test: $(grep Mbps "$tmp/client.out" | tail -n 1)"
	else
		fail "the unit's listener serves a loopback test"
		cat "$tmp/client.out" "$tmp/listener.out"
	fi
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	lpid=
fi

# --- 5. purge ----------------------------------------------------------
if dpkg --purge gigebench >"$tmp/purge.log" 2>&1; then
	pass "dpkg --purge removes it"
else
	fail "dpkg --purge removes it"
	cat "$tmp/purge.log"
fi
check "dpkg -L gigebench lists nothing" \
    [ -z "$(dpkg -L gigebench 2>/dev/null)" ]
left=
for f in /usr/bin/gigebench /usr/share/man/man1/gigebench.1.gz \
    /usr/share/doc/gigebench /usr/share/bash-completion/completions/gigebench \
    /lib/systemd/system/gigebench.service \
    /etc/systemd/system/multi-user.target.wants/gigebench.service; do
	[ -e "$f" ] && left="$left $f"
done
# A completions/ttcp of gigebench's, or one left dangling.
if [ -L "$compdir/ttcp" ] && { [ ! -e "$compdir/ttcp" ] ||
    [ "$(readlink -f "$compdir/ttcp")" = "$compdir/gigebench" ]; }; then
	left="$left $compdir/ttcp"
fi
check "no file left${left:+ (left:$left)}" [ -z "$left" ]
check "no ttcp alternative of gigebench left" \
    all [ -z "$(update-alternatives --list ttcp 2>/dev/null | grep gigebench)" ] \
    -- [ "$( [ -e /usr/bin/ttcp ] && readlink -f /usr/bin/ttcp)" = "$ttcp_before" ]

finish
