"""The API's enums as Python IntEnums: typed, printable, and equal to the wire values.

Each member is the proto value of the same name without its prefix (``Variant.CHESS`` is
``VARIANT_CHESS``). The tests check that every proto value has a member, so a new value in
the proto cannot go unnoticed here.
"""

from __future__ import annotations

import enum

from chessd.v1 import chessd_pb2 as pb


class Variant(enum.IntEnum):
    UNSPECIFIED = pb.VARIANT_UNSPECIFIED
    CHESS = pb.VARIANT_CHESS
    RACING_KINGS = pb.VARIANT_RACING_KINGS
    CHESS960 = pb.VARIANT_CHESS960
    THREE_CHECK = pb.VARIANT_THREE_CHECK
    KING_OF_THE_HILL = pb.VARIANT_KING_OF_THE_HILL
    ANTICHESS = pb.VARIANT_ANTICHESS
    ATOMIC = pb.VARIANT_ATOMIC
    HORDE = pb.VARIANT_HORDE
    CRAZYHOUSE = pb.VARIANT_CRAZYHOUSE


class Color(enum.IntEnum):
    UNSPECIFIED = pb.COLOR_UNSPECIFIED
    WHITE = pb.COLOR_WHITE
    BLACK = pb.COLOR_BLACK


class GameStatus(enum.IntEnum):
    UNSPECIFIED = pb.GAME_STATUS_UNSPECIFIED
    ONGOING = pb.GAME_STATUS_ONGOING
    FINISHED = pb.GAME_STATUS_FINISHED
    ABORTED = pb.GAME_STATUS_ABORTED


class GameResult(enum.IntEnum):
    UNSPECIFIED = pb.GAME_RESULT_UNSPECIFIED
    WHITE_WINS = pb.GAME_RESULT_WHITE_WINS
    BLACK_WINS = pb.GAME_RESULT_BLACK_WINS
    DRAW = pb.GAME_RESULT_DRAW


class Termination(enum.IntEnum):
    UNSPECIFIED = pb.TERMINATION_UNSPECIFIED
    CHECKMATE = pb.TERMINATION_CHECKMATE
    STALEMATE = pb.TERMINATION_STALEMATE
    INSUFFICIENT_MATERIAL = pb.TERMINATION_INSUFFICIENT_MATERIAL
    REPETITION = pb.TERMINATION_REPETITION
    FIFTY_MOVE_RULE = pb.TERMINATION_FIFTY_MOVE_RULE
    RACE = pb.TERMINATION_RACE
    RESIGNATION = pb.TERMINATION_RESIGNATION
    AGREEMENT = pb.TERMINATION_AGREEMENT
    TIME_FORFEIT = pb.TERMINATION_TIME_FORFEIT
    ABANDONMENT = pb.TERMINATION_ABANDONMENT
    ABORTED = pb.TERMINATION_ABORTED
    THIRD_CHECK = pb.TERMINATION_THIRD_CHECK
    KING_OF_THE_HILL = pb.TERMINATION_KING_OF_THE_HILL
    KING_EXPLODED = pb.TERMINATION_KING_EXPLODED
    ALL_PIECES_LOST = pb.TERMINATION_ALL_PIECES_LOST
    STALEMATE_WIN = pb.TERMINATION_STALEMATE_WIN
    HORDE_DESTROYED = pb.TERMINATION_HORDE_DESTROYED


class DrawRule(enum.IntEnum):
    UNSPECIFIED = pb.DRAW_RULE_UNSPECIFIED
    CLAIM = pb.DRAW_RULE_CLAIM
    AUTOMATIC = pb.DRAW_RULE_AUTOMATIC


class GameView(enum.IntEnum):
    UNSPECIFIED = pb.GAME_VIEW_UNSPECIFIED
    FULL = pb.GAME_VIEW_FULL
    BASIC = pb.GAME_VIEW_BASIC


class DrawClaim(enum.IntEnum):
    UNSPECIFIED = pb.DRAW_CLAIM_UNSPECIFIED
    THREEFOLD_REPETITION = pb.DRAW_CLAIM_THREEFOLD_REPETITION
    FIFTY_MOVES = pb.DRAW_CLAIM_FIFTY_MOVES


#: Each IntEnum beside the proto enum it mirrors and that enum's value prefix.
MIRRORS = {
    Variant: ("Variant", "VARIANT_"),
    Color: ("Color", "COLOR_"),
    GameStatus: ("GameStatus", "GAME_STATUS_"),
    GameResult: ("GameResult", "GAME_RESULT_"),
    Termination: ("Termination", "TERMINATION_"),
    DrawRule: ("DrawRule", "DRAW_RULE_"),
    GameView: ("GameView", "GAME_VIEW_"),
    DrawClaim: ("DrawClaim", "DRAW_CLAIM_"),
}
