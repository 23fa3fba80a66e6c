#!/usr/bin/env bash
# Generates the Python gRPC stubs for chessd.v1 from proto/ into gen/ (not committed: the
# .proto file is the source of truth, and the stubs must match the grpcio-tools installed).
# Usage: ./gen_stubs.sh   (after: python3 -m pip install -r requirements.txt)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
proto="$here/../../proto"
rm -rf "$here/gen"
mkdir -p "$here/gen"
# grpcio-tools ships protoc and the well-known types (google/protobuf/*.proto).
python3 -m grpc_tools.protoc -I "$proto" \
  --python_out="$here/gen" --grpc_python_out="$here/gen" \
  "$proto/chessd/v1/chessd.proto"
echo "stubs in $here/gen/chessd/v1/"
