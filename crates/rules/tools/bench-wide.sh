#!/usr/bin/env bash
# The wide family's perft beside Fairy-Stockfish, on the same positions in the same run: for
# each case, RUNS (default 3) alternating runs of chessd's `examples/perft` and of the anchor
# `../shared/anchors/perft-fairy-stockfish/perft.sh`, as Markdown rows
# `| variant | position | depth | nodes | chessd Mnps | FSF Mnps | ratio |` (medians of wall
# time from the start of perft to its count, process start-up excluded on both sides).
# Exits with status 1 if the node counts differ. A yardstick only: nothing of FSF is in chessd.
# A case's optional fifth field names FSF's variant where it differs (Corner and Fortress are
# its `chess` from their start); the anchor plays only FSF's built-in variants, so bkhorde,
# massacre (its variants file), maharajah, berolina and legan (no FSF here) are not timed.
# The xiangqi family's engine is timed here too (`--variant xiangqi`, the same interface).
#
# Usage (from the repository root, after `cargo build --release -p chessd-rules --example perft`):
#   crates/rules/tools/bench-wide.sh
#   VARIANTS="amazon knightmate" crates/rules/tools/bench-wide.sh    # those games only
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
    "amazon|start|5|rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1"
    "amazon|mid-1|4|rnbakb1r/pppp1p1p/4pnp1/5A2/8/4P3/PPPP1PPP/RNB1KBNR w KQkq - 2 4"
    "amazon|mid-2|4|r3kb1r/p1pppppp/1pna4/4N2n/1P5P/P1P3P1/3PbP2/RNB1KB1R b KQkq - 0 10"
    "knightmate|start|5|rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"
    "knightmate|mid-1|4|rm3r2/2pqpm2/5k1b/pp1p2p1/P2Pb2P/2B1P3/RPP2P1P/1MQ1K1MR b K - 2 17"
    "knightmate|mid-2|4|rm2r3/2p1pm2/7b/pp1p2Pk/P2PbP2/2B1P2q/RPP4P/1MQ1KM1R b K - 2 20"
    "extinction|start|5|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "extinction|mid-1|4|rn1k1bn1/2p2p1r/2q1p3/p2p2P1/P2QP1p1/3b1N1P/1P5R/1RB3NK b - - 0 20"
    "extinction|mid-2|4|rn1k1bn1/2pq1p1r/4p3/p2p2p1/P2QPPp1/3b1N1P/1P5R/1RB3NK b - - 1 19"
    "corner|start|5|krnbqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQBNRK w - - 0 1|chess"
    "corner|mid-1|4|k1brn2r/1p1pn3/p4p2/PBp5/1P2P2p/B1N4p/2PP1QPN/R6K w - - 0 19|chess"
    "corner|mid-2|4|1kbnrnr1/2p1p3/p1Q3pp/1p1P1p2/1P4P1/P7/2NPBbKP/1RNR2B1 w - - 2 15|chess"
    "fortress|start|5|krnbqnbr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RBNQBNRK w - - 0 1|chess"
    "fortress|mid-1|4|kr2bn2/1pb2r2/ppppN1pn/3P1p1p/4P1P1/Ppq2P1P/1QP2PPP/1R1B2RK b - - 3 19|chess"
    "fortress|mid-2|4|kn1r1qbb/p2pr3/1p1n1pp1/ppp4P/3PpPPP/p2QP2P/1BP2PNK/1BRR2N1 b - - 1 20|chess"
    "xiangqi|start|5|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    "xiangqi|mid-1|5|3aka1nr/r6c1/n3b4/p1p2Cp1p/4p1b2/6P1P/P1P1P4/Nc7/4R2C1/R1BAKABN1 b - - 29 15"
    "xiangqi|mid-2|5|3a1abn1/1r2k4/4b3c/2n6/p1p1p1p1P/1c5C1/P1P1P1P2/N2N4R/8R/2BAKAB2 w - - 9 29"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mnps() { sed -n 's/.*nodes=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }
nodes() { sed -n 's/.*nodes=\([0-9]*\).*/\1/p'; }

echo "| variant | position | depth | nodes | chessd Mnps | Fairy-Stockfish Mnps | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
status=0
for case in "${CASES[@]}"; do
    IFS='|' read -r variant name depth fen fsf_variant <<<"$case"
    # VARIANTS="amazon corner" times those games only.
    if [ -n "${VARIANTS:-}" ] && [[ " $VARIANTS " != *" $variant "* ]]; then
        continue
    fi
    ours=() theirs=() n1= n2=
    for _ in $(seq "$RUNS"); do
        out=$("$OURS" --variant "$variant" --depth "$depth" --fen "$fen")
        n1=$(nodes <<<"$out") ours+=("$(mnps <<<"$out")")
        out=$("$ANCHOR" --variant "${fsf_variant:-$variant}" --depth "$depth" --fen "$fen" 2>/dev/null | tail -1)
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
