#!/usr/bin/env bash
# Times chessd's perft beside the shakmaty anchor (../shared/anchors/perft-shakmaty) on the
# same positions, in the same run, alternating the two so machine noise hits both alike.
# Prints a Markdown table: in-process Mnps (each binary's own timer) and whole-process
# wall time (startup included), best of REPS runs, with the ratio chessd / shakmaty.
#
#   tools/bench-perft.sh            # REPS=5 by default
#   REPS=9 tools/bench-perft.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${REPS:-5}
ANCHOR=${ANCHOR:-../shared/anchors/perft-shakmaty}
export CARGO_TARGET_DIR_ANCHOR=${CARGO_TARGET_DIR_ANCHOR:-/tmp/perft-shakmaty-target}

cargo build --release --locked --quiet
CARGO_TARGET_DIR=$CARGO_TARGET_DIR_ANCHOR cargo build --release --quiet --manifest-path "$ANCHOR/Cargo.toml"
OURS=target/release/chessd
THEIRS=$CARGO_TARGET_DIR_ANCHOR/release/perft-shakmaty

KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
cases=(
  "chess start, depth 6|chess|6|"
  "Kiwipete, depth 5|chess|5|$KIWIPETE"
  "Racing Kings start, depth 5|racingkings|5|"
  "Racing Kings start, depth 6|racingkings|6|"
)

now() { date +%s.%N; }

# run BIN-KIND VARIANT DEPTH FEN -> "in_process_secs wall_secs nodes"
run() {
  local kind=$1 variant=$2 depth=$3 fen=$4 t0 t1 out
  local args=(--variant "$variant" --depth "$depth")
  [ -n "$fen" ] && args+=(--fen "$fen")
  t0=$(now)
  if [ "$kind" = ours ]; then
    out=$("$OURS" perft "${args[@]}" --time 2>&1 >/dev/null)
  else
    out=$("$THEIRS" "${args[@]}" | tail -n 1)
  fi
  t1=$(now)
  local secs nodes
  secs=$(sed -E 's/.*secs=([0-9.]+).*/\1/' <<<"$out")
  nodes=$(sed -E 's/.*nodes=([0-9]+).*/\1/' <<<"$out")
  echo "$secs $(echo "$t1 - $t0" | bc -l) $nodes"
}

min() { sort -g | head -n 1; }

echo "| position | nodes | chessd Mnps | shakmaty Mnps | ratio | chessd wall s | shakmaty wall s | wall ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name variant depth fen <<<"$c"
  ours_in=(); ours_wall=(); theirs_in=(); theirs_wall=(); nodes=0; theirs_nodes=0
  for _ in $(seq "$REPS"); do
    read -r s w n < <(run ours "$variant" "$depth" "$fen"); ours_in+=("$s"); ours_wall+=("$w"); nodes=$n
    read -r s w n < <(run theirs "$variant" "$depth" "$fen"); theirs_in+=("$s"); theirs_wall+=("$w"); theirs_nodes=$n
  done
  if [ "$nodes" != "$theirs_nodes" ]; then
    echo "node counts differ on $name: chessd $nodes, shakmaty $theirs_nodes" >&2
    exit 1
  fi
  oi=$(printf '%s\n' "${ours_in[@]}" | min); ti=$(printf '%s\n' "${theirs_in[@]}" | min)
  ow=$(printf '%s\n' "${ours_wall[@]}" | min); tw=$(printf '%s\n' "${theirs_wall[@]}" | min)
  printf '| %s | %s | %.0f | %.0f | %.2fx | %.3f | %.3f | %.2fx |\n' "$name" "$nodes" \
    "$(echo "$nodes / $oi / 1000000" | bc -l)" "$(echo "$nodes / $ti / 1000000" | bc -l)" \
    "$(echo "$ti / $oi" | bc -l)" "$ow" "$tw" "$(echo "$tw / $ow" | bc -l)"
done
