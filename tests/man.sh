#!/bin/sh
#
# man.sh: the man page is the contract.  Checks that man/gigebench.1 is
# lint-clean and that it and `gigebench --help` list the same options and
# the same synopsis, and its MERGE section the options of `gigebench merge
# --help`.  (tests/test_opts.c holds --help to the getopt table.)
#
#	GIGEBENCH=build/gigebench sh tests/man.sh
#
# Prints one line per check, then "N passed, M failed"; exits 1 when a
# check failed.  mandoc is required: a missing mandoc is a failure.

set -eu
LC_ALL=C	# one collation for sort and comm
export LC_ALL

: "${GIGEBENCH:?set GIGEBENCH to the gigebench binary}"
top=$(cd "$(dirname "$0")/.." && pwd)
man="$top/man/gigebench.1"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

passed=0
failed=0

pass()
{
	passed=$((passed + 1))
	echo "ok - $1"
}

# fail WHAT [FILE]: FILE holds the details, printed indented.
fail()
{
	failed=$((failed + 1))
	echo "FAIL - $1"
	if [ $# -gt 1 ] && [ -s "$2" ]; then
		sed 's/^/#   /' "$2"
	fi
}

finish()
{
	echo "$passed passed, $failed failed"
	if [ "$failed" -eq 0 ]; then
		exit 0
	fi
	exit 1
}

# One word a line, so that line breaks do not matter and diff shows words.
words()
{
	tr '\t\n' '  ' | tr -s ' ' '\n' | sed '/^$/d'
}

# One option a line from a synopsis: "[-146Jqsv]" gives -1 -4 -6 -J ...
synopsis_opts()
{
	sed 's/\[=[a-z]*\]//g' | tr -d '[]' | awk '
	    /^--/ { print; next }
	    /^-/ { for (i = 2; i <= length($0); i++)
		    print "-" substr($0, i, 1) }' | sort -u
}

# The options of the help's option list: "  -b, --buffer size   text" and
# "      --sndbuf size   text"; names end at the first two blanks.
help_opts()
{
	grep -E '^  -|^      --' "$1" | sed -e 's/^ *//' -e 's/  .*//' \
	    -e 's/\[=[a-z]*\]//' |
	    tr ',' ' ' | tr -s ' ' '\n' | grep '^-' | sort -u
}

# The options of the man page's lists: ".It Fl b Ar size , Fl \-buffer";
# man_opts merge: those of its MERGE section only, man_opts main: those
# of the rest.
man_opts()
{
	awk -v want="$1" '/^\.Sh / { sec = ($2 == "MERGE") ? "merge" : "main" }
	    sec == want' "$man" | grep '^\.It Fl ' |
	    awk '{ for (i = 2; i <= NF; i++)
	    if ($(i - 1) == "Fl") print $i }' |
	    sed -e 's/\\-/-/g' -e 's/^/-/' | sort -u
}

# compare WHAT A B: pass when the files are equal, else show the diff.
compare()
{
	if diff "$2" "$3" >"$tmp/diff" 2>&1; then
		pass "$1"
	else
		fail "$1" "$tmp/diff"
	fi
}

# 1. mandoc, which the rest needs.
if command -v mandoc >/dev/null 2>&1; then
	pass "mandoc is installed"
else
	fail "mandoc is installed (apt-get install mandoc)"
	finish
fi

# 2. --help works, and -h says the same.
if "$GIGEBENCH" --help >"$tmp/help" 2>"$tmp/help.err" &&
    [ ! -s "$tmp/help.err" ] && head -n 1 "$tmp/help" | grep -q '^usage: '
then
	pass "--help exits 0 and prints the usage on stdout"
else
	fail "--help exits 0 and prints the usage on stdout" "$tmp/help.err"
fi
if "$GIGEBENCH" -h >"$tmp/h" 2>&1 && cmp -s "$tmp/h" "$tmp/help"; then
	pass "-h prints the same as --help"
else
	fail "-h prints the same as --help"
fi

# 3. Lint: any output at all is a failure.
if mandoc -Tlint -W warning "$man" >"$tmp/lint" 2>&1 && [ ! -s "$tmp/lint" ]
then
	pass "mandoc -Tlint -W warning is clean"
else
	fail "mandoc -Tlint -W warning is clean" "$tmp/lint"
fi

# 4. The same options in the help's list and in the man page's, and
# merge's (gigebench merge --help) in its MERGE section's.
help_opts "$tmp/help" >"$tmp/help.opts" || true
man_opts main >"$tmp/man.opts" || true
"$GIGEBENCH" merge --help >"$tmp/merge_help" 2>&1 || true
help_opts "$tmp/merge_help" >"$tmp/merge_help.opts" || true
man_opts merge >"$tmp/merge_man.opts" || true
if [ "$(wc -l <"$tmp/merge_help.opts")" -ge 5 ]; then
	compare "merge --help and the MERGE section list the same options" \
	    "$tmp/merge_help.opts" "$tmp/merge_man.opts"
else
	fail "merge --help lists its options" "$tmp/merge_help"
fi
if [ "$(wc -l <"$tmp/help.opts")" -ge 20 ]; then
	pass "--help lists $(wc -l <"$tmp/help.opts" | tr -d ' ') options"
else
	fail "--help lists its options" "$tmp/help.opts"
fi
comm -23 "$tmp/help.opts" "$tmp/man.opts" >"$tmp/missing"
if [ ! -s "$tmp/missing" ]; then
	pass "every option in --help is in the man page"
else
	fail "every option in --help is in the man page" "$tmp/missing"
fi
comm -13 "$tmp/help.opts" "$tmp/man.opts" >"$tmp/extra"
if [ ! -s "$tmp/extra" ]; then
	pass "every option in the man page is in --help"
else
	fail "every option in the man page is in --help" "$tmp/extra"
fi

# 5. The same synopsis: first as sets of options, then word for word.
awk 'NF == 0 { exit } { print }' "$tmp/help" | sed '1s/^usage://' |
    words >"$tmp/help.syn"
mandoc -Tascii "$man" | col -b |
    awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
    words >"$tmp/man.syn"
synopsis_opts <"$tmp/help.syn" >"$tmp/help.synopts"
synopsis_opts <"$tmp/man.syn" >"$tmp/man.synopts"
if [ -s "$tmp/man.synopts" ]; then
	compare "the synopses list the same options" \
	    "$tmp/help.synopts" "$tmp/man.synopts"
else
	fail "the man page has a SYNOPSIS"
fi
compare "the synopses are the same text" "$tmp/help.syn" "$tmp/man.syn"

# 6. Every option of the synopsis is described in the man page's lists
# (merge's in its section).
sort -u "$tmp/man.opts" "$tmp/merge_man.opts" >"$tmp/all_man.opts"
comm -23 "$tmp/man.synopts" "$tmp/all_man.opts" >"$tmp/undoc"
if [ ! -s "$tmp/undoc" ]; then
	pass "every option in the synopsis is described"
else
	fail "every option in the synopsis is described" "$tmp/undoc"
fi

finish
