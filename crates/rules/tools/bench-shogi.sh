#!/usr/bin/env bash
# The shogi family's perft beside its yardsticks, on the same positions in the same run: shogi
# against the fastest MIT/Apache shogi generator (shunsai, ../shared/anchors/perft-shogi),
# minishogi against Fairy-Stockfish (../shared/anchors/perft-fairy-stockfish; no MIT/Apache
# generator plays it). For each case, RUNS (default 3) alternating runs of chessd's
# `examples/perft` and of the anchor, all with `--cpu` (the thread's CPU time from the start of
# perft to its count: steadier than wall time on a shared machine; start-up excluded on every
# side), as Markdown rows `| game | position | depth | nodes | chessd Mnps | anchor Mnps |
# ratio |` (medians). Bulk counting on every side. Exits with status 1 if a shogi count differs
# from the anchor's; minishogi counts may differ from Fairy-Stockfish's by its mating pawn drops
# (uchifuzume), which the row then shows.
#
# Usage (from the repository root, after `cargo build --release -p chessd-rules --example perft`
# and building the anchors: CARGO_TARGET_DIR=/tmp/tgt-anchor-shogi cargo build --release
# --manifest-path ../shared/anchors/perft-shogi/Cargo.toml; ../shared/anchors/perft-fairy-stockfish/build.sh):
#   crates/rules/tools/bench-shogi.sh
set -euo pipefail
RUNS=${RUNS:-3}
SHOGI_ANCHOR=${SHOGI_ANCHOR:-/tmp/tgt-anchor-shogi/release/perft-shogi}
FSF_ANCHOR=${FSF_ANCHOR:-/work/shared/anchors/perft-fairy-stockfish/perft.sh}
OURS=${OURS:-${CARGO_TARGET_DIR:-target}/release/examples/perft}

CASES=(
    "shogi|start|5|lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    "shogi|start|6|lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    "shogi|midgame-black|4|ln1g5/1r4k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b b BG2SLPnp 61"
    "shogi|midgame-white|4|ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62"
    "shogi|opening-pawn-in-hand|4|ln1gk1snl/1r5b1/p1ppppgpp/1s4p2/1p7/P1P3R2/1P1PPPP1P/1BG3S2/LNS1KG1NL b P 1"
    "shogi|max-moves|3|R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
    "minishogi|start|6|rbsgk/4p/5/P4/KGSBR[] w - - 0 1"
    "minishogi|mid-1|5|rs3/2skp/r2p1/1K1+b1/2B2[gg] b - - 1 21"
    "minishogi|mid-4|5|5/b+S1k1/P2R1/GKR1p/G4[Sb] b - - 0 28"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mnps() { sed -n 's/.*nodes=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 / 1e6 }'; }
nodes() { sed -n 's/.*nodes=\([0-9]*\).*/\1/p'; }

echo "| game | position | depth | nodes | chessd Mnps | anchor Mnps | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
status=0
for case in "${CASES[@]}"; do
    IFS='|' read -r game name depth fen <<<"$case"
    ours=() theirs=() n1= n2=
    for _ in $(seq "$RUNS"); do
        out=$("$OURS" --variant "$game" --depth "$depth" --fen "$fen" --cpu)
        n1=$(nodes <<<"$out") ours+=("$(mnps <<<"$out")")
        if [ "$game" = shogi ]; then
            out=$("$SHOGI_ANCHOR" --depth "$depth" --sfen "$fen" --cpu 2>/dev/null | tail -1)
        else
            out=$("$FSF_ANCHOR" --variant "$game" --depth "$depth" --fen "$fen" --cpu 2>/dev/null | tail -1)
        fi
        n2=$(nodes <<<"$out") theirs+=("$(mnps <<<"$out")")
    done
    a=$(printf '%s\n' "${ours[@]}" | median) b=$(printf '%s\n' "${theirs[@]}" | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
    anchor=shunsai
    [ "$game" = shogi ] || anchor=Fairy-Stockfish
    row="| $game | $name | $depth | $n1 | $a | $b ($anchor) | ${ratio}x |"
    if [ "$n1" != "$n2" ]; then
        if [ "$game" = shogi ]; then
            row+=" MISMATCH: the anchor counts $n2"
            status=1
        else
            row+=" (Fairy-Stockfish counts $n2: its mating pawn drops)"
        fi
    fi
    echo "$row"
done
exit $status
