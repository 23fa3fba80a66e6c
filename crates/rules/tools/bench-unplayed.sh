#!/usr/bin/env bash
# The perft speed of the games no other program plays (Cylinder, Knight Relay, Cheshire Cat,
# Recycle, Ice Age), beside chess's (the 8x8 engine, the yardstick issue 30 names: at least
# half its nodes per second) in the same run: for each case, RUNS (default 3) alternating runs
# of the `perft` example on the case and on chess's start at depth 5, as Markdown rows
# `| variant | position | depth | nodes | Mnps | chess Mnps | ratio |` (medians; the
# example's own timing line, process start-up excluded). Positions are the committed perft
# suites'. GAMES (default all) keeps the cases of the games it names, space-separated. CPU=1
# times each run by its thread's CPU time (the example's `--cpu`), steadier than wall time
# when other work shares the machine.
#
# Usage (from the repository root, after `cargo build --release -p chessd-rules --example perft`):
#   crates/rules/tools/bench-unplayed.sh
#   GAMES="cylinder knightrelay cheshirecat" RUNS=5 crates/rules/tools/bench-unplayed.sh
set -euo pipefail
RUNS=${RUNS:-3}
TIMING=()
if [ -n "${CPU:-}" ]; then
    TIMING=(--cpu)
fi
OURS=${OURS:-${CARGO_TARGET_DIR:-target}/release/examples/perft}

# The last case is chess itself from Corner Chess's example array on the wide engine, the
# engine these games run on, for comparison.
CASES=(
    "cylinder|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "cylinder|mid-1|4|2n2b2/2p3p1/4k1Pq/1N1pp3/r3r3/PNP1p1Pb/pB1P4/4KB1Q b - - 1 36"
    "knightrelay|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "knightrelay|mid-1|4|r2k1b2/5Q1r/n1p1p1pn/ppp1P1P1/P2PqP1R/2P2N2/1P1N1P2/R1BK1B2 w - - 2 18"
    "cheshirecat|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1"
    "cheshirecat|mid-1|5|rnb*kbnr/pppp*ppp/5*2/4p3/PPP2*q1/2N4P/***PPPP*/R*BQKBNR b Kk - 2 5"
    "recycle|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    "recycle|mid-1|4|r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R[QBnp] w KQkq - 0 10"
    "recycle|mid-2|4|4k3/1P4P1/8/3q4/8/8/p5p1/4K2R[Rr] w K - 0 40"
    "iceage|start|6|rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "iceage|mid-1|5|r3k2r/p1p**ppp/1*2*3/2p5/3**3/8/PPP**PPP/R3K2R w KQkq - 0 12"
    "iceage|mid-2|5|r1bqkb1r/pppp1ppp/2n2n2/4p*2/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 4 20"
    "corner|start|5|krnbqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQBNRK w - - 0 1"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mnps() { sed -n 's/.*nodes=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }
nodes() { sed -n 's/.*nodes=\([0-9]*\).*/\1/p'; }

echo "| variant | position | depth | nodes | Mnps | chess Mnps | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for case in "${CASES[@]}"; do
    IFS='|' read -r variant name depth fen <<<"$case"
    if [ -n "${GAMES:-}" ] && [[ " $GAMES " != *" $variant "* ]] && [ "$variant" != corner ]; then
        continue
    fi
    ours=() chess=() n=
    for _ in $(seq "$RUNS"); do
        out=$("$OURS" --variant "$variant" --depth "$depth" --fen "$fen" "${TIMING[@]}")
        n=$(nodes <<<"$out") ours+=("$(mnps <<<"$out")")
        chess+=("$("$OURS" --variant chess --depth 5 "${TIMING[@]}" | mnps)")
    done
    a=$(printf '%s\n' "${ours[@]}" | median) b=$(printf '%s\n' "${chess[@]}" | median)
    echo "| $variant | $name | $depth | $n | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }') |"
done
