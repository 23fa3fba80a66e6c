#!/usr/bin/env bash
# Rebuilds the spectator page into web/dist (committed; chessd embeds it): generates the
# TypeScript API from ../proto, type-checks, bundles with esbuild, copies the static files.
# Deterministic: the same sources and package-lock.json give the same bytes, which CI checks
# by rebuilding and running `git diff --exit-code`. Needs `npm ci` first. The games' rules
# (../docs/games/*.md) are bundled as text.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PWD/node_modules/.bin:$PATH"
buf generate
tsc --noEmit -p tsconfig.json
rm -rf dist
mkdir -p dist
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT
# The bundled packages' notices go to dist/licenses.txt instead of comments in the script.
esbuild src/app.ts --bundle --format=esm --target=es2022 --minify --legal-comments=none \
  --loader:.md=text \
  --charset=utf8 --log-level=warning --metafile="$meta" --outfile=dist/app.js
node tools/licenses.mjs "$meta" dist/licenses.txt
cp static/index.html static/app.css static/favicon.svg dist/
