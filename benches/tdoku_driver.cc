// dekadoku's measurement harness for benches/whole_process.sh: a whole-process
// driver around tdoku (github.com/t-dillon/tdoku, BSD-2), the 9x9 peer of
// the README's benchmark. Not part of dekadoku: the script compiles it
// against a tdoku checkout given on its command line, into a temporary
// folder, and nothing of tdoku is in this repository or our binary.
//
// usage: driver solve|count FILE
// Reads the whole file; each line of at least 81 bytes not starting with
// '#' is a puzzle (its first 81 bytes; '1'-'9' given, anything else blank,
// so '0' blanks and CSV rows work). solve: counts to 2 and, when unique,
// solves again with limit 1 for the grid (as tdoku's example/solve.c does),
// printing it; count: prints the count up to 2. Output buffered in 64 KiB
// blocks. Exit 1 when some puzzle is not unique.
#include "tdoku.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    bool solve = strcmp(argv[1], "solve") == 0;
    FILE *f = fopen(argv[2], "rb");
    if (!f) return 2;
    std::vector<char> buf;
    char chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf.insert(buf.end(), chunk, chunk + n);
    fclose(f);
    buf.push_back('\n');
    buf.push_back('\0');
    static char out[1 << 16];
    size_t used = 0;
    char solution[82];
    size_t guesses;
    int status = 0;
    for (size_t i = 0; i + 1 < buf.size();) {
        char *line = &buf[i];
        char *end = (char *)memchr(line, '\n', buf.size() - i);
        size_t len = end - line;
        i += len + 1;
        if (len < 81 || line[0] == '#') continue;
        // tdoku reads '.' as blank: normalise '0' (and anything else) to it.
        char puzzle[82];
        for (int k = 0; k < 81; k++) {
            char c = line[k];
            puzzle[k] = (c >= '1' && c <= '9') ? c : '.';
        }
        puzzle[81] = '\n';
        line = puzzle;
        size_t count = TdokuSolverDpllTriadSimd(line, 2, 0, solution, &guesses);
        if (used + 84 > sizeof out) { fwrite(out, 1, used, stdout); used = 0; }
        if (solve) {
            if (count == 1) {
                TdokuSolverDpllTriadSimd(line, 1, 0, solution, &guesses);
                memcpy(out + used, solution, 81);
                used += 81;
                out[used++] = '\n';
            } else {
                status = 1;
            }
        } else {
            out[used++] = char('0' + count);
            out[used++] = '\n';
            if (count != 1) status = 1;
        }
    }
    fwrite(out, 1, used, stdout);
    return status;
}
