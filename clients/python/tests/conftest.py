"""Starts real chessd servers for the tests: the binary from CHESSD_BIN (default: the
repository's target/debug/chessd), each on its own loopback port, stopped after its test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Callable, Iterator, List, Optional

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

REPO = Path(__file__).resolve().parents[3]


def chessd_bin() -> str:
    path = os.environ.get("CHESSD_BIN") or str(REPO / "target" / "debug" / "chessd")
    if not os.access(path, os.X_OK):
        pytest.exit(f"no chessd binary at {path} (cargo build --bin chessd, or set CHESSD_BIN)", 2)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One chessd process; ``restart`` keeps its port and flags (and so its --data-dir)."""

    def __init__(self, args: List[str], port: int, log: Path) -> None:
        self.args = args
        self.port = port
        self.log = log
        self.process: Optional[subprocess.Popen] = None

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, channel_credentials: Optional[grpc.ChannelCredentials] = None,
              server_name: Optional[str] = None) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                # No grace before the drain: tests stop and restart servers all the time.
                [chessd_bin(), "serve", "--listen", self.addr, "--shutdown-grace", "0s",
                 *self.args],
                stdout=log, stderr=subprocess.STDOUT)
        self.wait_serving(channel_credentials, server_name)

    def wait_serving(self, credentials: Optional[grpc.ChannelCredentials],
                     server_name: Optional[str]) -> None:
        options = [("grpc.ssl_target_name_override", server_name)] if server_name else []
        channel = (grpc.secure_channel(self.addr, credentials, options=options)
                   if credentials else grpc.insecure_channel(self.addr))
        health = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"chessd exited ({self.process.returncode}):\n"
                                       + self.log.read_text())
                try:
                    reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.RpcError:
                    pass
                time.sleep(0.1)
            raise RuntimeError(f"chessd not SERVING after 30 s:\n{self.log.read_text()}")
        finally:
            channel.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``start_server(*flags)``: a running chessd with these extra flags."""
    servers: List[Server] = []

    def start(*args: str, credentials: Optional[grpc.ChannelCredentials] = None,
              server_name: Optional[str] = None) -> Server:
        server = Server(list(args), free_port(), tmp_path / f"chessd-{len(servers)}.log")
        servers.append(server)
        server.start(credentials, server_name)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server: Callable[..., Server]) -> Server:
    """A chessd with the defaults (in memory, plaintext, no API keys)."""
    return start_server()
