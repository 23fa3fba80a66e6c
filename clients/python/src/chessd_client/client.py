"""The typed layer over the chessd.v1 stubs: a Client for the service, a Seat for one side.

What it adds to the raw stubs, and why:
- credentials in one place: TLS (server roots, optional client certificate for mutual TLS)
  and an API key sent as ``x-api-key`` on every call; seat tokens as ``authorization: Bearer``;
- retries that never play twice: SubmitMove and CreateGame always carry a ``request_id`` (a
  random one unless given), so a retry after a lost answer gets the first answer back; other
  calls are retried only when the server says it refused them before doing anything
  (RATE_LIMITED, after its RetryInfo delay; SHUTTING_DOWN) or when they only read;
- ``expected_ply`` on moves, so a stale move fails with PLY_MISMATCH instead of landing;
- WatchGame that resumes: after a broken stream it watches again from the last ``seq`` seen
  (or the ``resume_after_seq`` the server named), so the caller sees every event once, in order;
- WatchGames (the deployment's feed) that resumes the same way from the last ``cursor``;
- player tokens: ``Client.player(token)`` acts for a player in every seat bound to it.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar

import grpc
from google.protobuf import duration_pb2

from chessd.v1 import chessd_pb2 as pb
from chessd.v1 import chessd_pb2_grpc as pb_grpc

from .errors import ChessdError
from .types import ClockStart, Color, DrawClaim, DrawRule, GameStatus, GameView, Variant

T = TypeVar("T")
Metadata = Sequence[Tuple[str, str]]

# Refusals that happen before the server acts: safe to retry any call.
_REFUSED_BEFORE_ACTING = {"RATE_LIMITED", "SHUTTING_DOWN"}


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently calls are retried.

    ``attempts`` counts the first try (1 means no retry). Between tries the client waits the
    server's RetryInfo delay when it gives one, else an exponential backoff from
    ``initial_backoff`` doubling up to ``max_backoff`` seconds, with jitter.
    """

    attempts: int = 5
    initial_backoff: float = 0.1
    max_backoff: float = 2.0

    def backoff(self, attempt: int, err: ChessdError) -> float:
        if err.retry_after is not None:
            return err.retry_after
        ceiling = min(self.max_backoff, self.initial_backoff * (2 ** attempt))
        return random.uniform(ceiling / 2, ceiling)


NO_RETRY = RetryPolicy(attempts=1)


def new_request_id() -> str:
    """A random idempotency key (32 hex characters): whoever knows it can replay the answer."""
    return secrets.token_hex(16)


def _wire(value: int) -> Any:
    """An IntEnum as the proto field takes it (the generated .pyi types enum fields by the
    protobuf enum class, which our IntEnums are not, though their values are the same)."""
    return int(value)


def _duration(value: timedelta) -> duration_pb2.Duration:
    d = duration_pb2.Duration()
    d.FromTimedelta(value)
    return d


class Client:
    """A connection to one chessd endpoint (a server, or a balancer in front of replicas).

    >>> client = Client("127.0.0.1:50051")
    >>> game = client.create_game(Variant.CHESS, white="alice", black="bob")
    >>> game.white.submit_move("e4", expected_ply=0).move.san
    'e4'

    ``tls``: True for TLS with the system's roots, or give ``root_certificates`` (PEM bytes) for
    a private CA; ``certificate_chain`` and ``private_key`` (PEM) add a client certificate for
    mutual TLS; ``server_name`` overrides the name checked against the server's certificate.
    ``api_key`` goes with every call as ``x-api-key`` (needed for CreateGame, ListGames and
    GetStats when the server runs with --api-key-file). ``timeout``: seconds per unary call.
    """

    def __init__(
        self,
        target: str,
        *,
        tls: bool = False,
        root_certificates: Optional[bytes] = None,
        certificate_chain: Optional[bytes] = None,
        private_key: Optional[bytes] = None,
        server_name: Optional[str] = None,
        api_key: Optional[str] = None,
        timeout: float = 10.0,
        retry: RetryPolicy = RetryPolicy(),
        options: Sequence[Tuple[str, object]] = (),
    ) -> None:
        channel_options: List[Tuple[str, object]] = list(options)
        if server_name is not None:
            channel_options.append(("grpc.ssl_target_name_override", server_name))
        if tls or root_certificates is not None or certificate_chain is not None:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=root_certificates,
                private_key=private_key,
                certificate_chain=certificate_chain,
            )
            self._channel = grpc.secure_channel(target, credentials, options=channel_options)
        else:
            self._channel = grpc.insecure_channel(target, options=channel_options)
        self._stub = pb_grpc.GameServiceStub(self._channel)
        self._api_key = api_key
        self.timeout = timeout
        self.retry = retry

    # --- plumbing

    @property
    def channel(self) -> grpc.Channel:
        """The underlying channel, e.g. for the health service or the raw stubs."""
        return self._channel

    @property
    def stub(self) -> pb_grpc.GameServiceStub:
        """The generated stub, for calls the typed layer does not wrap."""
        return self._stub

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def metadata(self, token: Optional[str] = None) -> List[Tuple[str, str]]:
        """The call metadata: the API key, and a seat token if given."""
        md: List[Tuple[str, str]] = []
        if self._api_key is not None:
            md.append(("x-api-key", self._api_key))
        if token is not None:
            md.append(("authorization", f"Bearer {token}"))
        return md

    def call(
        self,
        method: Callable[..., T],
        request: object,
        *,
        token: Optional[str] = None,
        idempotent: bool,
        retry: Optional[RetryPolicy] = None,
    ) -> T:
        """One unary call with retries; ``idempotent`` says a repeat cannot act twice."""
        policy = retry or self.retry
        attempt = 0
        while True:
            try:
                return method(request, metadata=self.metadata(token), timeout=self.timeout)
            except grpc.RpcError as raw:
                err = ChessdError.from_rpc_error(raw)
                attempt += 1
                if attempt >= policy.attempts or not _retryable(err, idempotent):
                    raise err from None
                time.sleep(policy.backoff(attempt - 1, err))

    # --- games

    def create_game(
        self,
        variant: Optional[Variant] = None,
        *,
        variant_key: str = "",
        white: str = "",
        black: str = "",
        start_fen: str = "",
        initial: Optional[timedelta] = None,
        increment: timedelta = timedelta(0),
        draw_rule: DrawRule = DrawRule.UNSPECIFIED,
        chess960_start: Optional[int] = None,
        labels: Optional[Mapping[str, str]] = None,
        white_player_id: str = "",
        black_player_id: str = "",
        bound_seat_tokens: bool = False,
        takebacks: bool = False,
        request_id: Optional[str] = None,
        black_initial: Optional[timedelta] = None,
        black_increment: Optional[timedelta] = None,
        clock_start: ClockStart = ClockStart.UNSPECIFIED,
        clock_start_at: Optional[datetime] = None,
        first_move_timeout: Optional[timedelta] = None,
        claim_after: Optional[timedelta] = None,
        byoyomi: Optional[timedelta] = None,
        periods: int = 0,
        public_delay_plies: int = 0,
        player_entropy: bool = False,
    ) -> "CreatedGame":
        """Starts a game; ``initial`` (and ``increment``) make it timed.

        The game is ``variant`` (chess when neither it nor ``variant_key`` is given), or the
        one ``variant_key`` names by its stable key (``"crazyhouse"``; the game's
        ``variant_key`` says it back). Given both, they must name the same variant.

        ``black_initial``/``black_increment`` give Black its own time (odds, Armageddon).
        ``byoyomi`` (with ``initial`` the main time, which may be zero) makes it a byoyomi
        clock: ``periods`` periods (0: one) of that length after the main time, no increment;
        the game's ``clocks`` then say the periods each side has left.
        ``clock_start`` says when the clocks run (``AFTER_FIRST_MOVES``, as lichess; ``AT``
        with ``clock_start_at``); ``first_move_timeout`` is the first-move timer (the server's
        default when None: 30 seconds in a timed game, 3 minutes with a secret setup or the
        players' entropy;
        ``timedelta(0)``: none).

        ``draw_rule`` unset is the server's: claim, and automatic in Dark Chess (its only rule).

        ``public_delay_plies`` (Dark Chess; at most 1000) shows spectators the whole game as
        it stood that many plies ago, instead of nothing, while it is played.

        ``player_entropy`` (Dice Chess, Dice Chess 10x10, Behemoth) makes the seats add their
        own entropy by commit-reveal before the first move (``Seat.add_entropy``), so that not
        even the server can choose a draw (docs/fairness.md).

        ``chess960_start`` (0 to 959, Chess960 only) picks the start position by its standard
        number; without it (and without ``start_fen``) the server draws one.

        ``labels`` (at most 16; see docs/api.md for the limits) come back in the game, its
        summary and the feed, and filter ``list_games``, ``get_stats`` and ``watch_games``.
        ``white_player_id``/``black_player_id`` bind a seat to a player, whose token
        (``issue_player_token``) then acts for it; such a seat gets no seat token (its
        ``Seat.token`` is empty) unless ``bound_seat_tokens`` asks for one. ``takebacks``
        lets a seat propose a takeback that the opponent may accept (off by default).

        ``claim_after`` (1 second to 24 hours; default from the time control) is how long the
        side to move must be gone before its opponent may ``Seat.claim_victory``.

        Retried safely: the request always carries a ``request_id`` (random unless given), and
        the server answers a repeat with the same game and tokens.
        """
        if variant is None:
            # The server reads an unspecified number as "the key says": chess only when
            # neither is given.
            variant = Variant.UNSPECIFIED if variant_key else Variant.CHESS
        request = pb.CreateGameRequest(
            variant=_wire(variant),
            variant_key=variant_key,
            start_fen=start_fen,
            white_player=white,
            black_player=black,
            draw_rule=_wire(draw_rule),
            request_id=request_id or new_request_id(),
            labels=dict(labels or {}),
            white_player_id=white_player_id,
            black_player_id=black_player_id,
            bound_seat_tokens=bound_seat_tokens,
            takebacks=pb.TAKEBACK_POLICY_ON_REQUEST if takebacks else pb.TAKEBACK_POLICY_OFF,
            public_delay_plies=public_delay_plies,
            player_entropy=player_entropy,
        )
        if chess960_start is not None:
            request.chess960_start = chess960_start
        if claim_after is not None:
            request.claim_after.CopyFrom(_duration(claim_after))
        if initial is not None:
            request.time_control.initial.CopyFrom(_duration(initial))
            request.time_control.increment.CopyFrom(_duration(increment))
            if black_initial is not None:
                request.time_control.black_initial.CopyFrom(_duration(black_initial))
            if black_increment is not None:
                request.time_control.black_increment.CopyFrom(_duration(black_increment))
            if byoyomi is not None:
                request.time_control.byoyomi.CopyFrom(_duration(byoyomi))
                request.time_control.periods = periods
        request.clock_start = _wire(clock_start)
        if clock_start_at is not None:
            request.clock_start_at.FromDatetime(clock_start_at)
        if first_move_timeout is not None:
            request.first_move_timeout.CopyFrom(_duration(first_move_timeout))
        response = self.call(self._stub.CreateGame, request, idempotent=True)
        game_id = response.game.game_id
        return CreatedGame(
            game=response.game,
            white=Seat(self, game_id, response.white_token, Color.WHITE),
            black=Seat(self, game_id, response.black_token, Color.BLACK),
        )

    def seat(self, game_id: str, token: str) -> "Seat":
        """Acts for a side of an existing game, by its seat token (or a player token)."""
        return Seat(self, game_id, token, None)

    def player(self, token: str) -> "Player":
        """Acts for a player, by its player token: its feed and every seat bound to it."""
        return Player(self, token)

    # --- player credentials (API key required)

    def issue_player_token(self, player_id: str) -> pb.IssuePlayerTokenResponse:
        """A new secret token for ``player_id`` (``token``, shown only here, and ``token_id``).

        Refused with FAILED_PRECONDITION/PLAYER_TOKENS_DISABLED on a server without API keys.
        Not retried after an ambiguous failure: a repeat would mint a second token.
        """
        request = pb.IssuePlayerTokenRequest(player_id=player_id)
        return self.call(self._stub.IssuePlayerToken, request, idempotent=False)

    def revoke_player_token(
        self, *, token_id: Optional[str] = None, player_id: Optional[str] = None
    ) -> int:
        """Revokes one token (by ``token_id``) or every token of ``player_id``, on every
        replica at once; returns how many were revoked (revoking is idempotent)."""
        if (token_id is None) == (player_id is None):
            raise ValueError("give token_id or player_id, not both")
        request = (pb.RevokePlayerTokenRequest(token_id=token_id) if token_id is not None
                   else pb.RevokePlayerTokenRequest(player_id=player_id))
        return self.call(self._stub.RevokePlayerToken, request, idempotent=True).revoked

    def adjust_clock(
        self,
        game_id: str,
        side: Color,
        *,
        set_remaining: Optional[timedelta] = None,
        add: Optional[timedelta] = None,
        subtract: Optional[timedelta] = None,
    ) -> pb.Game:
        """An arbiter's change of ``side``'s clock (API key): exactly one of ``set_remaining``,
        ``add`` or ``subtract``. Not retried after it may have acted (it is no idempotent
        call)."""
        given = [(name, value) for name, value in
                 (("set_remaining", set_remaining), ("add", add), ("subtract", subtract))
                 if value is not None]
        if len(given) != 1:
            raise ValueError("adjust_clock takes exactly one of set_remaining, add, subtract")
        request = pb.AdjustClockRequest(game_id=game_id, side=_wire(side))
        getattr(request, given[0][0]).CopyFrom(_duration(given[0][1]))
        return self.call(self._stub.AdjustClock, request, idempotent=False).game

    def get_game(self, game_id: str, *, token: Optional[str] = None) -> pb.Game:
        """The full state of a game (``token``: a seat token, under --private-watch)."""
        request = pb.GetGameRequest(game_id=game_id)
        return self.call(self._stub.GetGame, request, token=token, idempotent=True).game

    def list_games(
        self,
        *,
        status: GameStatus = GameStatus.UNSPECIFIED,
        variant: Variant = Variant.UNSPECIFIED,
        player: str = "",
        labels: Optional[Mapping[str, str]] = None,
        player_id: str = "",
        page_size: int = 0,
        variant_key: str = "",
    ) -> Iterator[pb.GameSummary]:
        """Every game matching the filters (``labels``: all of them; ``variant_key``: the
        variant by its stable key, like ``variant``), newest first, fetched a page at a time."""
        token = ""
        while True:
            request = pb.ListGamesRequest(
                page_size=page_size, page_token=token, status=_wire(status),
                variant=_wire(variant), player=player, labels=dict(labels or {}),
                player_id=player_id, variant_key=variant_key)
            page = self.call(self._stub.ListGames, request, idempotent=True)
            yield from page.games
            token = page.next_page_token
            if not token:
                return

    def export_pgn(self, game_id: str, *, token: Optional[str] = None) -> str:
        """The game as PGN."""
        request = pb.ExportPgnRequest(game_id=game_id)
        return self.call(self._stub.ExportPgn, request, token=token, idempotent=True).pgn

    def export_kif(self, game_id: str, *, token: Optional[str] = None) -> str:
        """A shogi or minishogi game as KIF (Kakinoki's format; one set up from a position opens
        with its board diagram); empty for any other game."""
        request = pb.ExportPgnRequest(game_id=game_id)
        return self.call(self._stub.ExportPgn, request, token=token, idempotent=True).kif

    def get_stats(self, labels: Optional[Mapping[str, str]] = None) -> List[pb.VariantStats]:
        """Results of finished games per variant; with ``labels``, of the finished games still
        kept that carry them all (a tournament's results)."""
        request = pb.GetStatsRequest(labels=dict(labels or {}))
        return list(self.call(self._stub.GetStats, request, idempotent=True).variants)

    def analyze_position(
        self, variant: Optional[Variant], fen: str, *, variant_key: str = ""
    ) -> pb.AnalyzePositionResponse:
        """Legal moves, check and outcome of a position (no game needed) of ``variant``, or of
        the variant ``variant_key`` names by its stable key (``variant`` None); given both,
        they must name the same variant."""
        if variant is None:
            variant = Variant.UNSPECIFIED
        request = pb.AnalyzePositionRequest(
            variant=_wire(variant), fen=fen, variant_key=variant_key)
        return self.call(self._stub.AnalyzePosition, request, idempotent=True)

    # --- watching

    def watch_game(
        self,
        game_id: str,
        after_seq: int = 0,
        *,
        token: Optional[str] = None,
        resume: bool = True,
        heartbeats: bool = False,
        presence: bool = False,
        retry: Optional[RetryPolicy] = None,
    ) -> Iterator[pb.WatchGameResponse]:
        """The game's events after ``after_seq`` (0: a snapshot first), until the game is over.

        With ``resume`` (the default), a stream that breaks (connection lost, server draining
        or restarted, WATCHER_TOO_SLOW) is opened again after the last seq received, or after
        the ``resume_after_seq`` the server named, so every event arrives exactly once and in
        order. ``retry.attempts`` bounds the reopenings in a row without an event in between.
        Heartbeats are passed on only with ``heartbeats=True``, and the seats' presence
        messages (``player_presence``: not numbered, they ride between events) only with
        ``presence=True``.
        """
        policy = retry or self.retry
        last_seq = after_seq
        failures = 0
        while True:
            request = pb.WatchGameRequest(game_id=game_id, after_seq=last_seq)
            try:
                for event in self._stub.WatchGame(request, metadata=self.metadata(token)):
                    failures = 0
                    last_seq = event.seq
                    kind = event.WhichOneof("event")
                    if (kind != "heartbeat" or heartbeats) and (kind != "player_presence" or presence):
                        yield event
                    if kind == "game_over":
                        return
                return  # the server ended the stream without a game over: nothing more to come
            except grpc.RpcError as raw:
                err = ChessdError.from_rpc_error(raw)
                failures += 1
                if not resume or failures >= policy.attempts or not _resumable(err):
                    raise err from None
                named = err.metadata.get("resume_after_seq")
                if named is not None and named.isdigit():
                    last_seq = int(named)
                time.sleep(policy.backoff(failures - 1, err))

    def watch_games(
        self,
        after_cursor: str = "",
        *,
        include_moves: bool = False,
        labels: Optional[Mapping[str, str]] = None,
        player_id: str = "",
        variant: Variant = Variant.UNSPECIFIED,
        variant_key: str = "",
        token: Optional[str] = None,
        resume: bool = True,
        heartbeats: bool = False,
        retry: Optional[RetryPolicy] = None,
    ) -> Iterator[pb.WatchGamesResponse]:
        """The deployment's feed: every game's creation and end (and, with ``include_moves``,
        each move) after ``after_cursor``, or from now without one. It never ends by itself.

        Keep the ``cursor`` of the last message you handled (heartbeats carry one too) and pass
        it back after a restart to resume with no gap and no duplicate, on any replica. With
        ``resume`` (the default) a broken stream (connection lost, server draining or
        restarted, FEED_TOO_SLOW) is opened again after the last cursor received, or the
        ``resume_after_cursor`` the server named. A cursor older than the server's
        --feed-retention raises OUT_OF_RANGE/CURSOR_OUT_OF_RANGE, with the oldest cursor still
        served in ``err.metadata["oldest_cursor"]``. ``token``: a player token, for that
        player's own games (``Client.player(token).watch_games`` passes it).

        Like every gRPC stream in Python, the call starts at the first ``next()``: a consumer
        that starts live and must not miss what it does next asks for ``heartbeats`` and
        waits for the first one (or resumes from a cursor it keeps).
        """
        policy = retry or self.retry
        cursor = after_cursor
        failures = 0
        while True:
            request = pb.WatchGamesRequest(
                after_cursor=cursor, include_moves=include_moves, labels=dict(labels or {}),
                player_id=player_id, variant=_wire(variant), variant_key=variant_key)
            try:
                for event in self._stub.WatchGames(request, metadata=self.metadata(token)):
                    failures = 0
                    # A player-mode stream's games already running have no cursor.
                    if event.cursor:
                        cursor = event.cursor
                    if event.WhichOneof("event") != "heartbeat" or heartbeats:
                        yield event
                return
            except grpc.RpcError as raw:
                err = ChessdError.from_rpc_error(raw)
                failures += 1
                if not resume or failures >= policy.attempts or not _feed_resumable(err):
                    raise err from None
                named = err.metadata.get("resume_after_cursor")
                if named:
                    cursor = named
                time.sleep(policy.backoff(failures - 1, err))


@dataclass(frozen=True)
class CreatedGame:
    """A new game and one Seat per side (each holds that side's secret token)."""

    game: pb.Game
    white: "Seat"
    black: "Seat"

    @property
    def game_id(self) -> str:
        return self.game.game_id


class Player:
    """A player, by its player token: its feed and the seats bound to it.

    >>> bot = client.player(token)
    >>> for event in bot.watch_games():
    ...     if event.WhichOneof("event") == "game_created":
    ...         seat = bot.seat(event.game_created.game.game_id, Color(event.game_created.seat))
    """

    def __init__(self, client: Client, token: str) -> None:
        self.client = client
        self.token = token

    def __repr__(self) -> str:  # never the token: it is a secret
        return "Player(...)"

    def watch_games(self, after_cursor: str = "", **kwargs: Any) -> Iterator[pb.WatchGamesResponse]:
        """``Client.watch_games`` for this player's games: without a cursor, a GameCreated
        (with an empty cursor) for each game already running first; ``seat`` on every event
        says which colour is the player's."""
        return self.client.watch_games(after_cursor, token=self.token, **kwargs)

    def seat(self, game_id: str, color: Optional[Color] = None) -> "Seat":
        """Acts in ``game_id`` with the player token (for the seat bound to the player)."""
        return Seat(self.client, game_id, self.token, color)


class Seat:
    """One side of one game: the calls that need its seat token.

    ``color`` is known for seats from ``create_game``; a seat built from a bare token
    (``Client.seat``) has ``color`` None: the token alone does not say which side it is.
    """

    def __init__(self, client: Client, game_id: str, token: str, color: Optional[Color]) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.color = color

    def __repr__(self) -> str:  # never the token: it is a secret
        return f"Seat(game_id={self.game_id!r}, color={self.color!r})"

    def submit_move(
        self,
        move: str,
        *,
        expected_ply: Optional[int] = None,
        request_id: Optional[str] = None,
        offer_draw: bool = False,
        view: GameView = GameView.UNSPECIFIED,
        retry: Optional[RetryPolicy] = None,
    ) -> pb.SubmitMoveResponse:
        """Plays ``move`` (UCI or SAN) for this side.

        ``expected_ply``: the move lands only at that ply, else ABORTED/PLY_MISMATCH and nothing
        changes. ``request_id`` (random unless given) makes retries safe: a repeat answers the
        first answer's move and plays nothing twice. ``view=GameView.BASIC`` leaves the move
        lists out of the answer.
        """
        request = pb.SubmitMoveRequest(
            game_id=self.game_id, move=move, request_id=request_id or new_request_id(),
            offer_draw=offer_draw, view=_wire(view))
        if expected_ply is not None:
            request.expected_ply = expected_ply
        return self.client.call(
            self.client.stub.SubmitMove, request, token=self.token, idempotent=True, retry=retry)

    def resign(self) -> pb.Game:
        request = pb.ResignRequest(game_id=self.game_id)
        return self._act(self.client.stub.Resign, request).game

    def offer_draw(self) -> pb.Game:
        request = pb.OfferDrawRequest(game_id=self.game_id)
        return self._act(self.client.stub.OfferDraw, request).game

    def respond_to_draw(self, accept: bool) -> pb.Game:
        request = pb.RespondToDrawRequest(game_id=self.game_id, accept=accept)
        return self._act(self.client.stub.RespondToDraw, request).game

    def claim_draw(self, claim: DrawClaim) -> pb.Game:
        request = pb.ClaimDrawRequest(game_id=self.game_id, claim=_wire(claim))
        return self._act(self.client.stub.ClaimDraw, request).game

    def abort(self) -> pb.Game:
        request = pb.AbortRequest(game_id=self.game_id)
        return self._act(self.client.stub.Abort, request).game

    def add_time(self, amount: Optional[timedelta] = None) -> pb.Game:
        """Gives the opponent time (the server's 15 seconds when None)."""
        request = pb.AddTimeRequest(game_id=self.game_id)
        if amount is not None:
            request.amount.CopyFrom(_duration(amount))
        return self._act(self.client.stub.AddTime, request).game

    def propose_takeback(self) -> pb.Game:
        """Asks to take back this seat's last move (the game must allow takebacks)."""
        request = pb.ProposeTakebackRequest(game_id=self.game_id)
        return self._act(self.client.stub.ProposeTakeback, request).game

    def respond_to_takeback(self, accept: bool) -> pb.Game:
        request = pb.RespondToTakebackRequest(game_id=self.game_id, accept=accept)
        return self._act(self.client.stub.RespondToTakeback, request).game

    def withdraw_takeback(self) -> pb.Game:
        """Withdraws this seat's own standing takeback proposal."""
        request = pb.WithdrawTakebackRequest(game_id=self.game_id)
        return self._act(self.client.stub.WithdrawTakeback, request).game

    def claim_victory(self, draw: bool = False) -> pb.Game:
        """Ends the game the opponent (to move) left: the win, or with ``draw`` a draw."""
        request = pb.ClaimVictoryRequest(game_id=self.game_id, draw=draw)
        return self._act(self.client.stub.ClaimVictory, request).game

    def submit_setup(self, placement: str, commit: bool = False) -> pb.Game:
        """Places this seat's army behind the screen (Screen and Crazy Screen Chess): four FEN
        rows of its half, top to bottom; final with ``commit``. The second final placement
        reveals both halves and the game starts."""
        request = pb.SubmitSetupRequest(game_id=self.game_id, placement=placement, commit=commit)
        return self._act(self.client.stub.SubmitSetup, request).game

    def submit_entropy(self, commitment: str = "", reveal: str = "") -> pb.Game:
        """Sends this seat's ``commitment`` (SHA-256 of its secret, 64 hex digits) or, once
        both seats have committed, its ``reveal`` (the secret), in a game created with
        ``player_entropy``. The same value again answers as the first time, so it is retried."""
        request = pb.SubmitEntropyRequest(game_id=self.game_id, commitment=commitment, reveal=reveal)
        return self.client.call(self.client.stub.SubmitEntropy, request, token=self.token, idempotent=True).game

    def add_entropy(
        self, secret: Optional[bytes] = None, timeout: float = 120.0, poll: float = 0.05
    ) -> pb.Game:
        """The seat's whole part of the players' entropy: commits to ``secret`` (32 fresh
        random bytes when None), waits until both seats have committed, reveals it; returns
        the game after the reveal (in play if the opponent had revealed already). Blocks: run
        each seat's in its own thread or process. A timeout raises ``TimeoutError``."""
        secret = secrets.token_bytes(32) if secret is None else secret
        if len(secret) != 32:
            raise ValueError("a secret is 32 bytes")
        game = self.submit_entropy(commitment=hashlib.sha256(secret).hexdigest())
        deadline = time.monotonic() + timeout
        while game.entropy.phase == pb.ENTROPY_PHASE_COMMITMENTS:
            if game.status != pb.GAME_STATUS_ONGOING:
                return game
            if time.monotonic() > deadline:
                raise TimeoutError("the opponent did not commit in time")
            time.sleep(poll)
            game = self.get_game()
        return self.submit_entropy(reveal=secret.hex())

    def get_game(self) -> pb.Game:
        return self.client.get_game(self.game_id, token=self.token)

    def watch(self, after_seq: int = 0, **kwargs: object) -> Iterator[pb.WatchGameResponse]:
        """``Client.watch_game`` with this seat's token (needed under --private-watch)."""
        return self.client.watch_game(self.game_id, after_seq, token=self.token, **kwargs)  # type: ignore[arg-type]

    def _act(self, method: Callable[..., T], request: object) -> T:
        # No request_id in these requests: retried only when refused before acting.
        return self.client.call(method, request, token=self.token, idempotent=False)


def _retryable(err: ChessdError, idempotent: bool) -> bool:
    if err.reason in _REFUSED_BEFORE_ACTING:
        return True
    if not idempotent:
        return False
    return err.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def _feed_resumable(err: ChessdError) -> bool:
    # Reopening after the cursor never acts twice; a revoked token or an old cursor stays so.
    return err.reason == "FEED_TOO_SLOW" or err.code == grpc.StatusCode.UNAVAILABLE


def _resumable(err: ChessdError) -> bool:
    # A stream carries no request to repeat: reopening it after `seq` never acts twice.
    return err.reason == "WATCHER_TOO_SLOW" or err.code == grpc.StatusCode.UNAVAILABLE
