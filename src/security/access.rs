//! Who may call what, and who may see what: the one place chessd decides access.
//!
//! - [`RPCS`]: one row per GameService RPC, naming the credential it needs ([`Access`]). The
//!   gate reads it (`gate`) and refuses what the row rules out before the body is decoded;
//!   handlers do not decide it again. A test holds the table to the proto's service
//!   descriptor, so an RPC added without a row fails it.
//! - [`Caller`]: what the gate learned about a call, handed to the handlers.
//! - [`sight`]: who may see one game, decided where the game's seats are known, and as whom
//!   ([`Sight`]): a seat, a spectator or the platform. In a game whose players see only part
//!   of the board, that decides which [`Viewer`] every answer, event and list entry is
//!   written for (`game::viewer` says what each viewer sees).
//!
//! Which seat a credential holds, and whether an action is that seat's, needs the game: the
//! store checks it (`WRONG_SEAT`, `PLAYER_NOT_SEATED`) for the rows that say [`Access::Seat`].

use std::net::IpAddr;

use chessd_rules::Color;

use crate::error::ServiceError;
use crate::game::Viewer;
use crate::security::error::AccessError;
use crate::security::keys::KeyId;
use crate::security::limits::Refused;

/// The gRPC service the table covers.
pub(crate) const SERVICE: &str = "chessd.v1.GameService";

/// The credential an RPC needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Anyone: the call reads and changes no game.
    Public,
    /// Reads one game: anyone; with `--private-watch`, one of its seats or an API key holder
    /// (the seat part is decided by [`sight`], once the handler has looked the game up).
    Reader,
    /// Acts for a seat of the game: its seat token, or a player token of the player bound to
    /// it. Which seat, and whether the action is that seat's, the store decides.
    Seat,
    /// A platform's backend: an API key, when `--api-key-file` is set.
    Backend,
    /// A backend reading every game (ListGames): as [`Access::Backend`], and with
    /// `--private-watch` an API key even where none is configured (there is no seat to prove,
    /// so then nobody may).
    AllGames,
    /// The feed (WatchGames): a player token reads its own player's games (the handler checks
    /// the token); without one, as [`Access::AllGames`].
    PlayerOrAllGames,
    /// Issues or revokes player tokens: as [`Access::Backend`]; and player tokens exist only
    /// where API keys do, since without them nobody could be kept from minting a token for
    /// someone else's player id.
    PlayerTokens,
    /// An arbiter's change to a game for no seat (AdjustClock): an API key holder, when
    /// `--api-key-file` is set.
    Arbiter,
}

impl Access {
    /// Whether an `authorization: Bearer` credential is read as an API key. These calls carry
    /// no seat token, so their bearer credential is the key; unless it is written as a player
    /// token, which the feed takes as one.
    #[must_use]
    pub(crate) fn bearer_is_key(self) -> bool {
        match self {
            Access::Public | Access::Reader | Access::Seat => false,
            Access::Backend
            | Access::AllGames
            | Access::PlayerOrAllGames
            | Access::PlayerTokens
            | Access::Arbiter => true,
        }
    }

    /// Whether a call with this access, on a server configured as `server`, may go on; the
    /// refusal otherwise. `key` says a valid API key came; `player_token` that the bearer
    /// credential is written as a player token (the handler checks it is one in force).
    pub(crate) fn admit(
        self,
        server: Server,
        key: bool,
        player_token: bool,
    ) -> Result<(), ServiceError> {
        let backend = || {
            if server.api_keys && !key {
                Err(ServiceError::Access(AccessError::ApiKeyMissing))
            } else {
                Ok(())
            }
        };
        let all_games = || {
            if (server.api_keys || server.private_watch) && !key {
                Err(ServiceError::Access(AccessError::ApiKeyMissing))
            } else {
                Ok(())
            }
        };
        match self {
            Access::Public | Access::Reader | Access::Seat => Ok(()),
            Access::Backend | Access::Arbiter => backend(),
            Access::AllGames => all_games(),
            Access::PlayerOrAllGames if player_token => Ok(()),
            Access::PlayerOrAllGames => all_games(),
            Access::PlayerTokens => server.player_tokens().and_then(|()| backend()),
        }
    }
}

/// What access depends on in the server's configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Server {
    /// `--api-key-file` is set.
    pub api_keys: bool,
    /// `--private-watch` is set.
    pub private_watch: bool,
}

impl Server {
    /// Refuses player tokens where there are no API keys (see [`Access::PlayerTokens`]): on
    /// the calls that manage them, and wherever one is presented as a credential.
    pub fn player_tokens(self) -> Result<(), ServiceError> {
        if self.api_keys {
            Ok(())
        } else {
            Err(ServiceError::Access(AccessError::PlayerTokensDisabled))
        }
    }
}

/// One RPC's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rpc {
    /// The method's name in [`SERVICE`], as the gate and the metrics name it.
    pub method: &'static str,
    pub access: Access,
    /// The call's rate-limit refusal is left to the handler: a seat's move on its own turn
    /// passes under the move floor whatever the other limits say (see `limits`).
    pub defers_rate_limit: bool,
}

const fn rpc(method: &'static str, access: Access) -> Rpc {
    Rpc {
        method,
        access,
        defers_rate_limit: false,
    }
}

/// Every GameService RPC, and who may call it.
pub(crate) const RPCS: [Rpc; 24] = [
    rpc("CreateGame", Access::Backend),
    rpc("GetGame", Access::Reader),
    rpc("ListGames", Access::AllGames),
    Rpc {
        method: "SubmitMove",
        access: Access::Seat,
        defers_rate_limit: true,
    },
    rpc("Resign", Access::Seat),
    rpc("OfferDraw", Access::Seat),
    rpc("RespondToDraw", Access::Seat),
    rpc("ClaimDraw", Access::Seat),
    rpc("Abort", Access::Seat),
    rpc("WatchGame", Access::Reader),
    rpc("ExportPgn", Access::Reader),
    rpc("GetStats", Access::Backend),
    rpc("AnalyzePosition", Access::Public),
    rpc("WatchGames", Access::PlayerOrAllGames),
    rpc("IssuePlayerToken", Access::PlayerTokens),
    rpc("RevokePlayerToken", Access::PlayerTokens),
    rpc("AddTime", Access::Seat),
    rpc("AdjustClock", Access::Arbiter),
    rpc("ProposeTakeback", Access::Seat),
    rpc("RespondToTakeback", Access::Seat),
    rpc("WithdrawTakeback", Access::Seat),
    rpc("ClaimVictory", Access::Seat),
    rpc("SubmitSetup", Access::Seat),
    rpc("SubmitEntropy", Access::Seat),
];

/// The row of a GameService call's path (`/chessd.v1.GameService/CreateGame`); `None` for
/// any other path (other services, or an unknown method, which the router answers).
#[must_use]
pub(crate) fn rpc_of(path: &str) -> Option<&'static Rpc> {
    let method = path
        .strip_prefix('/')?
        .strip_prefix(SERVICE)?
        .strip_prefix('/')?;
    RPCS.iter().find(|rpc| rpc.method == method)
}

/// What the gate learned about a call, for the handlers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Caller {
    /// The API key presented, if it is one of the keys in force.
    pub key: Option<KeyId>,
    /// The peer (or API key) limit refused this call, and its row defers the refusal to the
    /// handler (see [`Rpc::defers_rate_limit`]).
    pub deferred_refusal: Option<Refused>,
    /// The caller's address, for the per-address bounds the handlers keep.
    pub peer: Option<IpAddr>,
}

/// What the call's `authorization` credential turned out to be in one game, for [`sight`].
#[derive(Debug)]
pub(crate) enum Presented {
    /// No credential.
    Nothing,
    /// A credential this server does not accept (why: the error).
    Invalid(ServiceError),
    /// A valid credential that holds no seat of this game (not this game's seat token, or a
    /// player token of neither player): under `--private-watch` it reads as NOT_A_PLAYER
    /// whichever it was.
    Unseated,
    /// A credential that holds this seat of the game.
    Seat(Color),
}

/// Who a caller is to one game, for what it may see of it.
///
/// Most games are all or nothing: whoever may read one sees all of it. A game whose players
/// see only part of the board (Dark Chess) is shown through [`Sight::viewer`]: a seat its
/// own view, a spectator nothing of the board until the game is over, the platform (an API
/// key holder) all of it. Encoders take that one [`Viewer`] rather than deciding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sight {
    /// The seat the caller reads as; `None`: a spectator.
    pub seat: Option<Color>,
    /// The caller holds an API key in force: the platform, which sees every game whole.
    pub platform: bool,
}

impl Sight {
    /// A caller with no seat in the game: the platform with an API key, else a spectator.
    pub(crate) fn unseated(caller: &Caller) -> Sight {
        Sight {
            seat: None,
            platform: caller.key.is_some(),
        }
    }

    /// The seat that acted, for the answer to its action: that seat's view, whoever else the
    /// caller may be (`None` while the store has not named the seat: a refusal, no answer).
    pub(crate) fn acting(seat: Option<Color>) -> Sight {
        Sight {
            seat,
            platform: false,
        }
    }

    /// What this caller sees of a game that `hides` part of itself now or not
    /// (`GameView::hides`).
    pub(crate) fn viewer(self, hides: bool) -> Viewer {
        Viewer::of(hides, self.platform, self.seat)
    }
}

/// Who may see a game: with `--private-watch`, only its seats and API key holders; else
/// anyone, a credential that opens no seat reading as a spectator's.
pub(crate) fn sight(
    server: Server,
    caller: &Caller,
    presented: Presented,
) -> Result<Sight, ServiceError> {
    let private = server.private_watch && caller.key.is_none();
    match presented {
        Presented::Seat(seat) => Ok(Sight {
            seat: Some(seat),
            platform: caller.key.is_some(),
        }),
        Presented::Nothing if private => {
            Err(ServiceError::Access(AccessError::ReadCredentialsMissing))
        }
        Presented::Invalid(e) if private => Err(e),
        Presented::Unseated if private => Err(ServiceError::Access(AccessError::NotAPlayer)),
        Presented::Nothing | Presented::Invalid(_) | Presented::Unseated => {
            Ok(Sight::unseated(caller))
        }
    }
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;
    use crate::game::error::SeatError;

    /// Every RPC of the proto's GameService has exactly one row, and every row is an RPC: a
    /// new RPC cannot reach the server without a decision on who may call it.
    #[test]
    fn every_rpc_has_one_row() {
        let set = prost_types::FileDescriptorSet::decode(chessd_proto::FILE_DESCRIPTOR_SET)
            .expect("the descriptor set decodes");
        let mut declared: Vec<String> = set
            .file
            .iter()
            .filter(|f| f.package() == "chessd.v1")
            .flat_map(|f| f.service.iter())
            .filter(|s| format!("chessd.v1.{}", s.name()) == SERVICE)
            .flat_map(|s| s.method.iter().map(|m| m.name().to_string()))
            .collect();
        assert!(!declared.is_empty(), "no {SERVICE} in the descriptors");
        declared.sort();
        let mut rows: Vec<String> = RPCS.iter().map(|r| r.method.to_string()).collect();
        rows.sort();
        let all = rows.len();
        rows.dedup();
        assert_eq!(rows.len(), all, "an RPC has two rows");
        assert_eq!(rows, declared, "access rows and the proto's RPCs differ");
    }

    #[test]
    fn paths_find_their_rows() {
        let row = rpc_of("/chessd.v1.GameService/SubmitMove").unwrap();
        assert_eq!(row.access, Access::Seat);
        assert!(row.defers_rate_limit);
        assert!(rpc_of("/chessd.v1.GameService/Nope").is_none());
        assert!(rpc_of("/grpc.health.v1.Health/Check").is_none());
        assert!(rpc_of("/chessd.v1.GameServiceX/GetGame").is_none());
        assert_eq!(
            RPCS.iter().filter(|r| r.defers_rate_limit).count(),
            1,
            "only moves pass under the move floor"
        );
    }

    /// The rows' verdicts, configuration by configuration.
    #[test]
    fn verdicts() {
        let open = Server::default();
        let keyed = Server {
            api_keys: true,
            private_watch: false,
        };
        let private = Server {
            api_keys: false,
            private_watch: true,
        };
        let reason = |access: Access, server, key, player| {
            access.admit(server, key, player).err().map(|e| e.reason())
        };
        for access in [Access::Public, Access::Reader, Access::Seat] {
            for server in [open, keyed, private] {
                assert_eq!(reason(access, server, false, false), None, "{access:?}");
            }
        }
        for access in [Access::Backend, Access::Arbiter] {
            assert_eq!(reason(access, open, false, false), None);
            assert_eq!(reason(access, private, false, false), None);
            assert_eq!(reason(access, keyed, false, false), Some("API_KEY_MISSING"));
            assert_eq!(reason(access, keyed, true, false), None);
        }
        assert_eq!(reason(Access::AllGames, open, false, false), None);
        for server in [keyed, private] {
            assert_eq!(
                reason(Access::AllGames, server, false, false),
                Some("API_KEY_MISSING")
            );
            assert_eq!(
                reason(Access::PlayerOrAllGames, server, false, false),
                Some("API_KEY_MISSING")
            );
            assert_eq!(reason(Access::PlayerOrAllGames, server, false, true), None);
        }
        assert_eq!(reason(Access::AllGames, keyed, true, false), None);
        assert_eq!(
            reason(Access::PlayerTokens, open, false, false),
            Some("PLAYER_TOKENS_DISABLED")
        );
        assert_eq!(
            reason(Access::PlayerTokens, keyed, false, false),
            Some("API_KEY_MISSING")
        );
        assert_eq!(reason(Access::PlayerTokens, keyed, true, false), None);
    }

    /// Every refusal the table and `sight` give is an access error.
    #[test]
    fn refusals_are_access_errors() {
        let servers = [false, true].into_iter().flat_map(|api_keys| {
            [false, true].map(|private_watch| Server {
                api_keys,
                private_watch,
            })
        });
        for server in servers {
            for rpc in RPCS {
                for (key, player) in [(false, false), (false, true), (true, false)] {
                    if let Err(e) = rpc.access.admit(server, key, player) {
                        assert_eq!(e.layer(), crate::error::Layer::Access, "{e:?}");
                    }
                }
            }
            if let Err(e) = sight(server, &Caller::default(), Presented::Nothing) {
                assert_eq!(e.layer(), crate::error::Layer::Access, "{e:?}");
            }
        }
    }

    /// A private game is seen by its seats and key holders only; a public one by anyone.
    #[test]
    fn sights() {
        let private = Server {
            api_keys: false,
            private_watch: true,
        };
        let anyone = Caller::default();
        let seat = |p| {
            sight(private, &anyone, p)
                .map(|s| s.seat)
                .map_err(|e| e.reason())
        };
        assert_eq!(seat(Presented::Seat(Color::Black)), Ok(Some(Color::Black)));
        assert_eq!(seat(Presented::Nothing), Err("CREDENTIALS_MISSING"));
        assert_eq!(
            seat(Presented::Invalid(ServiceError::Seat(
                SeatError::InvalidToken
            ))),
            Err("TOKEN_INVALID")
        );
        assert_eq!(seat(Presented::Unseated), Err("NOT_A_PLAYER"));
        let public = sight(Server::default(), &anyone, Presented::Unseated).unwrap();
        assert_eq!(public.seat, None);
    }
}
