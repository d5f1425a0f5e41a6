# tests/lib/tally.sh: the count of a test script's checks, sourced by the
# scripts that print one "ok - ..." or "FAIL - ..." line per check and
# end with "N passed, M failed".
#
#	pass TEXT / ok TEXT	a check that held
#	fail TEXT		one that did not
#	check NAME CMD...	passes when CMD succeeds
#	tally FILE		the ok/FAIL lines a checker program printed,
#				counted; its other lines echoed
#	judge PROG WHAT ARGS...	runs the python checker PROG WHAT ARGS...
#				into PROG.out and tallies it; a crash of
#				PROG is a failure of its own
#	all CMD -- CMD [-- ...]	succeeds when every CMD does (for check)
#	finish			the last line; returns 1 when a check failed
#
# It sets passed and failed; PY is the python to run (python3).

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $*"; }
ok() { pass "$@"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }

check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

tally() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "${line#ok - }" ;;
		"FAIL - "*) fail "${line#FAIL - }" ;;
		*) echo "$line" ;;
		esac
	done <"$1"
}

judge() {
	local prog=$1 what=$2 rc=0
	shift
	"${PY:-python3}" "$prog" "$@" >"$prog.out" 2>"$prog.err" || rc=$?
	tally "$prog.out"
	if [ "$rc" -ne 0 ]; then
		fail "judge $what ran (exit $rc: $(tail -n 1 "$prog.err"))"
	fi
}

all() {
	local cmd=()
	for a in "$@" --; do
		if [ "$a" = -- ]; then
			"${cmd[@]}" || return 1
			cmd=()
		else
			cmd+=("$a")
		fi
	done
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
