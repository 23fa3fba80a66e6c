"""chessd's errors as one exception type, with the facts its status details carry.

Every chessd error has a google.rpc.ErrorInfo (domain "chessd") whose reason names the problem
(ILLEGAL_MOVE, PLY_MISMATCH, ...) and whose metadata carries the numbers a caller needs
(current_ply, resume_after_seq, ...); rate limits add a google.rpc.RetryInfo, bad fields a
google.rpc.BadRequest. ChessdError reads them once, so callers match on ``err.reason``.
"""

from __future__ import annotations

from typing import Mapping, Optional

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

DOMAIN = "chessd"


class ChessdError(Exception):
    """A call chessd (or the transport) refused.

    ``code`` is the gRPC status code; ``reason`` the ErrorInfo reason ("" when the error did not
    come from chessd, e.g. a connection that failed); ``metadata`` the ErrorInfo metadata;
    ``retry_after`` the RetryInfo delay in seconds, if any; ``field`` the first bad field named
    by a BadRequest, if any.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: str = "",
        metadata: Optional[Mapping[str, str]] = None,
        retry_after: Optional[float] = None,
        field: Optional[str] = None,
    ) -> None:
        super().__init__(f"{code.name}: {message}" + (f" ({reason})" if reason else ""))
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata: Mapping[str, str] = dict(metadata or {})
        self.retry_after = retry_after
        self.field = field

    @classmethod
    def from_rpc_error(cls, err: grpc.RpcError) -> "ChessdError":
        """Reads the status details of a failed call (an ``grpc.RpcError`` that is a ``grpc.Call``)."""
        code = err.code() if isinstance(err, grpc.Call) else grpc.StatusCode.UNKNOWN
        message = err.details() if isinstance(err, grpc.Call) else str(err)
        reason, metadata, retry_after, field = "", {}, None, None
        status = rpc_status.from_call(err) if isinstance(err, grpc.Call) else None
        for detail in status.details if status is not None else ():
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                if info.domain == DOMAIN:
                    reason, metadata = info.reason, dict(info.metadata)
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                detail.Unpack(retry)
                retry_after = retry.retry_delay.ToTimedelta().total_seconds()
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                if bad.field_violations:
                    field = bad.field_violations[0].field
        return cls(code, message or "", reason, metadata, retry_after, field)
