#!/bin/sh
# Grading and graded generation at every size, single thread (issue 22).
#
#   benches/levels.sh grade [FILES…]       time `dekadoku grade` per puzzle
#   benches/levels.sh generate SIZE LEVEL COUNT [SEED]
#                                          median time and hit rate of
#                                          `generate --level LEVEL`
#   benches/levels.sh graded SIZE LEVEL COUNT [SEED]
#                                          generates COUNT puzzles (seeds
#                                          SEED, SEED+1, …) and times
#                                          `dekadoku grade` on each alone
#   benches/levels.sh small                the sizes and levels `all` adds
#                                          to the issue's three (4, 6, 12)
#   benches/levels.sh all                  both, on the shipped 16×16 and
#                                          25×25 files and every size × level
#
# Uses target/release/dekadoku (build it first: cargo build --release).
# Prints one line per file or per size × level; times are CPU milliseconds
# (user + system, whole process, 10 ms resolution), so that a loaded machine
# does not inflate them.
set -eu
cd "$(dirname "$0")/.."
bin=${DEKADOKU:-target/release/dekadoku}

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

grade_files() {
    tmp=$(mktemp -d)
    for f in "$@"; do
        : > "$tmp/times"
        grep -v '^#' "$f" | grep -v '^$' > "$tmp/all" || true
        while IFS= read -r p; do
            printf '%s\n' "$p" > "$tmp/one"
            /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" grade "$tmp/one" > /dev/null 2>&1
            awk '{printf "%d\n", ($1 + $2) * 1000}' "$tmp/time" >> "$tmp/times"
        done < "$tmp/all"
        n=$(wc -l < "$tmp/times")
        max=$(sort -n "$tmp/times" | tail -1)
        echo "grade ${label:-$f}: $n puzzles, median $(median < "$tmp/times") ms, max $max ms"
    done
    rm -rf "$tmp"
}

generate() {
    size=$1 level=$2 count=$3 seed=${4:-1}
    tmp=$(mktemp -d)
    : > "$tmp/times"
    : > "$tmp/wall"
    hits=0
    i=0
    while [ "$i" -lt "$count" ]; do
        /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" generate --size "$size" \
            --level "$level" --seed $((seed + i)) --jobs 1 > "$tmp/out" 2>/dev/null || true
        awk '{printf "%d\n", ($1 + $2) * 1000}' "$tmp/time" >> "$tmp/times"
        sed -n 's/^# seed.*, \([0-9.]*\) ms$/\1/p' "$tmp/out" >> "$tmp/wall"
        if grep -q " clues, $level (" "$tmp/out"; then hits=$((hits + 1)); fi
        i=$((i + 1))
    done
    max=$(sort -n "$tmp/times" | tail -1)
    echo "generate ${size}x$size $level: median $(median < "$tmp/times") ms CPU ($(median < "$tmp/wall") ms as reported), max $max ms, hit $hits/$count (seeds $seed+)"
    rm -rf "$tmp"
}

# Grading puzzles the generator makes (the shipped files hold few of the
# hardest levels): one file per seed, graded as `grade_files` does.
graded() {
    size=$1 level=$2 count=$3 seed=${4:-1}
    dir=$(mktemp -d)
    i=0
    while [ "$i" -lt "$count" ]; do
        "$bin" generate --size "$size" --level "$level" --seed $((seed + i)) --jobs 1 \
            2>/dev/null | grep -v '^#' >> "$dir/${size}x$size-$level"
        i=$((i + 1))
    done
    label="generated ${size}x$size $level (seeds $seed+)" grade_files "$dir/${size}x$size-$level"
    rm -rf "$dir"
}

case "${1:-all}" in
grade) shift; grade_files "$@" ;;
graded) shift; graded "$@" ;;
generate) shift; generate "$@" ;;
all)
    grade_files puzzles/16x16-*.txt puzzles/25x25-*.txt
    generate 4 easy 20
    for l in easy medium hard; do generate 6 $l 20; done
    for l in easy medium hard expert; do generate 9 $l 20; done
    generate 9 extreme 10
    for l in easy medium hard expert extreme; do generate 12 $l 5; done
    for l in easy medium hard expert extreme; do generate 16 $l 5; done
    for l in easy medium hard expert extreme; do generate 25 $l 3; done
    graded 25 extreme 20
    ;;
small)
    generate 4 easy 20
    for l in easy medium hard; do generate 6 $l 20; done
    for l in easy medium hard expert extreme; do generate 12 $l 5; done
    ;;
*) echo "usage: $0 [grade FILES…|generate SIZE LEVEL COUNT [SEED]|graded SIZE LEVEL COUNT [SEED]|small|all]" >&2; exit 2 ;;
esac
