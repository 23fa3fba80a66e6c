#!/usr/bin/env bash
# Instructions a perft node of the wide family, counted by cachegrind (steady where wall time
# on a shared machine is not), for every case of `bench-wide.sh` one ply shallower, and for two
# builds of the perft example side by side: `| variant | position | depth | nodes | before |
# after | change |`. A case's count is the run at its depth less a depth-0 run (process
# start-up and FEN parsing), over the leaf count. Exits with status 1 if the two builds' node
# counts differ.
#
# Usage (from the repository root; BEFORE is a perft example built from the older commit):
#   cargo build --release -p chessd-rules --example perft
#   BEFORE=/tmp/perft-before crates/rules/tools/wide-instructions.sh
#   VARIANTS="losalamos extinction" BEFORE=... crates/rules/tools/wide-instructions.sh
set -euo pipefail
AFTER=${AFTER:-${CARGO_TARGET_DIR:-target}/release/examples/perft}
BEFORE=${BEFORE:?BEFORE=<perft example of the older build>}
BENCH=${BENCH:-$(dirname "$0")/bench-wide.sh}

# The cases are bench-wide.sh's, read from it so the two lists cannot drift apart.
mapfile -t CASES < <(sed -n '/^CASES=(/,/^)/s/^ *"\(.*\)"$/\1/p' "$BENCH")

# Instructions executed by `perft ARGS...`, and the node count it printed (a second try if
# valgrind printed no count, as it rarely does on a loaded machine).
count() {
    local out refs nodes
    for _ in 1 2; do
        out=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1)
        refs=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' <<<"$out" | tr -d ,)
        nodes=$(sed -n 's/^nodes=\([0-9]*\).*/\1/p' <<<"$out")
        if [ -n "$refs" ] && [ -n "$nodes" ]; then
            break
        fi
    done
    echo "$refs $nodes"
}

# Instructions a node of `binary` on one case.
per_node() {
    local binary=$1 variant=$2 depth=$3 fen=$4 base run
    base=$(count "$binary" --variant "$variant" --depth 0 --fen "$fen")
    run=$(count "$binary" --variant "$variant" --depth "$depth" --fen "$fen")
    awk -v b="${base% *}" -v r="${run% *}" -v n="${run#* }" \
        'BEGIN { printf "%s %.1f", n, (r - b) / n }'
}

echo "| variant | position | depth | nodes | before | after | change |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
status=0
for case in "${CASES[@]}"; do
    IFS='|' read -r variant name depth fen _ <<<"$case"
    if [ -n "${VARIANTS:-}" ] && [[ " $VARIANTS " != *" $variant "* ]]; then
        continue
    fi
    depth=$((depth - 1))
    read -r n1 a <<<"$(per_node "$BEFORE" "$variant" "$depth" "$fen")"
    read -r n2 b <<<"$(per_node "$AFTER" "$variant" "$depth" "$fen")"
    change=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f%%", (b - a) / a * 100 }')
    row="| $variant | $name | $depth | $n2 | $a | $b | $change |"
    if [ "$n1" != "$n2" ]; then
        row+=" MISMATCH: before counts $n1"
        status=1
    fi
    echo "$row"
done
exit $status
