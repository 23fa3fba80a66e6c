"""Generates the chessd.v1 stubs from the proto at build time, into the wheel.

Why at build time and not committed: the proto is the one source of truth (a committed copy
could drift from it), protobuf marks its Python output "NO CHECKED-IN PROTOBUF GENCODE", and
the stubs must match the grpcio-tools pinned in pyproject.toml, whose version sets the lowest
grpcio and protobuf they run with.

The proto comes from the repository (../../proto) or, in an sdist, from its own copy
(./proto). The build also ties the package version to the API: the major version must be the
proto package's (chessd.v1 -> 1), and the digest of the wire descriptor (the serialized
FileDescriptorProto without comments, as protoc embeds it in chessd_pb2.py) must be the one
proto.sha256 records. A changed field, message, enum value or rpc changes that digest, so the
build stops until the version is bumped and the new digest recorded; a changed comment does not.
"""

from __future__ import annotations

import ast
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PROTO_FILE = "chessd/v1/chessd.proto"


def find_proto_root(root: Path) -> Path:
    for candidate in (root / "proto", root.parent.parent / "proto"):
        if (candidate / PROTO_FILE).is_file():
            return candidate
    raise RuntimeError(f"chessd-client: no {PROTO_FILE} under {root}/proto or {root}/../../proto")


def generate(proto_root: Path, out: Path) -> None:
    """Runs grpcio-tools' protoc: messages, type stubs (.pyi) and the gRPC service stubs."""
    import grpc_tools  # the build requirement; imported here so a missing one is named

    well_known = Path(grpc_tools.__file__).parent / "_proto"
    command = [
        sys.executable, "-m", "grpc_tools.protoc",
        f"-I{proto_root}", f"-I{well_known}",
        f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}",
        PROTO_FILE,
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"chessd-client: protoc failed:\n{done.stderr}")


def descriptor_digest(pb2: Path) -> str:
    """The SHA-256 of the serialized descriptor that protoc embedded in chessd_pb2.py."""
    source = pb2.read_text()
    match = re.search(r"AddSerializedFile\((b'(?:[^'\\]|\\.)*')\)", source)
    if match is None:
        raise RuntimeError(f"chessd-client: no serialized descriptor in {pb2}")
    return hashlib.sha256(ast.literal_eval(match.group(1))).hexdigest()


def check_version(root: Path, version: str, proto_root: Path, digest: str) -> None:
    package = re.search(r"^package\s+chessd\.v(\d+)\s*;", (proto_root / PROTO_FILE).read_text(), re.M)
    if package is None:
        raise RuntimeError("chessd-client: the proto declares no package chessd.vN")
    if version.split(".")[0] != package.group(1):
        raise RuntimeError(
            f"chessd-client: version {version} does not match the API chessd.v{package.group(1)}: "
            f"the major version is the proto package's")
    recorded = (root / "proto.sha256").read_text().split()[0]
    if recorded != digest:
        raise RuntimeError(
            "chessd-client: the API's wire description changed since version "
            f"{version} (descriptor sha256 {digest}, proto.sha256 records {recorded}). "
            "Bump the version in clients/python/pyproject.toml and write the new digest "
            "into clients/python/proto.sha256.")


class StubsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name not in ("wheel",):
            return
        root = Path(self.root)
        proto_root = find_proto_root(root)
        out = Path(tempfile.mkdtemp(prefix="chessd-client-stubs-"))
        self._out = out
        generate(proto_root, out)
        digest = descriptor_digest(out / "chessd" / "v1" / "chessd_pb2.py")
        check_version(root, self.metadata.version, proto_root, digest)
        # PEP 561: the .pyi stubs count for type checkers only with a marker; in a namespace
        # package (chessd) it goes in the subpackage.
        (out / "chessd" / "v1" / "py.typed").write_text("")
        # The digest also ships, so a program can say which API its client speaks.
        (out / "chessd_client_proto.sha256").write_text(digest + "\n")
        for generated in (out / "chessd" / "v1").iterdir():
            build_data["force_include"][str(generated)] = f"chessd/v1/{generated.name}"
        build_data["force_include"][str(out / "chessd_client_proto.sha256")] = (
            "chessd_client/proto.sha256")

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
