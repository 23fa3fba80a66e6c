#!/usr/bin/env bash
# Runs the browser end-to-end test against a chessd binary: type-checks test/browser.ts,
# bundles it for Node with esbuild, then drives /usr/bin/chromium (override with CHROMIUM) through playwright-core.
# Screenshots land in web/test-artifacts/ (gitignored). With WEB_DIST=dist the page's files come
# from that directory instead of the ones the binary embeds (a page changed, the binary built
# from another tree). Usage: [WEB_DIST=web/dist] web/test/run.sh <path-to-chessd>
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <path-to-chessd>" >&2; exit 2; }
start=$PWD
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tsc --noEmit -p test/tsconfig.json
esbuild test/browser.ts --bundle --platform=node --format=esm --target=node20 \
  --packages=external --log-level=warning --outfile="$out/browser.mjs"
# The bundle imports its packages from here.
ln -s "$PWD/node_modules" "$out/node_modules"
bin=$(cd "$start" && realpath "$1")
if [ -n "${WEB_DIST:-}" ]; then WEB_DIST=$(cd "$start" && realpath "$WEB_DIST"); export WEB_DIST; fi
node "$out/browser.mjs" "$bin"
