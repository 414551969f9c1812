#!/bin/sh
# Grading the forum's hardest 9×9 (issue 23's mean under 200 ms), one
# `dekadoku grade` per puzzle and process, as a player's grade is.
#
#   benches/hardest.sh [BIN…]    the 305 (every 160th line of
#                                puzzles5_forum_hardest_1905_11+ from the
#                                80th) with each build given (default
#                                target/release/dekadoku)
#
# With two builds or more, they take turns puzzle by puzzle (the order
# reversed every other puzzle), so that a VM that speeds up or slows down
# meanwhile moves them alike: compare builds within one run, not across
# runs or machines. Prints per build the CPU time (user + system, whole
# process, both walks' threads, 10 ms resolution, so the mean of 305 is
# good to about a millisecond) mean, median and slowest, and the wall time
# mean; then how many puzzles' grade lines differ from the first build's.
# Needs ../shared (the shared corpora) and /usr/bin/time.
set -eu
cd "$(dirname "$0")/.."
corpus=../shared/puzzles-public/puzzles5_forum_hardest_1905_11+
if [ ! -f "$corpus" ]; then
    echo "hardest.sh: $corpus not found (the shared corpora sit beside the repository)" >&2
    exit 2
fi
[ "$#" -gt 0 ] || set -- target/release/dekadoku
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'NR % 160 == 80' "$corpus" > "$tmp/puzzles"
i=0
for b in "$@"; do
    [ -x "$b" ] || { echo "hardest.sh: $b is not a program" >&2; exit 2; }
    : > "$tmp/times.$i"
    : > "$tmp/lines.$i"
    i=$((i + 1))
done
builds=$i
k=0
while IFS= read -r p; do
    printf '%s\n' "$p" > "$tmp/one"
    j=0
    while [ "$j" -lt "$builds" ]; do
        # Every other puzzle the builds go in the reverse order.
        if [ $((k % 2)) -eq 0 ]; then at=$j; else at=$((builds - 1 - j)); fi
        eval "b=\${$((at + 1))}"
        /usr/bin/time -f '%U %S %e' -o "$tmp/time" "$b" grade "$tmp/one" > "$tmp/out" 2>/dev/null
        cat "$tmp/time" >> "$tmp/times.$at"
        head -n 1 "$tmp/out" >> "$tmp/lines.$at"
        j=$((j + 1))
    done
    k=$((k + 1))
done < "$tmp/puzzles"
j=0
for b in "$@"; do
    awk '{ cpu = $1 + $2; print cpu, $3 }' "$tmp/times.$j" | sort -n | awk -v b="$b" '
        { c[NR] = $1; s += $1; w += $2 }
        END {
            m = (NR % 2) ? c[(NR + 1) / 2] : (c[NR / 2] + c[NR / 2 + 1]) / 2
            printf "%s: %d puzzles, CPU mean %.3f s, median %.3f s, slowest %.2f s; wall mean %.3f s\n",
                b, NR, s / NR, m, c[NR], w / NR
        }'
    if [ "$j" -gt 0 ]; then
        differ=$(awk 'NR == FNR { a[FNR] = $0; next } a[FNR] != $0 { d++ } END { print d + 0 }' \
            "$tmp/lines.0" "$tmp/lines.$j")
        echo "  grade lines differing from $1's: $differ"
    fi
    j=$((j + 1))
done
