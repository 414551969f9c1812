#!/usr/bin/env bash
# Whole-process timing (read, parse, solve, print) of `dekadoku solve` and
# `dekadoku count` on the shared 9x9 line corpora, beside tdoku when a tdoku
# checkout is given: its solver and benches/tdoku_driver.cc (our harness)
# are compiled into a temporary folder; nothing of tdoku enters the repo.
#
#   benches/whole_process.sh [TDOKU_SRC] [RUNS]
#
# Prints a Markdown table: mean wall and user milliseconds of each run
# (hyperfine when installed, else /usr/bin/time), single thread, and ours
# divided by tdoku's (below 1: ours is faster), then `solve --jobs 2`.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
shared=${DEKADOKU_SHARED:-$here/../shared}/puzzles-public
tdoku_src=${1:-}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$here" && cargo build --release --quiet)
ours=$here/target/release/dekadoku

tdoku=""
if [[ -n $tdoku_src && -f $tdoku_src/src/solver_dpll_triad_simd.cc ]]; then
    g++ -O3 -march=native -std=c++14 -fno-exceptions -fno-rtti \
        -I"$tdoku_src/include" -I"$tdoku_src/src" \
        -o "$tmp/tdoku" "$here/benches/tdoku_driver.cc" \
        "$tdoku_src/src/solver_dpll_triad_simd.cc" "$tdoku_src/src/util.cc"
    tdoku=$tmp/tdoku
fi

# Mean wall and user milliseconds of a command over $runs runs (after a warm-up).
measure() {
    if command -v hyperfine >/dev/null; then
        hyperfine -N -i -w 1 -r "$runs" --export-json "$tmp/h.json" "$*" >/dev/null 2>&1
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f %.1f" % (1000 * r["mean"], 1000 * r["user"]))' "$tmp/h.json"
    else
        local wall=0 user=0 w u
        "$@" >/dev/null 2>&1 || true
        for _ in $(seq "$runs"); do
            read -r w u < <( { /usr/bin/time -f '%e %U' "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)
            wall=$(echo "$wall + $w" | bc -l); user=$(echo "$user + $u" | bc -l)
        done
        printf '%.1f %.1f\n' "$(echo "1000 * $wall / $runs" | bc -l)" "$(echo "1000 * $user / $runs" | bc -l)"
    fi
}

ratio() { python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print("%.2f" % (a/b) if b > 0 else "-")' "$1" "$2"; }

# The 9x9 line files of the shared corpora (gecode_sudoku_9x9.txt puts an
# index before each grid: neither reader takes it). CORPORA="a b" for some.
files=(puzzles2_17_clue puzzles3_magictour_top1465 "puzzles5_forum_hardest_1905_11+"
       puzzles7_serg_benchmark kaggle_bryanpark_first20k.csv radcliffe_3m_sample.csv
       norvig_top95.txt norvig_easy50.txt norvig_hardest.txt)
if [[ -n ${CORPORA:-} ]]; then read -r -a files <<< "$CORPORA"; fi

echo "| corpus | puzzles | ours solve ms (user) | ours count ms (user) | tdoku solve ms (user) | tdoku count ms (user) | solve ratio (user) | count ratio (user) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in "${files[@]}"; do
    path=$shared/$f
    [[ -f $path ]] || { echo "| $f | not present |"; continue; }
    n=$( ("$ours" count "$path" 2>/dev/null || true) | wc -l)
    read -r sw su < <(measure "$ours" solve "$path")
    read -r cw cu < <(measure "$ours" count "$path")
    if [[ -n $tdoku ]]; then
        read -r tsw tsu < <(measure "$tdoku" solve "$path")
        read -r tcw tcu < <(measure "$tdoku" count "$path")
        echo "| $f | $n | $sw ($su) | $cw ($cu) | $tsw ($tsu) | $tcw ($tcu) | $(ratio "$sw" "$tsw") ($(ratio "$su" "$tsu")) | $(ratio "$cw" "$tcw") ($(ratio "$cu" "$tcu")) |"
    else
        echo "| $f | $n | $sw ($su) | $cw ($cu) | - | - | - | - |"
    fi
done

echo
echo "| corpus | solve --jobs 1 ms | solve --jobs 2 ms | speed-up |"
echo "|---|---:|---:|---:|"
for f in ${JOBS_CORPORA:-"puzzles5_forum_hardest_1905_11+" puzzles2_17_clue}; do
    path=$shared/$f
    [[ -f $path ]] || continue
    read -r w1 _ < <(measure "$ours" solve --jobs 1 "$path")
    read -r w2 _ < <(measure "$ours" solve --jobs 2 "$path")
    echo "| $f | $w1 | $w2 | $(ratio "$w1" "$w2") |"
done
