#!/bin/sh
# Times every exact backend on the same big puzzles in one run: the default
# (auto), propagation, Dancing Links, SAT (embedded CaDiCaL) and, when one
# is installed, an external SAT program on the same CNF (`--sat-cmd`).
#
#   benches/backends.sh [FILE...]
#
# With no files: the shipped 16×16 and 25×25 hard puzzles and the shared
# large instances that some backend finishes within the timeout. Each row
# of `dekadoku bench` is one backend on one file; `auto` rows list the
# methods that answered. DLX is given a short timeout (it finishes only
# the easy large instances).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/target/release/dekadoku"
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
large="$here/../shared/puzzles-public/large"
if [ "$#" -eq 0 ]; then
    set -- "$here/puzzles/16x16-hard.txt" "$here/puzzles/25x25-hard.txt"
    for n in 16-1 25-1 64-2 81-1 100-1 144-1 400-1; do
        f="$large/rkkautsar_sudoku-$n.txt"
        [ -f "$f" ] && set -- "$@" "$f"
    done
fi
ext=""
for prog in cadical kissat; do
    if command -v "$prog" >/dev/null 2>&1; then
        ext="--sat-cmd $prog"
        break
    fi
done
# shellcheck disable=SC2086
"$bin" bench --min-time 0 --timeout "${TIMEOUT:-60}" \
    --backend auto --backend propagation --backend sat $ext "$@"
"$bin" bench --min-time 0 --timeout "${DLX_TIMEOUT:-10}" --backend dlx "$@"
