//! A secret setup as each caller may see it (Screen and Crazy Screen Chess before the reveal):
//! every seat's state to everyone, a placement only to its own seat and to the platform (and
//! to everyone once the game is over), and the board being set up in place of a position the
//! game does not have yet.

use chessd_rules::any::{AnyPosition, AnyVariant};
use chessd_rules::wide::{ScreenHalf, screen_half};
use chessd_rules::{ByColor, Color};

use crate::api::encode::values::timestamp;
use crate::game::Viewer;
use crate::game::setup::{awaiting_setup, setup_board, setup_variant};
use crate::game::view::SetupView;
use chessd_proto::wire as pb;

/// Whether `viewer` may see `seat`'s placement.
fn sees(viewer: Viewer, seat: Color) -> bool {
    match viewer {
        Viewer::Whole => true,
        Viewer::Seat(own) => own == seat,
        Viewer::Blind => false,
    }
}

/// The setup of a game of `position`'s variant as `viewer` sees it.
#[must_use]
pub(super) fn setup(view: &SetupView, viewer: Viewer) -> pb::Setup {
    let seat = |c: Color| {
        let placed = view.placements[c].as_ref();
        pb::SetupSeat {
            state: match placed {
                None => pb::SetupState::Empty,
                Some((_, false)) => pb::SetupState::Draft,
                Some((_, true)) => pb::SetupState::Final,
            } as i32,
            placement: placed
                .filter(|_| sees(viewer, c))
                .map(|(text, _)| text.to_string())
                .unwrap_or_default(),
            deadline: view.deadlines[c].map(timestamp),
        }
    };
    pb::Setup {
        white: Some(seat(Color::White)),
        black: Some(seat(Color::Black)),
    }
}

/// The board being set up, as FEN: the halves `viewer` may see, White to move.
#[must_use]
pub(crate) fn board(view: &SetupView, position: &AnyPosition, viewer: Viewer) -> String {
    let halves: ByColor<Option<ScreenHalf>> = ByColor::new_with(|c| {
        let (text, _) = view.placements[c].as_ref().filter(|_| sees(viewer, c))?;
        // Placements are kept as checked: each reads back.
        screen_half(setup_variant(position.variant())?, c, text).ok()
    });
    setup_board(ByColor::new_with(|c| halves[c].as_ref()))
}

/// A final position kept as FEN, as shown: the empty board for a game that ended before its
/// setup was revealed.
#[must_use]
pub(super) fn shown_fen(variant: AnyVariant, fen: &str) -> String {
    let placeholder = variant.has_secret_setup()
        && AnyPosition::from_fen(variant, fen).is_ok_and(|p| awaiting_setup(&p));
    if placeholder {
        empty_board()
    } else {
        fen.to_owned()
    }
}

/// The board of a game that never got its start, where no setup view is at hand (lists, the
/// feed): empty.
#[must_use]
pub(super) fn empty_board() -> String {
    setup_board(ByColor::new(None, None))
}
