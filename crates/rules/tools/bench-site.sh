#!/usr/bin/env bash
# Perft of the seed site's own games (Cylinder, Knight Relay, Cheshire Cat) beside chess, in
# the same run: for each case, RUNS (default 3) alternating runs of `examples/perft` on the
# game and on chess from its start at the same depth, as Markdown rows
# `| variant | position | depth | nodes | Mnps | chess Mnps | ratio |` (medians; the example's
# own timing line, process start-up excluded). No other program plays these games, so chess
# (the 8x8 engine, and the wide engine's chess-like Corner start) is the yardstick.
#
# Usage (from the repository root, after `cargo build --release -p chessd-rules --example perft`):
#   crates/rules/tools/bench-site.sh
set -euo pipefail
RUNS=${RUNS:-3}
OURS=${OURS:-${CARGO_TARGET_DIR:-target}/release/examples/perft}

CASES=(
    "cylinder|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "cylinder|mid-1|4|2n2b2/2p3p1/4k1Pq/1N1pp3/r3r3/PNP1p1Pb/pB1P4/4KB1Q b - - 1 36"
    "knightrelay|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "knightrelay|mid-1|4|r2k1b2/5Q1r/n1p1p1pn/ppp1P1P1/P2PqP1R/2P2N2/1P1N1P2/R1BK1B2 w - - 2 18"
    "cheshirecat|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1"
    "cheshirecat|mid-1|5|rnb*kbnr/pppp*ppp/5*2/4p3/PPP2*q1/2N4P/***PPPP*/R*BQKBNR b Kk - 2 5"
)
CHESS="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mnps() { sed -n 's/.*nodes=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }
nodes() { sed -n 's/.*nodes=\([0-9]*\).*/\1/p'; }

echo "| variant | position | depth | nodes | Mnps | chess Mnps | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for case in "${CASES[@]}"; do
    IFS='|' read -r variant name depth fen <<<"$case"
    ours=() chess=() n=
    for _ in $(seq "$RUNS"); do
        out=$("$OURS" --variant "$variant" --depth "$depth" --fen "$fen")
        n=$(nodes <<<"$out") ours+=("$(mnps <<<"$out")")
        out=$("$OURS" --variant chess --depth 5 --fen "$CHESS")
        chess+=("$(mnps <<<"$out")")
    done
    a=$(printf '%s\n' "${ours[@]}" | median) b=$(printf '%s\n' "${chess[@]}" | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
    echo "| $variant | $name | $depth | $n | $a | $b | ${ratio}x |"
done
