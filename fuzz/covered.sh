#!/usr/bin/env bash
#
# covered.sh TARGET-BINARY TARGET [ARGS...]: runs the checked-in seeds of
# TARGET once (libFuzzer -runs=0 over fuzz/corpus/TARGET, which replays
# the corpus and stops) with -print_coverage=1, and fails naming each
# function of fuzz/required.txt's TARGET line that got no covered edge.
# ARGS are the target's usual libFuzzer options.  The log is
# $FUZZ_BUILD/logs/coverage-TARGET.log.  Used by "make fuzz-replay".
#
# What it must not do: write into fuzz/corpus (a second, empty directory
# takes libFuzzer's new inputs).
set -eu

bin=$1
target=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-build-fuzz}
log=$build/logs/coverage-$target.log
scratch=$build/coverage-scratch/$target
mkdir -p "$build/logs" "$scratch"
rm -rf "${scratch:?}"/*

want=$(awk -v t="$target" '!/^#/ && $1 == t { $1 = ""; print }' \
    "$top/fuzz/required.txt")
if [ -z "$want" ]; then
	echo "fuzz-coverage: $target: no line in fuzz/required.txt"
	exit 1
fi
if ! "$bin" "$@" -runs=0 -print_coverage=1 "$scratch" \
    "$top/fuzz/corpus/$target" >"$log" 2>&1; then
	tail -n 40 "$log"
	echo "fuzz-coverage: $target: the seed replay failed, log in $log"
	exit 1
fi
missing=""
for f in $want; do
	# COVERED_FUNC: hits: H edges: E/N NAME FILE:LINE
	if ! awk -v f="$f" '$1 == "COVERED_FUNC:" && $6 == f {
	    split($5, e, "/"); if (e[1] + 0 > 0) found = 1 }
	    END { exit !found }' "$log"; then
		missing="$missing $f"
	fi
done
seeds=$(find "$top/fuzz/corpus/$target" -type f | wc -l)
if [ -n "$missing" ]; then
	echo "fuzz-coverage: $target: no edge covered in:$missing" \
	    "($seeds seeds; regenerate them with make fuzz-seeds?), log in $log"
	exit 1
fi
echo "fuzz-coverage: $target ok, $seeds seeds reach:$want"
