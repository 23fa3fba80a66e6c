//! Games started from the browser page (`--page-create`, off by default): who may create
//! a game without an API key, what such a game may be, and how often one address may do it.
//!
//! A platform creates games from its backend with an API key; a deployment that wants
//! visitors of its page to start games themselves (a friend invited by a link) turns this on.
//! Then a CreateGame **without an API key** is a page's creation, whether or not the server
//! has `--api-key-file`: the gate lets it past the key check (`gate`), and the handler holds
//! it to [`PageCreate::admit`]:
//!
//! - **Its shape**: a variant (with a Chess960 start number if wanted), one of the operator's
//!   time controls (`--page-create-time-controls`), players' names of at most
//!   [`MAX_NAME_CHARS`] characters, a request id. Nothing a platform decides: no start FEN,
//!   labels, player ids or bound tokens, clock start, first-move timer, claim wait, draw rule,
//!   takebacks or odds. Each is refused as `PERMISSION_DENIED`/`PAGE_CREATE_REFUSED` naming
//!   the field. One exception: with `--page-create-bot <player id>`, one seat may be bound to
//!   that player, the deployment's computer opponent (a `chessd-bot` in player mode with that
//!   player's token plays every game it is seated in).
//! - **Its rate**: `--page-create-per-minute` creations per address a minute (IPv6 by /64),
//!   `RESOURCE_EXHAUSTED`/`RATE_LIMITED` with the wait beyond it (unless `--no-rate-limits`).
//!   The live-game cap (`--max-live-games`) bounds them all.
//!
//! A call with a valid API key is a backend's and is none of this module's business. The
//! page learns what it may offer from [`page_json`], served at `/config.json`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use clap::Args;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ServiceError;
use crate::game::{Byoyomi, TimeControl};
use crate::security::error::AccessError;
use crate::security::error::LimitError;
use crate::security::limits::peer_key;
use chessd_proto::wire as pb;

/// The longest player name a page's creation may give (characters).
pub(crate) const MAX_NAME_CHARS: usize = 40;

/// Creations per address a minute by default: a few games in a row, not a flood.
pub(crate) const DEFAULT_PER_MINUTE: u32 = 5;

/// The time controls offered by default, as `minutes+seconds`.
pub(crate) const DEFAULT_TIME_CONTROLS: &str = "3+2,5+3,10+5,15+10";

/// The limiter forgets recovered addresses once it holds this many.
const SWEEP_AT: usize = 10_000;

/// The flags of `chessd serve` for games started from the page.
#[derive(Args, Clone, Debug)]
pub struct PageCreateArgs {
    /// Let the page start games: a CreateGame without an API key is then a page's creation,
    /// held to a fixed shape (a variant, one of --page-create-time-controls, names) and rate.
    /// Off by default: a platform usually creates games itself.
    #[arg(long, env = "CHESSD_PAGE_CREATE")]
    pub page_create: bool,

    /// The time controls the page offers and a page's creation may use, comma-separated:
    /// Fischer as `minutes+increment seconds` (`5+3`), byoyomi as `minutes+period seconds`
    /// and a `b` (`10+30b`), with several periods `minutes+periods x seconds b`
    /// (`10+3x30b`), and `untimed` for a game without clocks.
    #[arg(long, env = "CHESSD_PAGE_CREATE_TIME_CONTROLS", default_value = DEFAULT_TIME_CONTROLS, value_parser = time_controls)]
    pub page_create_time_controls: TimeChoices,

    /// Games one address (IPv6: its /64) may start from the page a minute.
    #[arg(long, env = "CHESSD_PAGE_CREATE_PER_MINUTE", default_value_t = DEFAULT_PER_MINUTE, value_parser = crate::units::rate)]
    pub page_create_per_minute: u32,

    /// The player id of the deployment's computer opponent (a chessd-bot in player mode with
    /// this player's token): the page offers it, and a page's creation may bind one seat to it.
    #[arg(long, env = "CHESSD_PAGE_CREATE_BOT", value_parser = bot_id)]
    pub page_create_bot: Option<String>,
}

/// `--page-create-bot`: a player id the page can name in JSON as it is.
fn bot_id(text: &str) -> Result<String, String> {
    let ok = !text.is_empty()
        && text.len() <= 64
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if ok {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "expected 1 to 64 letters, digits, '-', '_' or '.', got {text:?}"
        ))
    }
}

impl PageCreateArgs {
    /// The configuration these flags give: `None` when the page may not create games.
    #[must_use]
    pub fn config(&self) -> Option<PageCreateConfig> {
        self.page_create.then(|| PageCreateConfig {
            time_controls: self.page_create_time_controls.0.clone(),
            per_minute: self.page_create_per_minute,
            bot: self.page_create_bot.clone(),
        })
    }
}

/// One time control the page may use (the same for both sides): `None` is a game without
/// clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeChoice(pub Option<TimeControl>);

impl TimeChoice {
    /// `5+3`, `10+30b`, `10+3x30b`, or `untimed`.
    #[must_use]
    pub fn text(self) -> String {
        match self.0 {
            None => "untimed".to_owned(),
            Some(tc) => {
                let minutes = tc.initial.as_secs() / 60;
                match tc.byoyomi {
                    Some(b) if b.periods() == 1 => {
                        format!("{minutes}+{}b", b.period().as_secs())
                    }
                    Some(b) => format!("{minutes}+{}x{}b", b.periods(), b.period().as_secs()),
                    None => format!("{minutes}+{}", tc.increment.as_secs()),
                }
            }
        }
    }
}

/// The list `--page-create-time-controls` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeChoices(pub Vec<TimeChoice>);

/// `--page-create-time-controls`: `3+2,5+3,untimed`.
fn time_controls(text: &str) -> Result<TimeChoices, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t == "untimed" {
                return Ok(TimeChoice(None));
            }
            let bad = || {
                format!(
                    "expected minutes+seconds such as 5+3, byoyomi such as 10+30b or 10+3x30b, \
                     or untimed, got {t:?}"
                )
            };
            let (m, s) = t.split_once('+').ok_or_else(bad)?;
            let minutes: u64 = m.parse().map_err(|_| bad())?;
            // Checked below; saturating so a huge number is refused, not an overflow.
            let main = Duration::from_secs(minutes.saturating_mul(60));
            if let Some(b) = s.strip_suffix('b') {
                let (periods, seconds) = b.split_once('x').unwrap_or(("1", b));
                let periods: u32 = periods.parse().map_err(|_| bad())?;
                let seconds: u64 = seconds.parse().map_err(|_| bad())?;
                if minutes > 180 || !(1..=180).contains(&seconds) || !(1..=10).contains(&periods) {
                    return Err(format!(
                        "time control {t:?} out of range: 0 to 180 minutes, 1 to 10 periods \
                         of 1 to 180 seconds"
                    ));
                }
                let byoyomi =
                    Byoyomi::new(Duration::from_secs(seconds), periods).ok_or_else(bad)?;
                return Ok(TimeChoice(Some(TimeControl::byoyomi(main, byoyomi))));
            }
            let seconds: u64 = s.parse().map_err(|_| bad())?;
            if minutes == 0 || minutes > 180 || seconds > 180 {
                return Err(format!(
                    "time control {t:?} out of range: 1 to 180 minutes, 0 to 180 seconds"
                ));
            }
            Ok(TimeChoice(Some(TimeControl::even(
                main,
                Duration::from_secs(seconds),
            ))))
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|v| {
            if v.is_empty() {
                Err("at least one time control is needed".to_owned())
            } else {
                Ok(TimeChoices(v))
            }
        })
}

/// What `--page-create` and its flags configure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageCreateConfig {
    pub time_controls: Vec<TimeChoice>,
    pub per_minute: u32,
    /// The computer opponent's player id, if the deployment offers one.
    pub bot: Option<String>,
}

/// What the page is told at `/config.json`: `{"create":null}`, or the time controls it may
/// offer and the computer opponent, if any
/// (`{"create":{"timeControls":["5+3","untimed"],"bot":"stockfish"}}`; the bot id is checked
/// to need no escaping).
#[must_use]
pub(crate) fn page_json(config: Option<&PageCreateConfig>) -> String {
    match config {
        None => "{\"create\":null}\n".to_owned(),
        Some(c) => {
            let list: Vec<String> = c
                .time_controls
                .iter()
                .map(|t| format!("\"{}\"", t.text()))
                .collect();
            let bot = c
                .bot
                .as_ref()
                .map(|b| format!(",\"bot\":\"{b}\""))
                .unwrap_or_default();
            format!(
                "{{\"create\":{{\"timeControls\":[{}]{bot}}}}}\n",
                list.join(",")
            )
        }
    }
}

/// The page's creations, checked: the configuration and the per-address limiter.
#[derive(Debug)]
pub struct PageCreate {
    config: PageCreateConfig,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

fn refused(field: &'static str, message: impl Into<String>) -> ServiceError {
    ServiceError::Access(AccessError::PageCreateRefused {
        field,
        message: message.into(),
    })
}

fn duration_of(d: Option<&prost_types::Duration>) -> Option<Duration> {
    d.and_then(|d| {
        let secs = u64::try_from(d.seconds).ok()?;
        let nanos = u32::try_from(d.nanos).ok()?;
        Some(Duration::new(secs, nanos))
    })
}

impl PageCreate {
    #[must_use]
    pub fn new(config: PageCreateConfig) -> PageCreate {
        let per_minute = NonZeroU32::new(config.per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        PageCreate {
            limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            config,
            clock: DefaultClock::default(),
        }
    }

    /// Whether a CreateGame without an API key may create its game: its shape, then (with
    /// `rate_limits`) one creation off the address's budget.
    pub fn admit(
        &self,
        request: &pb::CreateGameRequest,
        peer: Option<IpAddr>,
        rate_limits: bool,
    ) -> Result<(), ServiceError> {
        self.shape(request)?;
        if !rate_limits {
            return Ok(());
        }
        let Some(ip) = peer else {
            return Ok(());
        };
        if self.limiter.len() > SWEEP_AT {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&peer_key(ip)).map_err(|not_until| {
            ServiceError::Limit(LimitError::RateLimited {
                limit: "games started from the page per peer address",
                retry_after: not_until
                    .wait_time_from(self.clock.now())
                    .max(Duration::from_millis(1)),
            })
        })
    }

    /// The fields a page's creation may set, and the time control among the offered ones.
    fn shape(&self, r: &pb::CreateGameRequest) -> Result<(), ServiceError> {
        // A seat may be bound to the computer opponent, never both, never anyone else.
        let bound = |id: &str| !id.is_empty() && self.config.bot.as_deref() != Some(id);
        let both = !r.white_player_id.is_empty() && !r.black_player_id.is_empty();
        let platform_only: [(&'static str, bool); 12] = [
            ("start_fen", !r.start_fen.is_empty()),
            ("labels", !r.labels.is_empty()),
            ("white_player_id", bound(&r.white_player_id) || both),
            ("black_player_id", bound(&r.black_player_id)),
            ("bound_seat_tokens", r.bound_seat_tokens),
            ("clock_start", r.clock_start != 0),
            ("clock_start_at", r.clock_start_at.is_some()),
            ("first_move_timeout", r.first_move_timeout.is_some()),
            ("claim_after", r.claim_after.is_some()),
            ("draw_rule", r.draw_rule != 0),
            ("takebacks", r.takebacks != 0),
            (
                "time_control.black_initial",
                r.time_control
                    .as_ref()
                    .is_some_and(|t| t.black_initial.is_some() || t.black_increment.is_some()),
            ),
        ];
        if let Some((field, _)) = platform_only.iter().find(|(_, set)| *set) {
            return Err(refused(
                field,
                format!("a game started from the page (without an API key) may not set {field}"),
            ));
        }
        // The rule itself: the request must equal its copy with only the page's fields kept,
        // so a field added to CreateGameRequest later is refused until it is allowed here
        // (the list above only names the field for the error).
        let page_only = pb::CreateGameRequest {
            variant: r.variant,
            variant_key: r.variant_key.clone(),
            chess960_start: r.chess960_start,
            time_control: r.time_control,
            white_player: r.white_player.clone(),
            black_player: r.black_player.clone(),
            white_player_id: r.white_player_id.clone(),
            black_player_id: r.black_player_id.clone(),
            request_id: r.request_id.clone(),
            ..pb::CreateGameRequest::default()
        };
        if page_only != *r {
            return Err(refused(
                "request",
                "a game started from the page (without an API key) may set only its variant, \
                 time control, players' names and request id",
            ));
        }
        for (field, name) in [
            ("white_player", &r.white_player),
            ("black_player", &r.black_player),
        ] {
            if name.chars().count() > MAX_NAME_CHARS {
                return Err(refused(
                    field,
                    format!(
                        "{field} is at most {MAX_NAME_CHARS} characters in a game started from the page"
                    ),
                ));
            }
        }
        let asked = TimeChoice(r.time_control.as_ref().map(|t| {
            TimeControl {
                byoyomi: duration_of(t.byoyomi.as_ref())
                    .and_then(|period| Byoyomi::new(period, t.periods.max(1))),
                ..TimeControl::even(
                    duration_of(t.initial.as_ref()).unwrap_or(Duration::MAX),
                    duration_of(t.increment.as_ref()).unwrap_or(Duration::ZERO),
                )
            }
        }));
        if !self.config.time_controls.contains(&asked) {
            let offered: Vec<String> = self.config.time_controls.iter().map(|t| t.text()).collect();
            return Err(refused(
                "time_control",
                format!(
                    "time_control must be one the page offers for a game started from it: {}",
                    offered.join(", ")
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(per_minute: u32) -> PageCreate {
        PageCreate::new(PageCreateConfig {
            time_controls: time_controls("5+3,untimed").unwrap().0,
            per_minute,
            bot: Some("robot".into()),
        })
    }

    fn timed(minutes: i64, seconds: i64) -> Option<pb::TimeControl> {
        Some(pb::TimeControl {
            initial: Some(prost_types::Duration {
                seconds: minutes * 60,
                nanos: 0,
            }),
            increment: Some(prost_types::Duration { seconds, nanos: 0 }),
            ..Default::default()
        })
    }

    fn reason(e: &ServiceError) -> (tonic::Code, String) {
        (e.code(), e.reason().to_owned())
    }

    /// The offered time controls and names pass; everything a platform decides is refused by
    /// name, and so is a time control not offered.
    #[test]
    fn shape() {
        let p = policy(100);
        let ok = pb::CreateGameRequest {
            variant_key: "crazyhouse".into(),
            time_control: timed(5, 3),
            white_player: "ann".into(),
            request_id: "r1".into(),
            ..Default::default()
        };
        p.admit(&ok, None, true).unwrap();
        let untimed = pb::CreateGameRequest {
            time_control: None,
            ..ok.clone()
        };
        p.admit(&untimed, None, true).unwrap();
        // A byoyomi is a time control of its own: not offered here, so refused by name.
        let byoyomi = pb::CreateGameRequest {
            time_control: timed(5, 0).map(|t| pb::TimeControl {
                byoyomi: Some(prost_types::Duration {
                    seconds: 3,
                    nanos: 0,
                }),
                ..t
            }),
            ..ok.clone()
        };
        assert_eq!(
            reason(&p.admit(&byoyomi, None, true).unwrap_err()).0,
            tonic::Code::PermissionDenied
        );
        let shogi = PageCreate::new(PageCreateConfig {
            time_controls: time_controls("5+3b").unwrap().0,
            per_minute: 100,
            bot: None,
        });
        shogi.admit(&byoyomi, None, true).unwrap();
        let against_bot = pb::CreateGameRequest {
            black_player_id: "robot".into(),
            ..ok.clone()
        };
        p.admit(&against_bot, None, true).unwrap();
        let cases: Vec<(&str, pb::CreateGameRequest)> = vec![
            (
                "start_fen",
                pb::CreateGameRequest {
                    start_fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                    ..ok.clone()
                },
            ),
            (
                "labels",
                pb::CreateGameRequest {
                    labels: [("t".to_owned(), "x".to_owned())].into(),
                    ..ok.clone()
                },
            ),
            (
                "white_player_id",
                pb::CreateGameRequest {
                    white_player_id: "p1".into(),
                    ..ok.clone()
                },
            ),
            (
                "black_player_id",
                pb::CreateGameRequest {
                    black_player_id: "someone".into(),
                    ..ok.clone()
                },
            ),
            (
                "white_player_id",
                pb::CreateGameRequest {
                    white_player_id: "robot".into(),
                    black_player_id: "robot".into(),
                    ..ok.clone()
                },
            ),
            (
                "takebacks",
                pb::CreateGameRequest {
                    takebacks: 2,
                    ..ok.clone()
                },
            ),
            (
                "time_control",
                pb::CreateGameRequest {
                    time_control: timed(1, 0),
                    ..ok.clone()
                },
            ),
            (
                "white_player",
                pb::CreateGameRequest {
                    white_player: "x".repeat(MAX_NAME_CHARS + 1),
                    ..ok.clone()
                },
            ),
        ];
        for (field, request) in cases {
            let e = p.admit(&request, None, true).unwrap_err();
            assert_eq!(
                reason(&e),
                (tonic::Code::PermissionDenied, "PAGE_CREATE_REFUSED".into()),
                "{field}"
            );
            assert!(
                e.to_string().contains(field.split('.').next().unwrap()),
                "{e}"
            );
        }
    }

    /// One address spends its budget; another has its own; `--no-rate-limits` lifts it.
    #[test]
    fn rate() {
        let p = policy(2);
        let r = pb::CreateGameRequest {
            time_control: timed(5, 3),
            ..Default::default()
        };
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        p.admit(&r, Some(a), true).unwrap();
        p.admit(&r, Some(a), true).unwrap();
        let e = p.admit(&r, Some(a), true).unwrap_err();
        assert_eq!(
            reason(&e),
            (tonic::Code::ResourceExhausted, "RATE_LIMITED".into())
        );
        p.admit(&r, Some(b), true).unwrap();
        p.admit(&r, Some(a), false).unwrap();
    }

    /// The flag's list, and what the page is told.
    #[test]
    fn flags_and_json() {
        assert!(time_controls("5").is_err());
        assert!(time_controls("0+3").is_err());
        assert!(time_controls("").is_err());
        let c = PageCreateConfig {
            time_controls: time_controls(" 3+2, untimed ").unwrap().0,
            per_minute: 1,
            bot: None,
        };
        assert_eq!(
            page_json(Some(&c)),
            "{\"create\":{\"timeControls\":[\"3+2\",\"untimed\"]}}\n"
        );
        let with_bot = PageCreateConfig {
            bot: Some("stock-fish_1".into()),
            ..c
        };
        assert_eq!(
            page_json(Some(&with_bot)),
            "{\"create\":{\"timeControls\":[\"3+2\",\"untimed\"],\"bot\":\"stock-fish_1\"}}\n"
        );
        assert!(bot_id("a b").is_err());
        // Byoyomi choices: one period or several; the main time may be zero.
        let byoyomi = time_controls("10+30b,0+3x10b").unwrap().0;
        assert_eq!(
            byoyomi.iter().map(|t| t.text()).collect::<Vec<_>>(),
            ["10+30b", "0+3x10b"]
        );
        let shogi = byoyomi[0].0.unwrap();
        assert_eq!(shogi.initial, Duration::from_secs(600));
        assert_eq!(shogi.byoyomi, Byoyomi::new(Duration::from_secs(30), 1));
        for bad in [
            "10+0b",
            "10+11x30b",
            "10+x30b",
            "10+3x30",
            "181+30b",
            "18446744073709551615+30b",
            "18446744073709551615+3",
        ] {
            assert!(time_controls(bad).is_err(), "{bad}");
        }
        assert!(bot_id("x\"y").is_err());
        assert!(bot_id("").is_err());
        assert_eq!(page_json(None), "{\"create\":null}\n");
    }
}
