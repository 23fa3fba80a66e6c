#!/usr/bin/env bash
# Runs the page's unit tests (test/unit.ts) in headless Chromium (/usr/bin/chromium, or
# CHROMIUM): type-checks them, bundles them for the browser and their runner for Node with
# esbuild. Needs no chessd. Usage: web/test/unit.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tsc --noEmit -p test/tsconfig.json
esbuild test/unit.ts --bundle --format=iife --target=es2022 --log-level=warning --loader:.md=text \
  --outfile="$out/unit.js"
esbuild test/unit-run.ts --bundle --platform=node --format=esm --target=node20 \
  --packages=external --log-level=warning --outfile="$out/unit-run.mjs"
ln -s "$PWD/node_modules" "$out/node_modules"
node "$out/unit-run.mjs" "$out/unit.js"
