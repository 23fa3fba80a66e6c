//! [`Holder`]: who asks to act for a seat, and the one rule that says which seat that is.
//!
//! A seat opens to its seat token (if it has one) and to the player bound to it (if any). The
//! API resolves a player token to its player before it asks a store, so a store only ever
//! compares digests and player ids.

use chessd_rules::Color;

use crate::game::action::Players;
use crate::game::error::SeatError;
use crate::game::player::PlayerId;
use crate::game::token::{SeatToken, Seats};

/// Who asks to act.
#[derive(Clone, Debug)]
pub enum Holder {
    /// A game's seat token.
    Seat(SeatToken),
    /// A player whose player token the API checked.
    Player(PlayerId),
    /// An arbiter (an API key the API checked) acting on this side's clock. The API pairs it
    /// only with `Action::AdjustClock`, the one action a record takes from an arbiter.
    Arbiter(Color),
}

impl Holder {
    /// The seat this holder has in a game with these seats and players. A seat token of
    /// neither seat is `TOKEN_INVALID`; a player seated on neither side `PLAYER_NOT_SEATED`.
    pub fn seat_in(&self, seats: &Seats, players: &Players) -> Result<Color, SeatError> {
        match self {
            Holder::Seat(token) => seats.seat_of(token),
            Holder::Player(player) => players.seat_of(player).ok_or(SeatError::PlayerNotSeated),
            Holder::Arbiter(side) => Ok(*side),
        }
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::ByColor;

    use super::*;

    /// A seat opens to its token and to its bound player; other tokens and players are told
    /// apart (the wrong token is unauthenticated, another player is not permitted).
    #[test]
    fn seats_open_to_tokens_and_bound_players() {
        let tokens = SeatToken::pair().unwrap();
        let seats = Seats::of(&ByColor::new(Some(*tokens.white()), None));
        let bot = PlayerId::checked("bot-7").unwrap();
        let players = Players {
            white: "alice".into(),
            black: "bot".into(),
            ids: ByColor::new(None, Some(bot.clone())),
        };
        let seat = |h: Holder| h.seat_in(&seats, &players);
        assert_eq!(seat(Holder::Seat(*tokens.white())).unwrap(), Color::White);
        assert_eq!(seat(Holder::Player(bot)).unwrap(), Color::Black);
        assert!(matches!(
            seat(Holder::Seat(*tokens.black())),
            Err(SeatError::InvalidToken)
        ));
        assert!(matches!(
            seat(Holder::Player(PlayerId::checked("bot-8").unwrap())),
            Err(SeatError::PlayerNotSeated)
        ));
    }
}
