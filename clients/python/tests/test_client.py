"""chessd-client against a real chessd: each test says which promise of the client it checks."""

from __future__ import annotations

import hashlib
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import List

import grpc
import pytest

import chessd_client as cc
from chessd_client import pb
from chessd_client.types import MIRRORS

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def play(game: cc.CreatedGame, moves: List[str], start_ply: int = 0) -> None:
    for ply, move in enumerate(moves, start=start_ply):
        seat = game.white if ply % 2 == 0 else game.black
        seat.submit_move(move, expected_ply=ply)


def test_a_game_plays_to_mate_through_the_seats(server):
    """create_game hands out both seats; their moves end the game with the right outcome."""
    with cc.Client(server.addr) as client:
        game = client.create_game(cc.Variant.CHESS, white="py-a", black="py-b")
        assert game.game.status == cc.GameStatus.ONGOING
        assert (game.white.color, game.black.color) == (cc.Color.WHITE, cc.Color.BLACK)
        play(game, FOOLS_MATE)
        final = client.get_game(game.game_id)
        assert final.status == cc.GameStatus.FINISHED
        assert final.outcome.termination == cc.Termination.CHECKMATE
        assert final.outcome.winner == cc.Color.BLACK
        assert final.outcome.pgn_result == "0-1"
        assert "0-1" in client.export_pgn(game.game_id)


def test_a_gone_opponent_s_game_is_claimed_after_the_grace_period(server):
    """claim_victory is refused too early with its reason, then wins by abandonment."""
    with cc.Client(server.addr) as client:
        game = client.create_game(cc.Variant.CHESS, claim_after=timedelta(seconds=1))
        play(game, ["e2e4", "e7e5", "g1f3"])
        with pytest.raises(cc.ChessdError) as refused:
            game.white.claim_victory()
        assert refused.value.reason == "CLAIM_TOO_EARLY"
        time.sleep(1.1)
        final = game.white.claim_victory()
        assert final.outcome.termination == cc.Termination.ABANDONMENT
        assert final.outcome.winner == cc.Color.WHITE


def test_variants_play_with_their_own_rules(server):
    """Chess960 by its number castles king-takes-rook; Crazyhouse pockets a capture and drops it."""
    with cc.Client(server.addr) as client:
        nine_sixty = client.create_game(cc.Variant.CHESS960, chess960_start=518)
        assert nine_sixty.game.fen.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq")
        play(nine_sixty, ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"])
        castled = client.get_game(nine_sixty.game_id)
        assert castled.fen.split()[0].endswith("/RNBQ1RK1")
        assert (castled.moves[-1].uci, castled.moves[-1].san) == ("e1h1", "O-O")

        house = client.create_game(cc.Variant.CRAZYHOUSE)
        play(house, ["e2e4", "d7d5", "e4d5"])
        pockets = client.get_game(house.game_id).pockets
        assert (pockets.white.pawns, pockets.black.pawns) == (1, 0)
        house.black.submit_move("d8d5", expected_ply=3)
        house.white.submit_move("P@e6", expected_ply=4)
        game = client.get_game(house.game_id)
        assert (game.pockets.white.pawns, game.pockets.black.pawns) == (0, 1)
        assert game.moves[-1].san == "P@e6"

        with pytest.raises(cc.ChessdError) as refused:
            client.create_game(cc.Variant.CHESS, chess960_start=5)
        assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_variant_key_names_the_game_and_hands_say_the_pockets(server):
    """A game by its stable key says the key, its board and its hands back; a bad key is refused."""
    with cc.Client(server.addr) as client:
        house = client.create_game(variant_key="crazyhouse")
        assert house.game.variant == cc.Variant.CRAZYHOUSE
        assert house.game.variant_key == "crazyhouse"
        assert (house.game.geometry.files, house.game.geometry.ranks) == (8, 8)
        play(house, ["e2e4", "d7d5", "e4d5"])
        game = client.get_game(house.game_id)
        assert [(p.piece, p.count) for p in game.hands.white.pieces] == [("P", 1)]
        assert list(game.hands.black.pieces) == []
        assert game.pockets.white.pawns == 1
        assert client.create_game().game.variant_key == "chess"
        listed = [g.game_id for g in client.list_games(variant_key="crazyhouse")]
        assert listed == [house.game_id]

        for bad in ({"variant_key": "bughouse"},
                    {"variant": cc.Variant.HORDE, "variant_key": "atomic"}):
            with pytest.raises(cc.ChessdError) as refused:
                client.create_game(**bad)
            assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
            assert refused.value.reason == "INVALID_FIELD"

        fen = "4k3/8/4K3/8/8/8/8/8[Qn] w - - 0 1"
        analysis = client.analyze_position(None, fen, variant_key="crazyhouse")
        assert analysis.variant_key == "crazyhouse"
        assert analysis == client.analyze_position(cc.Variant.CRAZYHOUSE, fen)
        with pytest.raises(cc.ChessdError) as refused:
            client.analyze_position(None, fen, variant_key="bughouse")
        assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.reason == "INVALID_FIELD"


def test_shogi_is_played_in_usi_and_exported_as_kif(server):
    """Shogi by its key: a 9x9 board, USI and Western moves, the hands, and the KIF record."""
    with cc.Client(server.addr) as client:
        shogi = client.create_game(variant_key="shogi")
        assert (shogi.game.geometry.files, shogi.game.geometry.ranks) == (9, 9)
        play(shogi, ["7g7f", "3c3d", "Bx2b+", "3a2b"])
        game = client.get_game(shogi.game_id)
        assert [m.san for m in game.moves] == ["P-7f", "P-3d", "Bx2b+", "Sx2b"]
        assert [(p.piece, p.count) for p in game.hands.white.pieces] == [("B", 1)]
        kif = client.export_kif(shogi.game_id)
        assert "手合割：平手" in kif and "２二角成(88)" in kif
        assert client.export_kif(client.create_game().game_id) == ""


def test_expected_ply_refuses_a_stale_move_and_plays_nothing(server):
    """A move sent for an older ply fails ABORTED/PLY_MISMATCH with the current ply."""
    with cc.Client(server.addr) as client:
        game = client.create_game()
        game.white.submit_move("e4", expected_ply=0)
        with pytest.raises(cc.ChessdError) as refused:
            game.black.submit_move("e5", expected_ply=0)
        err = refused.value
        assert err.code == grpc.StatusCode.ABORTED
        assert err.reason == "PLY_MISMATCH"
        assert err.metadata["current_ply"] == "1"
        assert client.get_game(game.game_id).ply == 1


def test_a_repeated_request_id_returns_the_first_answer_and_plays_once(server):
    """What a retry after a lost answer sends: the same request_id; nothing is played twice."""
    with cc.Client(server.addr) as client:
        game = client.create_game()
        first = game.white.submit_move("e2e4", request_id="retry-me")
        again = game.white.submit_move("e2e4", request_id="retry-me")
        assert (again.move.uci, again.move.ply, again.move.seq) == (
            first.move.uci, first.move.ply, first.move.seq)
        assert client.get_game(game.game_id).ply == 1


def test_create_game_with_a_request_id_is_idempotent(server):
    """A CreateGame retried with its request_id returns the same game and the same tokens."""
    with cc.Client(server.addr) as client:
        one = client.create_game(white="a", black="b", request_id="create-once")
        two = client.create_game(white="a", black="b", request_id="create-once")
        assert one.game_id == two.game_id
        assert (one.white.token, one.black.token) == (two.white.token, two.black.token)


def test_a_takeback_proposed_and_accepted_rewinds_the_game(server):
    """With takebacks on, the proposer may withdraw its proposal, and the opponent's acceptance
    takes the proposer's move back; off (the default), a proposal is refused TAKEBACKS_OFF."""
    with cc.Client(server.addr) as client:
        game = client.create_game(takebacks=True)
        play(game, ["e2e4", "e7e5"])
        assert game.black.propose_takeback().takeback_offer == pb.COLOR_BLACK
        assert game.black.withdraw_takeback().takeback_offer == pb.COLOR_UNSPECIFIED
        assert game.black.propose_takeback().takeback_offer == pb.COLOR_BLACK
        back = game.white.respond_to_takeback(True)
        assert (back.ply, back.takebacks) == (1, pb.TAKEBACK_POLICY_ON_REQUEST)
        assert [m.uci for m in back.moves] == ["e2e4"]
        plain = client.create_game()
        plain.white.submit_move("e4")
        with pytest.raises(cc.ChessdError) as refused:
            plain.white.propose_takeback()
        assert refused.value.reason == "TAKEBACKS_OFF"


def test_refusals_carry_the_error_info_reason(server):
    """An illegal move is a ChessdError with its reason and the gRPC code."""
    with cc.Client(server.addr) as client:
        game = client.create_game()
        with pytest.raises(cc.ChessdError) as refused:
            game.white.submit_move("e2e5")
        assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
        assert refused.value.reason == "ILLEGAL_MOVE"
        with pytest.raises(cc.ChessdError) as wrong_side:
            game.black.submit_move("e5")
        assert wrong_side.value.reason == "NOT_YOUR_TURN"


def test_clock_controls(server):
    """Odds, the clock start, time given and an arbiter's change reach the game and the stream."""
    from datetime import timedelta
    with cc.Client(server.addr) as client:
        game = client.create_game(
            initial=timedelta(minutes=5), black_initial=timedelta(minutes=4),
            clock_start=cc.ClockStart.AFTER_FIRST_MOVES, first_move_timeout=timedelta(minutes=1))
        assert game.game.clock_start == cc.ClockStart.AFTER_FIRST_MOVES
        assert game.game.clocks.black_remaining.ToTimedelta() == timedelta(minutes=4)
        assert game.game.HasField("first_move_deadline")
        given = game.white.add_time()
        assert given.clocks.black_remaining.ToTimedelta() == timedelta(minutes=4, seconds=15)
        set_ = client.adjust_clock(game.game_id, cc.Color.WHITE, set_remaining=timedelta(seconds=90))
        assert set_.clocks.white_remaining.ToTimedelta() == timedelta(seconds=90)
        game.black.resign()
        events = list(client.watch_game(game.game_id, after_seq=1))
        assert [e.WhichOneof("event") for e in events] == ["clock_changed", "game_over"]
        assert events[0].clock_changed.reason == cc.ClockChangeReason.ARBITER_SET
        with pytest.raises(ValueError):
            client.adjust_clock(game.game_id, cc.Color.WHITE)


def test_a_byoyomi_clock_tells_the_periods_left(server):
    """Main time, then periods: the game's clocks carry both and the periods left."""
    from datetime import timedelta
    with cc.Client(server.addr) as client:
        game = client.create_game(
            variant_key="shogi", initial=timedelta(minutes=10), byoyomi=timedelta(seconds=30),
            periods=3)
        tc = game.game.time_control
        assert (tc.byoyomi.ToTimedelta(), tc.periods) == (timedelta(seconds=30), 3)
        clocks = game.game.clocks
        assert clocks.black_remaining.ToTimedelta() == timedelta(minutes=11, seconds=30)
        assert (clocks.white_periods, clocks.black_periods) == (3, 3)
        pgn = client.export_pgn(game.game_id)
        assert '[TimeControl "600+3x30b"]' in pgn


def test_a_game_of_chance_commits_to_its_seed_and_reveals_it(server):
    """A Behemoth game: the seed's SHA-256 from the start, each move with the server's step,
    the seed at the end, and its SHA-256 the commitment (docs/fairness.md)."""
    import hashlib
    with cc.Client(server.addr) as client:
        game = client.create_game(variant_key="behemoth")
        commitment = game.game.seed_sha256
        assert len(commitment) == 64 and game.game.seed == ""
        answer = game.white.submit_move("Nf3")
        assert answer.move.uci.startswith("g1f3~"), answer.move.uci
        over = game.black.resign()
        assert over.seed_sha256 == commitment
        assert hashlib.sha256(bytes.fromhex(over.seed)).hexdigest() == commitment


def test_an_ambiguous_chess_turn_is_one_move(server):
    """Ambiguous Chess: a mark alone, then the opponent's piece onto it and one's own mark in
    one submit_move (UCI or SAN execution); a wrong part is refused naming it."""
    with cc.Client(server.addr) as client:
        game = client.create_game(variant_key="ambiguous")
        assert game.white.submit_move(">f3").game.fen.endswith(" f3")
        with pytest.raises(cc.ChessdError) as refused:
            game.black.submit_move("b1c3>d5")
        assert refused.value.reason == "ILLEGAL_MOVE"
        assert "the execution b1c3" in refused.value.message
        with pytest.raises(cc.ChessdError) as refused:
            game.black.submit_move("g1f3>d4")
        assert "the mark d4" in refused.value.message
        answer = game.black.submit_move("Nf3>d5")
        assert answer.move.uci == "g1f3>d5=d7d5", answer.move.uci


def test_watch_replays_after_a_seq_and_ends_at_game_over(server):
    """watch_game(after_seq=n) sends exactly the events after n, then stops after game over."""
    with cc.Client(server.addr) as client:
        game = client.create_game()
        play(game, FOOLS_MATE)
        events = list(client.watch_game(game.game_id, after_seq=2))
        assert [e.seq for e in events] == [3, 4, 5]
        assert [e.WhichOneof("event") for e in events] == ["move_played", "move_played",
                                                           "game_over"]
        assert events[0].move_played.move.uci == "g2g4"


def test_watch_resumes_by_seq_across_a_server_restart(start_server, tmp_path):
    """A watcher whose server drains and restarts (same --data-dir) sees every event once."""
    server = start_server("--data-dir", str(tmp_path / "data"), "--drain-timeout", "2s")
    client = cc.Client(server.addr, retry=cc.RetryPolicy(attempts=60, initial_backoff=0.05,
                                                         max_backoff=0.25))
    game = client.create_game()
    seen: List[pb.WatchGameResponse] = []
    failure: List[BaseException] = []
    snapshot = threading.Event()
    first_two = threading.Event()

    def watch() -> None:
        try:
            for event in client.watch_game(game.game_id):
                seen.append(event)
                snapshot.set()
                if len(seen) == 2:
                    first_two.set()
        except BaseException as err:  # reported by the main thread
            failure.append(err)
            snapshot.set()
            first_two.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    # The move waits for the snapshot: played before the watch subscribed, it would be in the
    # snapshot and no second event would come until Black's move.
    assert snapshot.wait(10), "the snapshot did not arrive"
    game.white.submit_move("f2f3", expected_ply=0)
    assert first_two.wait(10), "the snapshot and the first move did not arrive"
    server.stop()
    server.start()
    play(game, FOOLS_MATE[1:], start_ply=1)
    watcher.join(30)
    client.close()
    assert not failure, failure
    assert seen[0].WhichOneof("event") == "snapshot"
    assert [e.seq for e in seen[1:]] == [1, 2, 3, 4, 5], "a gap or a duplicate after resuming"
    assert seen[-1].game_over.outcome.termination == cc.Termination.CHECKMATE


def test_api_keys_go_with_every_call(start_server, tmp_path):
    """With --api-key-file, CreateGame needs the key; the client sends it as x-api-key."""
    key = "k" * 32
    keys = tmp_path / "keys"
    keys.write_text(key + "\n")
    server = start_server("--api-key-file", str(keys))
    with cc.Client(server.addr, retry=cc.NO_RETRY) as anonymous:
        with pytest.raises(cc.ChessdError) as refused:
            anonymous.create_game()
        assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED
        assert refused.value.reason == "API_KEY_MISSING"
    with cc.Client(server.addr, api_key=key) as backend:
        game = backend.create_game()
        game.white.submit_move("e4")  # the API key and the seat token together
        assert [s.variant for s in backend.get_stats()][0] == cc.Variant.CHESS


def test_a_bot_with_a_player_token_finds_and_plays_its_games(start_server, tmp_path):
    """A player token (issued with the API key) learns of the bot's running and new games from
    watch_games, each with its colour, plays them, and is refused once revoked."""
    key = "k" * 32
    keys = tmp_path / "keys"
    keys.write_text(key + "\n")
    server = start_server("--api-key-file", str(keys), "--heartbeat", "200ms")
    with cc.Client(server.addr, api_key=key) as backend, \
            cc.Client(server.addr, retry=cc.NO_RETRY) as bot_client:
        issued = backend.issue_player_token("bot-1")
        assert issued.token.startswith("chp_") and issued.player_id == "bot-1"
        running = backend.create_game(white_player_id="bot-1", labels={"round": "1"})
        assert running.white.token == "" and running.black.token != ""
        bot = bot_client.player(issued.token)
        feed = bot.watch_games()
        first = next(feed)
        assert first.game_created.game.game_id == running.game_id
        assert first.game_created.seat == cc.Color.WHITE
        assert dict(first.game_created.game.labels) == {"round": "1"}
        later = backend.create_game(black_player_id="bot-1")
        backend.create_game(white_player_id="someone-else")
        second = next(feed)
        assert (second.game_created.game.game_id, second.game_created.seat) == (
            later.game_id, cc.Color.BLACK)
        bot.seat(running.game_id, cc.Color.WHITE).submit_move("e4", expected_ply=0)
        later.white.submit_move("d4", expected_ply=0)
        bot.seat(later.game_id).submit_move("d5", expected_ply=1)
        assert backend.revoke_player_token(token_id=issued.token_id) == 1
        with pytest.raises(cc.ChessdError) as refused:
            bot.seat(running.game_id).resign()
        assert refused.value.reason == "TOKEN_INVALID"
        with pytest.raises(cc.ChessdError) as ended:
            list(feed)
        assert ended.value.reason == "TOKEN_REVOKED"
        with pytest.raises(cc.ChessdError) as reissue:
            cc.Client(server.addr, retry=cc.NO_RETRY).issue_player_token("bot-2")
        assert reissue.value.reason == "API_KEY_MISSING"


def test_watch_games_resumes_from_a_cursor_across_a_restart(start_server, tmp_path):
    """A feed consumer that keeps the last cursor it handled resumes after it on a restarted
    durable server: every later event once, in order; labels filter the feed, list and stats."""
    server = start_server("--data-dir", str(tmp_path / "data"), "--heartbeat", "200ms")
    with cc.Client(server.addr) as client:
        # The stream opens at the first next(): a heartbeat says it is live.
        feed = client.watch_games(labels={"tournament": "spring"}, heartbeats=True)
        assert next(feed).WhichOneof("event") == "heartbeat"
        a = client.create_game(white="a", black="b", labels={"tournament": "spring"})
        client.create_game(white="x", black="y")  # not in the tournament
        first = next(feed)
        assert first.game_created.game.game_id == a.game_id
        cursor = first.cursor
        a.black.resign()
        feed.close()
    server.stop()
    server.start()
    with cc.Client(server.addr) as client:
        b = client.create_game(white="c", black="d", labels={"tournament": "spring"})
        feed = client.watch_games(cursor, labels={"tournament": "spring"})
        got = [next(feed) for _ in range(2)]
        feed.close()
        assert [e.WhichOneof("event") for e in got] == ["game_finished", "game_created"]
        assert got[0].game_finished.game.game_id == a.game_id
        assert got[0].game_finished.outcome.pgn_result == "1-0"
        assert got[1].game_created.game.game_id == b.game_id
        spring = {"tournament": "spring"}
        assert [g.game_id for g in client.list_games(labels=spring)] == [b.game_id, a.game_id]
        chess = [v for v in client.get_stats(labels=spring) if v.variant == cc.Variant.CHESS][0]
        assert (chess.finished_games, chess.white_wins) == (1, 1)
        assert '[tournament "spring"]' in client.export_pgn(a.game_id)


def test_tls_with_a_private_ca(start_server, tmp_path):
    """tls with root_certificates reaches a TLS server; the name is checked against the cert."""
    cert, key = tmp_path / "server.pem", tmp_path / "server.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
         "-nodes", "-days", "1", "-subj", "/CN=chessd.test", "-keyout", str(key),
         "-out", str(cert), "-addext", "subjectAltName=DNS:chessd.test"],
        check=True, capture_output=True)
    roots = cert.read_bytes()
    server = start_server("--tls-cert", str(cert), "--tls-key", str(key),
                          credentials=grpc.ssl_channel_credentials(roots),
                          server_name="chessd.test")
    with cc.Client(server.addr, root_certificates=roots, server_name="chessd.test") as client:
        game = client.create_game()
        assert client.get_game(game.game_id).game_id == game.game_id
    with cc.Client(server.addr, retry=cc.NO_RETRY, timeout=3) as plaintext:
        with pytest.raises(cc.ChessdError) as refused:
            plaintext.create_game()
        assert refused.value.code == grpc.StatusCode.UNAVAILABLE


def test_rate_limited_calls_wait_the_retry_info_delay_and_succeed(start_server):
    """A RATE_LIMITED refusal says when to retry; the client waits that long and goes on."""
    server = start_server("--peer-rate", "2", "--peer-burst", "1")
    with cc.Client(server.addr, retry=cc.NO_RETRY) as impatient:
        game = impatient.create_game()
        with pytest.raises(cc.ChessdError) as refused:
            for _ in range(5):  # back to back: at 2 per second one of these is refused
                impatient.get_game(game.game_id)
        assert refused.value.reason == "RATE_LIMITED"
        assert refused.value.retry_after is not None and 0 < refused.value.retry_after <= 1
    with cc.Client(server.addr, retry=cc.RetryPolicy(attempts=10)) as patient:
        for _ in range(3):
            assert patient.get_game(game.game_id).game_id == game.game_id


def test_list_games_follows_the_pages(server):
    """list_games yields every matching game, newest first, across pages of one."""
    with cc.Client(server.addr) as client:
        ids = [client.create_game(white=f"pager-{i}").game_id for i in range(3)]
        listed = [s.game_id for s in client.list_games(page_size=1)]
        assert listed == list(reversed(ids))
        assert [s.game_id for s in client.list_games(player="pager-1")] == [ids[1]]


def test_a_delayed_public_view(server):
    """A Dark Chess game with a delay shows a spectator the game as it stood plies ago."""
    with cc.Client(server.addr) as client:
        created = client.create_game(variant_key="dark", public_delay_plies=2)
        assert created.game.public_delay_plies == 2
        for seat, uci in [(created.white, "e2e4"), (created.black, "e7e5"), (created.white, "g1f3")]:
            seat.submit_move(uci)
        seen = client.get_game(created.game_id)
        assert [m.uci for m in seen.moves] == ["e2e4"]
        assert "?" not in seen.fen
        with pytest.raises(cc.ChessdError) as refused:
            client.create_game(public_delay_plies=2)
        assert refused.value.reason == "INVALID_FIELD"


def test_the_players_entropy_by_commit_and_reveal(server):
    """add_entropy commits, waits for the other seat, reveals; the draws then come from the
    key the seed and both secrets give, which docs/fairness.md's derivation recomputes."""
    import hmac

    with cc.Client(server.addr) as client:
        game = client.create_game(variant_key="dice", player_entropy=True)
        assert game.game.entropy.phase == pb.ENTROPY_PHASE_COMMITMENTS
        with pytest.raises(cc.ChessdError) as early:
            game.white.submit_move("e2e4")
        assert early.value.reason == "ENTROPY_PENDING"
        secrets = {"w": bytes([1] * 32), "b": bytes([2] * 32)}
        done = {}
        threads = [
            threading.Thread(target=lambda s=s, seat=seat: done.setdefault(s, seat.add_entropy(secrets[s])))
            for s, seat in (("w", game.white), ("b", game.black))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        final = client.get_game(game.game_id)
        assert final.entropy.phase == pb.ENTROPY_PHASE_DONE
        assert final.entropy.white_secret == secrets["w"].hex()
        assert final.entropy.black_commitment == hashlib.sha256(secrets["b"]).hexdigest()
        game.black.resign()
        seed = bytes.fromhex(client.get_game(game.game_id).seed)
        text = "chessd entropy v1 %s %s" % (secrets["w"].hex(), secrets["b"].hex())
        key = hmac.new(seed, text.encode(), hashlib.sha256).digest()
        # From the start only pawns (1) and knights (2) can move: the die is thrown again
        # until it shows one of them (a rejected candidate, below one in 10^18, is ignored).
        throws = (
            int.from_bytes(hmac.new(key, b"chessd draw v1 roll 0 %d 0" % i, hashlib.sha256).digest()[:8], "big") % 6 + 1
            for i in range(1000)
        )
        assert final.start_fen.split()[6] == str(next(t for t in throws if t in (1, 2)))


def test_every_proto_enum_value_has_a_member():
    """The IntEnums mirror the proto: a value added to the proto must be added here."""
    for enum_type, (proto_name, prefix) in MIRRORS.items():
        values = {v.name: v.number for v in pb.DESCRIPTOR.enum_types_by_name[proto_name].values}
        assert {prefix + m.name: m.value for m in enum_type} == values, proto_name


def test_the_version_is_tied_to_the_proto():
    """Major version = the API's (chessd.v1); PROTO_SHA256 is the stubs' wire descriptor."""
    assert pb.DESCRIPTOR.package == "chessd.v1"
    assert cc.__version__.split(".")[0] == "1"
    assert cc.PROTO_SHA256 == hashlib.sha256(pb.DESCRIPTOR.serialized_pb).hexdigest()
    recorded = (Path(__file__).resolve().parents[1] / "proto.sha256").read_text().split()[0]
    assert cc.PROTO_SHA256 == recorded
