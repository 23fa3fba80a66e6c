#!/usr/bin/env bash
# Times chessd's perft (the rules crate's `perft` example) beside the shakmaty anchor
# (../shared/anchors/perft-shakmaty) on the same positions, in the same run: for each case,
# ROUNDS rounds alternate the two binaries so machine noise hits both alike. Bulk counting
# (the last ply counted, not played), as both do by default. Prints a Markdown table of
# medians: in-process Mnps (each binary's own timer) and whole-process wall time (start-up
# included), with the ratio chessd / shakmaty (> 1: chessd is faster).
#
#   tools/bench-perft.sh                       # ROUNDS=5 by default
#   ROUNDS=9 tools/bench-perft.sh
#   BEFORE=/tmp/perft-old tools/bench-perft.sh # also an older build of the example, alternated
#                                              # in the same rounds ("before" columns; chess and
#                                              # Racing Kings, the variants every build knows)
#   CASES='chess960|atomic' tools/bench-perft.sh   # only the cases whose name matches
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
ANCHOR=${ANCHOR:-../shared/anchors/perft-shakmaty}
ANCHOR_TARGET=${ANCHOR_TARGET:-/tmp/shakmaty-target}
BEFORE=${BEFORE:-}
CASES=${CASES:-.}

cargo build --release --locked --quiet -p chessd-rules --example perft
CARGO_TARGET_DIR=$ANCHOR_TARGET cargo build --release --quiet --manifest-path "$ANCHOR/Cargo.toml"
OURS=target/release/examples/perft
THEIRS=$ANCHOR_TARGET/release/perft-shakmaty

KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
SHUFFLED='bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'
cases=(
  "chess start, depth 6|chess|6|"
  "Kiwipete, depth 5|chess|5|$KIWIPETE"
  "Racing Kings start, depth 6|racingkings|6|"
  "Chess960 $SHUFFLED, depth 6|chess960|6|$SHUFFLED"
  "Three-check start, depth 6|threecheck|6|"
  "King of the Hill start, depth 6|kingofthehill|6|"
  "Antichess start, depth 6|antichess|6|"
  "Atomic start, depth 6|atomic|6|"
  "Horde start, depth 7|horde|7|"
  "Crazyhouse start, depth 6|crazyhouse|6|"
)

now() { date +%s.%N; }

# run BINARY VARIANT DEPTH FEN -> "in_process_secs wall_secs nodes"
run() {
  local bin=$1 variant=$2 depth=$3 fen=$4 t0 t1 out
  local args=(--variant "$variant" --depth "$depth")
  [ -n "$fen" ] && args+=(--fen "$fen")
  t0=$(now)
  out=$("$bin" "${args[@]}" | tail -n 1)
  t1=$(now)
  echo "$(sed -E 's/.*secs=([0-9.]+).*/\1/' <<<"$out") $(echo "$t1 - $t0" | bc -l) \
$(sed -E 's/.*nodes=([0-9]+).*/\1/' <<<"$out")"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
mnps() { echo "$1 / $2 / 1000000" | bc -l; }

header="| position | nodes | chessd Mnps | shakmaty Mnps | ratio | chessd wall s | shakmaty wall s | wall ratio |"
rule="|---|---:|---:|---:|---:|---:|---:|---:|"
if [ -n "$BEFORE" ]; then
  header="$header before Mnps | before wall s | chessd / before (wall) |"
  rule="$rule---:|---:|---:|"
fi
echo "$header"
echo "$rule"
for c in "${cases[@]}"; do
  IFS='|' read -r name variant depth fen <<<"$c"
  grep -Eq "$CASES" <<<"$name $variant" || continue
  oi=(); ow=(); ti=(); tw=(); bi=(); bw=()
  for _ in $(seq "$ROUNDS"); do
    read -r s w nodes < <(run "$OURS" "$variant" "$depth" "$fen"); oi+=("$s"); ow+=("$w")
    read -r s w theirs < <(run "$THEIRS" "$variant" "$depth" "$fen"); ti+=("$s"); tw+=("$w")
    if [ "$nodes" != "$theirs" ]; then
      echo "node counts differ on $name: chessd $nodes, shakmaty $theirs" >&2
      exit 1
    fi
    if [ -n "$BEFORE" ] && [[ $variant == chess || $variant == racingkings ]]; then
      read -r s w before < <(run "$BEFORE" "$variant" "$depth" "$fen"); bi+=("$s"); bw+=("$w")
    fi
  done
  o=$(printf '%s\n' "${oi[@]}" | median); t=$(printf '%s\n' "${ti[@]}" | median)
  owm=$(printf '%s\n' "${ow[@]}" | median); twm=$(printf '%s\n' "${tw[@]}" | median)
  line=$(printf '| %s | %s | %.0f | %.0f | %.2fx | %.3f | %.3f | %.2fx |' "$name" "$nodes" \
    "$(mnps "$nodes" "$o")" "$(mnps "$nodes" "$t")" "$(echo "$t / $o" | bc -l)" \
    "$owm" "$twm" "$(echo "$twm / $owm" | bc -l)")
  if [ ${#bi[@]} -gt 0 ]; then
    b=$(printf '%s\n' "${bi[@]}" | median); bwm=$(printf '%s\n' "${bw[@]}" | median)
    line="$line$(printf ' %.0f | %.3f | %.2fx |' "$(mnps "$nodes" "$b")" "$bwm" "$(echo "$bwm / $owm" | bc -l)")"
  elif [ -n "$BEFORE" ]; then
    line="$line - | - | - |"
  fi
  echo "$line"
done
