#!/usr/bin/env bash
# The wide family's perft beside Fairy-Stockfish, on the same positions in the same run: for
# each case, RUNS (default 3) alternating runs of chessd's `examples/perft` and of the anchor
# `../shared/anchors/perft-fairy-stockfish/perft.sh`, as Markdown rows
# `| variant | position | depth | nodes | chessd Mnps | FSF Mnps | ratio |` (medians of wall
# time from the start of perft to its count, process start-up excluded on both sides).
# Exits with status 1 if the node counts differ. A yardstick only: nothing of FSF is in chessd.
#
# Usage (from the repository root, after `cargo build --release -p chessd-rules --example perft`):
#   crates/rules/tools/bench-wide.sh
set -euo pipefail
RUNS=${RUNS:-3}
ANCHOR=${ANCHOR:-/work/shared/anchors/perft-fairy-stockfish/perft.sh}
OURS=${OURS:-${CARGO_TARGET_DIR:-target}/release/examples/perft}

CASES=(
    "losalamos|start|6|rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
    "losalamos|mid-1|5|1nqk2/r2P1p/1p3n/p3rP/PRP2P/K3NR b - - 0 16"
    "losalamos|mid-2|5|r2k1r/1P1p2/6/2pP2/5P/R2K1R w - - 0 1"
    "janus|start|5|rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1"
    "janus|mid-1|4|r2bkqb1jr/nppppp1p2/p1B1n1p2p/8Q1/1PP4P2/2JPP1P3/P4P2PP/R1N1K1BNJR w KQkq - 1 15"
    "janus|mid-2|4|r3k4r/p1ppqpb3/bn2pnp3/3PJ5/1p2P5/2N2Q1p2/PPPBBPPPPP/R3K4R w KQkq - 0 1"
    "embassy|start|5|rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1"
    "embassy|mid-1|4|r1bk2a1n1/2pp3p2/pp4c3/n3p3r1/1PN2b1N1A/P3p1P3/2PP1P1PP1/R1BQ1KCB1q b - - 1 20"
    "embassy|mid-2|4|r3k4r/p1ppqpb3/bn2pnp3/3PA5/1p2P5/2N2C1p2/PPPBBPPPPP/R3K4R w KQkq - 0 1"
    "capablanca|start|5|rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    "capablanca|mid-1|4|2rbqkb2r/3ppppppp/p1p2c4/1pnC4NP/8n1/1PN3P3/P1PAP1KPP1/R2BQ1B2R w k - 1 19"
    "capablanca|mid-2|4|r4k3r/p1ppqpb3/bn2pnp3/3PA5/1p2P5/2N2C1p2/PPPBBPPPPP/R4K3R w KQkq - 0 1"
    "caparandom|start|5|rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w KQkq - 0 1"
    "caparandom|mid-1|4|1kra1n1b2/1p6p1/r1p1ppppBq/p1Ab5p/3C6/1PP3P1P1/3PPP1P1P/RKR2NBQ1N w CAc - 1 18"
    "caparandom|mid-2|4|r1k2q3r/p1ppapb3/bn2pnp3/3PC5/1p2P5/2N2Q1p2/PPPBBPPPPP/R1K6R w KQkq - 0 1"
    "grand|start|4|r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
    "grand|mid-1|4|r2b5r/3qk1abn1/1pppppppp1/n3c5/p2B5p/1P1A1P4/6P3/P1PPP2PPP/1NBQKC2N1/R8R w - - 5 6"
    "grand|mid-2|4|r8r/1P2k5/2P7/10/3pP5/10/10/5K4/2B1QCAN2/R8R w - d7 0 1"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mnps() { sed -n 's/.*nodes=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }
nodes() { sed -n 's/.*nodes=\([0-9]*\).*/\1/p'; }

echo "| variant | position | depth | nodes | chessd Mnps | Fairy-Stockfish Mnps | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
status=0
for case in "${CASES[@]}"; do
    IFS='|' read -r variant name depth fen <<<"$case"
    ours=() theirs=() n1= n2=
    for _ in $(seq "$RUNS"); do
        out=$("$OURS" --variant "$variant" --depth "$depth" --fen "$fen")
        n1=$(nodes <<<"$out") ours+=("$(mnps <<<"$out")")
        out=$("$ANCHOR" --variant "$variant" --depth "$depth" --fen "$fen" 2>/dev/null | tail -1)
        n2=$(nodes <<<"$out") theirs+=("$(mnps <<<"$out")")
    done
    a=$(printf '%s\n' "${ours[@]}" | median) b=$(printf '%s\n' "${theirs[@]}" | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", a / b }')
    row="| $variant | $name | $depth | $n1 | $a | $b | ${ratio}x |"
    if [ "$n1" != "$n2" ]; then
        row+=" MISMATCH: Fairy-Stockfish counts $n2"
        status=1
    fi
    echo "$row"
done
exit $status
