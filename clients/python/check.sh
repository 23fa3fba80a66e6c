#!/usr/bin/env bash
# CI check of the Python client: builds the chessd-client wheel (its stubs generated from
# ../../proto by the pinned grpcio-tools), installs it into a fresh virtualenv with its test
# extras, type-checks the typed layer with mypy, and runs its tests there against a real
# chessd (each test starts its own server).
# The tests import the installed wheel, not src/, so they prove the wheel is complete.
# Usage: clients/python/check.sh [path/to/chessd]   (default: target/debug/chessd)
#        CHESSD_CLIENT_DIST=DIR keeps the wheel in DIR (default: a temporary directory)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
chessd="$(realpath "${1:-$here/../../target/debug/chessd}")"
if [ ! -x "$chessd" ]; then
  echo "check.sh: no chessd binary at $chessd (build it with cargo build --bin chessd)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dist="${CHESSD_CLIENT_DIST:-$work/dist}"
mkdir -p "$dist"
python3 -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$dist" "$here"
wheel=$(ls "$dist"/chessd_client-*.whl)
echo "built $(basename "$wheel") ($(stat -c %s "$wheel") bytes)"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[test]"
"$work/venv/bin/python" -c 'import chessd_client as cc; print("chessd-client", cc.__version__, "proto", cc.PROTO_SHA256[:12])'
# The typed layer type-checks against the generated .pyi stubs, as a user's mypy sees it.
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check mypy==2.4.1
(cd "$work" && "$work/venv/bin/python" -m mypy --ignore-missing-imports --no-incremental -p chessd_client)
cd "$here"
CHESSD_BIN="$chessd" timeout 600 "$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests
