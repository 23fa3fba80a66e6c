"""chessd-client: a typed Python client for chessd's gRPC API (chessd.v1).

Layout:
- ``client``: ``Client`` (one endpoint: TLS, API key, retries), ``Seat`` (one side's calls),
  ``Player`` (a player token's feed and seats), ``CreatedGame``, ``RetryPolicy``;
- ``errors``: ``ChessdError``, every refusal with its ErrorInfo reason and metadata;
- ``types``: the API's enums as IntEnums;
- ``chessd.v1.chessd_pb2`` / ``chessd_pb2_grpc``: the generated messages and stubs (also as
  ``chessd_client.pb`` and ``chessd_client.pb_grpc``), built from the proto when the package
  is built.

``__version__`` is the package version (major = the API's, chessd.v1 -> 1); ``PROTO_SHA256``
the digest of the wire descriptor this package was built from.
"""

from importlib import metadata as _metadata
from importlib import resources as _resources

from chessd.v1 import chessd_pb2 as pb
from chessd.v1 import chessd_pb2_grpc as pb_grpc

from .client import NO_RETRY, Client, CreatedGame, Player, RetryPolicy, Seat, new_request_id
from .errors import ChessdError
from .types import (ClockChangeReason, ClockStart, Color, DrawClaim, DrawRule, GameResult,
                    GameStatus, GameView, Termination, Variant)

__version__ = _metadata.version("chessd-client")
PROTO_SHA256 = _resources.files(__name__).joinpath("proto.sha256").read_text().strip()

__all__ = [
    "ChessdError", "ClockChangeReason", "ClockStart", "Client", "Color", "CreatedGame", "DrawClaim", "DrawRule", "GameResult",
    "GameStatus", "GameView", "NO_RETRY", "PROTO_SHA256", "Player", "RetryPolicy", "Seat",
    "Termination", "Variant", "new_request_id", "pb", "pb_grpc",
]
