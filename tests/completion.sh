#!/usr/bin/env bash
# tests/completion.sh: contrib/completion/gigebench.bash against the
# binary it completes, so that the two cannot drift apart:
#   1. every option of gigebench --help (which tests/test_opts.c holds to
#      the getopt table) is offered after "-", and nothing else is;
#   2. after an option that takes a value (its help line names one), no
#      option is offered; after one that does not, all of them are;
#   3. --sweep offers exactly the parameters the binary's sweep parser
#      names in its error for an unknown one, each as "PARAM=";
#   4. -C offers the running kernel's congestion controls; -I and
#      --bind-dev its interfaces; -f the units; --psk files;
#      --timestamps= a format; a host name after the options;
#   5. after --ttcp, and started as ttcp, exactly the classic mode's
#      options (its usage's), and nothing after its options with a value;
#   6. after merge, exactly merge's options (its --help's), --figure's
#      names (its error's list), --by's two, and *.json files.
# Needs bash-completion (apt-get install bash-completion).
set -u
GIGEBENCH=${GIGEBENCH:-build/gigebench}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/tally.sh"
. "$here/lib/skip.sh"
comp_file=$here/../contrib/completion/gigebench.bash
bc=/usr/share/bash-completion/bash_completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -r "$bc" ]; then
	skip_or_fail "bash-completion is not installed (apt-get install bash-completion)"
	exit $?
fi

# comp WORD...: the completions bash would offer for the last word.
comp()
{
	(cd "$tmp/cwd" && bash --norc --noprofile -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		compopt() { :; }  # outside a real completion
		_gigebench gigebench "${COMP_WORDS[COMP_CWORD]}" \
		    "${COMP_WORDS[COMP_CWORD - 1]}"
		for w in "${COMPREPLY[@]}"; do printf "%s\n" "$w"; done
	    ' comp "$bc" "$comp_file" "$@") | sort -u
}
mkdir -p "$tmp/cwd"
: >"$tmp/cwd/key.psk"

"$GIGEBENCH" --help >"$tmp/help" || { fail "gigebench --help runs"; finish; exit 1; }
# The name part of each option line: "  -b, --buffer size   text" ->
# "-b, --buffer size"; names end where two blanks start the text.
grep -E '^  -|^      --' "$tmp/help" | sed -e 's/^ *//' -e 's/  .*//' \
    -e 's/\[=[a-z]*\]//' >"$tmp/names"
tr ',' ' ' <"$tmp/names" | tr -s ' ' '\n' | grep '^-' | sort -u \
    >"$tmp/help_opts"
# Options whose help line names a value: "-b, --buffer size".
awk '$NF !~ /^-/ { for (i = 1; i < NF; i++) { sub(",", "", $i); print $i } }' \
    "$tmp/names" | sort -u >"$tmp/valued"
comm -23 "$tmp/help_opts" "$tmp/valued" >"$tmp/flags"

# same WHAT MIN WANT GOT: passes when the sorted lists WANT and GOT are
# equal and WANT has more than MIN lines (a list read wrong is short).
same()
{
	local n
	n=$(wc -l <"$3")
	if [ "$n" -gt "$2" ] && diff "$3" "$4" >"$tmp/diff"; then
		pass "$1: the $n of them"
	else
		fail "$1 ($n; < wanted, > offered):"
		cat "$tmp/diff"
		return 1
	fi
}

# 1. The option list, both ways.
comp gigebench - >"$tmp/offered"
same "after '-', exactly --help's options" 60 "$tmp/help_opts" \
    "$tmp/offered"

# 2. Values and flags.
bad=
while read -r o; do
	comp gigebench "$o" - | grep -qxF -f "$tmp/help_opts" && bad="$bad $o"
done <"$tmp/valued"
check "no option offered as the value of the $(wc -l <"$tmp/valued") \
options that take one${bad:+ (offered after:$bad)}" [ -z "$bad" ]
bad=
while read -r o; do
	comp gigebench "$o" - | cmp -s - "$tmp/help_opts" || bad="$bad $o"
done < <(grep -vx -- --ttcp "$tmp/flags")
check "every option offered after each of the $(($(wc -l <"$tmp/flags") - 1)) \
flags but --ttcp (below)${bad:+ (not after:$bad)}" [ -z "$bad" ]

# 3. --sweep: the parser's own list, from its error for an unknown one.
"$GIGEBENCH" -t 198.18.0.1 --sweep nosuchparam=1 2>"$tmp/sweep_err" >/dev/null
sed -n 's/.*unknown parameter "nosuchparam" (\(.*\)).*/\1/p' \
    "$tmp/sweep_err" | tr -d ' ' | tr ',' '\n' | sed 's/$/=/' | sort -u \
    >"$tmp/axes"
comp gigebench -t --sweep "" >"$tmp/axes_offered"
same "--sweep offers the parser's parameters" 5 "$tmp/axes" \
    "$tmp/axes_offered" || cat "$tmp/sweep_err"

# 4. The other values.
tr ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control |
    grep . | sort -u >"$tmp/cc"
comp gigebench -C "" >"$tmp/cc_offered"
same "-C offers the kernel's congestion controls ($(tr '\n' ' ' \
    <"$tmp/cc"))" 0 "$tmp/cc" "$tmp/cc_offered"
ls /sys/class/net | sort -u >"$tmp/ifs"
for o in -I --bind-dev; do
	comp gigebench "$o" "" >"$tmp/ifs_offered"
	same "$o offers the interfaces" 0 "$tmp/ifs" "$tmp/ifs_offered"
done
check "-f offers the six units" \
    [ "$(comp gigebench -f "" | tr '\n' ' ')" = "G K M g k m " ]
check "--psk offers files" \
    [ "$(comp gigebench -r --psk ke)" = "key.psk" ]
check "--timestamps= offers a format" \
    grep -q '%Y' <(comp gigebench -r --timestamps=)
check "a host after the options (localhost from /etc/hosts)" \
    grep -qx localhost <(comp gigebench -t localh)

# 5. --ttcp and the name ttcp: the classic tool's options, from its usage.
"$GIGEBENCH" --ttcp --help >"$tmp/ttcp_help" 2>&1
# -t and -r from its synopsis; --help, which prints this usage.
{ echo -t; echo -r; echo --help
  grep -E '^  --?[A-Za-z]' "$tmp/ttcp_help" | awk '{ print $1 }'; } |
    sort -u >"$tmp/ttcp_opts"
comp gigebench --ttcp - >"$tmp/ttcp_offered"
same "after --ttcp, exactly its usage's options" 15 "$tmp/ttcp_opts" \
    "$tmp/ttcp_offered"
comp ttcp - >"$tmp/ttcp_name_offered"
same "started as ttcp, the same options" 15 "$tmp/ttcp_opts" \
    "$tmp/ttcp_name_offered"
check "--ttcp -l takes a value (nothing offered)" \
    [ -z "$(comp gigebench --ttcp -l -)" ]

# 6. merge: its usage's options, --figure's names (from its error for an
# unknown one), --by's two, and the .json files.
"$GIGEBENCH" merge --help >"$tmp/merge_help" 2>&1
grep -E '^  -|^      --' "$tmp/merge_help" | sed -e 's/^ *//' \
    -e 's/  .*//' | tr ',' ' ' | tr -s ' ' '\n' | grep '^-' | sort -u \
    >"$tmp/merge_opts"
comp gigebench merge - >"$tmp/merge_offered"
same "after merge, exactly its usage's options" 6 "$tmp/merge_opts" \
    "$tmp/merge_offered"
comp gigebench merge a.json - >"$tmp/merge_offered2"
same "after merge and a file, the same" 6 "$tmp/merge_opts" \
    "$tmp/merge_offered2"
"$GIGEBENCH" merge --figure nosuch x.json 2>"$tmp/fig_err" >/dev/null
sed -n 's/.*unknown --figure (\(.*\)).*/\1/p' "$tmp/fig_err" | tr -d ' ' |
    tr ',' '\n' | sort -u >"$tmp/figures"
comp gigebench merge --figure "" >"$tmp/figures_offered"
same "--figure offers merge's figures" 5 "$tmp/figures" \
    "$tmp/figures_offered" || cat "$tmp/fig_err"
check "--by offers hostname and address" \
    [ "$(comp gigebench merge --by "" | tr '\n' ' ')" = "address hostname " ]
: >"$tmp/cwd/h1-h2.json"
: >"$tmp/cwd/notes.txt"
check "merge offers the .json files" \
    [ "$(comp gigebench merge "")" = "h1-h2.json" ]
check "merge is offered as the first word" \
    grep -qx merge <(comp gigebench mer)

finish
