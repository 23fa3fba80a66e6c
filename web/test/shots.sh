#!/usr/bin/env bash
# Copies the browser test's screenshots that docs/web.md shows from web/test-artifacts/ into
# docs/, after a run of web/test/run.sh (the boards are its board-<game>.png, cropped to the
# board, its clocks and hands). The shots' CJK characters come from the system's fonts: take
# them where Noto CJK is installed (Debian: fonts-noto-cjk), as docs/web.md says. Prints each
# file's size. Nothing in CI calls this: a screenshot that differs fails nothing.
# Usage: web/test/shots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
art=test-artifacts
docs=../docs
# The test's name, then the docs' name.
pairs=(
  lobby.png lobby.png
  new-game-ready.png new-game-ready.png
  play-promotion.png play.png
  crazyhouse-pick.png crazyhouse.png
)
for key in chess crazyhouse janus grand losalamos xiangqi shogi minishogi iceage recycle dice behemoth dark screen; do
  pairs+=("board-$key.png" "board-$key.png")
done
missing=0
for ((i = 0; i < ${#pairs[@]}; i += 2)); do
  from=$art/${pairs[i]}
  to=$docs/${pairs[i + 1]}
  if [ ! -f "$from" ]; then
    # The site-only games' shots exist only once the server plays them.
    echo "no $from (its scenario was skipped or not run)" >&2
    missing=$((missing + 1))
    continue
  fi
  cp "$from" "$to"
  printf '%8d bytes  %s\n' "$(wc -c <"$to")" "${to#../}"
done
[ "$missing" -eq 0 ] || echo "$missing screenshots missing" >&2
