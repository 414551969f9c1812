#!/bin/sh
# The 18 hard 25×25 instances (issue 22): CPU seconds per puzzle of
# `dekadoku count --limit 2` (solve and prove unique) for each backend.
#
#   benches/hard25.sh [BACKEND...]        default: auto sat hall
#   PUZZLES="9 17" benches/hard25.sh sat  only those lines (1-based)
#
# The puzzles are benches/hard25.txt, one per line: Gecode's 18 minimal
# 25×25 Sudoku by Alain Frisch (Gecode's `examples/sudoku-instances.hh`),
# not in ../shared. Uses target/release/dekadoku (or $DEKADOKU); each run
# is capped at $CAP seconds of CPU (default 60, by `ulimit -t`) and told
# `--timeout $CAP`. Prints one line per puzzle and backend (`f1 sat 1
# 11.49`: the count, `>=` when stopped, and user + system CPU seconds of
# the whole process, so that a loaded machine does not inflate them as
# much as wall time), then one total per backend with the number of
# puzzles answered.
set -eu
cd "$(dirname "$0")/.."
bin=${DEKADOKU:-target/release/dekadoku}
cap=${CAP:-60}
[ "$#" -gt 0 ] || set -- auto sat hall
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/rows"
i=0
while IFS= read -r p; do
    i=$((i + 1))
    case " ${PUZZLES:-$i} " in
        *" $i "*) ;;
        *) continue ;;
    esac
    printf '%s\n' "$p" > "$tmp/one"
    for b in "$@"; do
        answer=$(
            ulimit -t "$cap"
            /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" count --backend "$b" \
                --limit 2 --timeout "$cap" "$tmp/one" 2> /dev/null
        ) || true
        # `1`, `>=1 (deadline passed)`, …: the count only.
        answer=${answer%% *}
        [ -n "$answer" ] || answer="killed"
        cpu=$(awk '/^[0-9.]+ [0-9.]+$/ {printf "%.2f", $1 + $2}' "$tmp/time")
        echo "f$i $b $answer ${cpu:-?}" | tee -a "$tmp/rows"
    done
done < benches/hard25.txt
for b in "$@"; do
    awk -v b="$b" '$2 == b {n++; t += $4; if ($3 ~ /^[0-9]+$/) ok++}
        END {printf "total %s: %.2f s CPU, %d of %d answered\n", b, t, ok, n}' "$tmp/rows"
done
