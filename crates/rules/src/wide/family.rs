//! The wide family as a game record plays it: `WidePosition`'s [`Family`] implementation
//! (its repetition key, its SAN with marks, its UCI-or-SAN reading) and its start as a
//! record keeps it ([`WideStart`]). `Game<WidePosition>` ([`WideGame`]) is then the same record as
//! the 8x8 engine's, with the same draw rules, claims, takebacks and flag rule.

use super::dice::Face;
use super::mv::{WideMove, WideMoveKind, WideUci};
use super::nature::Nature;
use super::position::WidePosition;
use super::role::WideRole;
use super::san::{WideSan, wide_san_among};
use super::variant::{Chance, End, WideVariant};
use crate::family::mix;
use crate::{Color, Family, Game, Outcome, PlayError, StandardStart, Start, WideText};

/// A wide-family game record.
pub type WideGame = Game<WidePosition>;

/// A start position: the game's own by name (Capablanca Random's, Corner's and Fortress's
/// default array), or by name and a [`StartChange`]; any other boxed.
pub type WideStart = Start<WidePosition>;

/// How a start differs from its game's own when it is kept by name and this
/// ([`Start::Drawn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartChange {
    /// Dice Chess: the first roll, made in the game's own start before anyone moves (every
    /// Dice game's start holds one).
    Roll(Face),
    /// Black to move: what a game of secret setup (Screen Chess) holds until both placements
    /// are in, where it would otherwise keep a whole position for each idle game.
    BlackToMove,
}

/// `legal` without their draws of chance, each move once, in order.
fn bare_moves(legal: &[WideMove]) -> Vec<WideMove> {
    let mut bare: Vec<WideMove> = Vec::with_capacity(legal.len());
    for m in legal.iter().map(|m| m.with_nature(None)) {
        if bare.last() != Some(&m) && !bare.contains(&m) {
            bare.push(m);
        }
    }
    bare
}

impl WidePosition {
    /// A record's move of a game of chance, UCI or SAN, with the draw that follows it
    /// (`e2e4~3`, `e4~3`): the move is read among the moves without draws, then must carry
    /// exactly the draw given, one of those that may follow it.
    fn parse_with_nature(&self, text: &str, legal: &[WideMove]) -> Result<WideMove, PlayError> {
        let (body, nature) = match text.find('~') {
            Some(at) => (
                &text[..at],
                Some(
                    text[at..]
                        .parse::<Nature>()
                        .map_err(|e| PlayError::Malformed(e.to_string()))?,
                ),
            ),
            None => (text, None),
        };
        let bare = bare_moves(legal);
        let base = self.parse_plain(body, &bare)?;
        let m = base.with_nature(nature);
        if legal.contains(&m) {
            return Ok(m);
        }
        Err(PlayError::Illegal(match nature {
            None => format!("{body} needs the draw that follows it (such as ~3 or ~SE4)"),
            Some(n) => format!("{body}{n}: {n} cannot follow {body} here"),
        }))
    }

    /// Whether the game is one of chance (Dice Chess, Dice Chess 10x10, Behemoth Chess),
    /// whose moves carry the server's draws.
    #[must_use]
    pub fn has_chance(&self) -> bool {
        self.def.chance != Chance::None
    }

    /// A player's move, UCI or SAN, as a player sends it in a game of chance: without the
    /// draw that follows it, which is the server's to make (`natures_after` lists what may
    /// follow; `WideMove::with_nature` joins the draw to the move).
    pub fn parse_player_move(&self, text: &str) -> Result<WideMove, PlayError> {
        self.parse_plain(text.trim(), &self.legal_moves())
    }

    /// A move's UCI or SAN text among `legal`, with no draw of chance.
    fn parse_plain(&self, text: &str, legal: &[WideMove]) -> Result<WideMove, PlayError> {
        if self.def.targets {
            return self.parse_turn_text(text, legal);
        }
        if let Ok(uci) = text.parse::<WideUci>() {
            return legal
                .iter()
                .copied()
                .find(|m| uci.names(m.to_uci(self)))
                .ok_or_else(|| {
                    PlayError::Illegal(format!("{uci} in this {} position", self.variant()))
                });
        }
        let san = text.parse::<WideSan>().map_err(|_| {
            let shown: String = text.chars().take(16).collect();
            PlayError::Malformed(format!(
                "{shown:?} is neither UCI (such as e2e4 or a9a10) nor SAN (such as Nf3 or Ca10)"
            ))
        })?;
        san.to_move_among(self, legal).map_err(|e| match e {
            super::WideSanError::Ambiguous(why) => PlayError::Ambiguous(why),
            other => PlayError::Illegal(other.to_string()),
        })
    }
}

impl StandardStart for WidePosition {
    type Variant = WideVariant;
    type Draw = StartChange;

    fn standard(variant: WideVariant) -> WidePosition {
        WidePosition::new(variant)
    }

    fn variant_of(&self) -> WideVariant {
        self.variant()
    }

    fn draw_in_start(&self) -> Option<StartChange> {
        let own = WidePosition::new(self.variant());
        match self.roll {
            Some(face) => (self.unrolled() == own).then_some(StartChange::Roll(face)),
            None => (*self
                == WidePosition {
                    turn: Color::Black,
                    ..own
                })
            .then_some(StartChange::BlackToMove),
        }
    }

    fn drawn(variant: WideVariant, change: StartChange) -> WidePosition {
        let own = WidePosition::new(variant);
        match change {
            StartChange::Roll(face) => WidePosition {
                roll: Some(face),
                ..own
            },
            StartChange::BlackToMove => WidePosition {
                turn: Color::Black,
                ..own
            },
        }
    }
}

impl Family for WidePosition {
    type Move = WideMove;
    type Legal = Vec<WideMove>;
    type San = WideText;
    type Start = WideStart;

    fn from_start(start: &WideStart) -> WidePosition {
        start.position()
    }

    /// The legal moves; in the games of chance, each with every draw that may follow it (a
    /// move that ends the game, or after which no face can come up, alone), so that a record
    /// never leaves a position waiting.
    fn legal(&self) -> Vec<WideMove> {
        let moves = self.legal_moves();
        if self.def.chance == Chance::None {
            return moves;
        }
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let natures = self.natures_after(m);
            if natures.is_empty() {
                out.push(m);
            }
            out.extend(natures.into_iter().map(|n| m.with_nature(Some(n))));
        }
        out
    }

    fn play_unchecked(&mut self, m: WideMove) {
        WidePosition::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        WidePosition::outcome(self)
    }

    /// Pieces, side, castling rights, the en passant square only when a capture there is
    /// legal (a pinned pawn's is no difference), the hands (Loop and Recycle Chess), the
    /// ice (Ice Age) and the Behemoth's square; never Dice Chess's roll.
    fn repetition_key(&self) -> u64 {
        let ep = self.ep.filter(|_| {
            self.legal_moves()
                .iter()
                .any(|m| m.kind() == WideMoveKind::EnPassant)
        });
        let mut h = mix(self.turn.index() as u64 + 1);
        let mut add = |word: u64| h = mix(h ^ word).wrapping_add(0x9E37_79B9_7F4A_7C15);
        for bb in self.roles.iter().chain(&self.colors) {
            add(*bb as u64);
            add((*bb >> 64) as u64);
        }
        for rooks in self.castles.iter().flatten() {
            add(rooks.map_or(0xFF, |sq| sq.index() as u64));
        }
        add(ep.map_or(0xFF, |sq| sq.index() as u64));
        for hand in &self.hands {
            add(hand.iter().fold(0u64, |acc, &n| (acc << 8) | u64::from(n)));
        }
        add(self.vanished as u64);
        add((self.vanished >> 64) as u64);
        add(u64::from(self.fresh_kings[0]) | u64::from(self.fresh_kings[1]) << 1);
        add(self.ice as u64);
        add((self.ice >> 64) as u64);
        add(self.behemoth as u64 | u64::from(self.step_pending) << 63);
        add(self.pending.map_or(0xFF, |sq| sq.index() as u64));
        h
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    fn has_move_count_rule(&self) -> bool {
        true
    }

    fn irreversible_moves(&self) -> bool {
        !self.def.drops
    }

    /// Ice Age has no repetition draws: its own rule is that there is none.
    fn has_own_repetition_rule(&self) -> bool {
        self.def.ice
    }

    /// A move carrying a draw of chance is its SAN among the moves without draws, then the
    /// draw's token (`e4~3`).
    fn san_among(&self, m: WideMove, legal: &[WideMove]) -> WideText {
        let mut text = WideText::new();
        if self.def.targets {
            // Ambiguous Chess's turns have no SAN: the record writes GAMES.md's tokens.
            text.push_str(&m.to_uci(self).to_string());
        } else if self.def.chance == Chance::None {
            text.push_str(&wide_san_among(self, m, legal).to_string());
        } else {
            let bare = bare_moves(legal);
            text.push_str(&wide_san_among(self, m.with_nature(None), &bare).to_string());
            if let Some(n) = m.nature() {
                text.push_str(&n.to_string());
            }
        }
        text
    }

    fn mark(&self, san: &mut WideText) {
        if self.is_check() {
            san.push(if self.has_legal_move() { '+' } else { '#' });
        }
    }

    fn illegal(&self, m: WideMove) -> PlayError {
        PlayError::Illegal(format!(
            "{} in this {} position",
            m.to_uci(self),
            self.variant()
        ))
    }

    fn parse_among(&self, text: &str, legal: &[WideMove]) -> Result<WideMove, PlayError> {
        let text = text.trim();
        if self.def.chance != Chance::None {
            return self.parse_with_nature(text, legal);
        }
        self.parse_plain(text, legal)
    }

    /// With the chess material rule (`End::Checkmate`), a lone king, or a king and one
    /// knight or bishop; in Knightmate, the royal knight alone. Never in the games whose other
    /// ends a lone piece can still bring about (an extinct type, a massacre).
    fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.colors[color.index()];
        let of = |role: WideRole| self.roles[role.index()] & ours;
        match self.def.end {
            End::Checkmate => {
                // Recycle Chess: the hand counts with the board.
                let hand = &self.hands[color.index()];
                let held = |role: WideRole| u32::from(hand[role.index()]);
                let minors = of(WideRole::Knight) | of(WideRole::Bishop);
                ours & !(of(WideRole::King) | minors) == 0
                    && held(WideRole::Queen) + held(WideRole::Rook) + held(WideRole::Pawn) == 0
                    && minors.count_ones() + held(WideRole::Knight) + held(WideRole::Bishop) <= 1
            }
            End::BareRoyals => ours == of(WideRole::Knight),
            End::KnightRelay => !self.relay_can_mate(color),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Face, StartChange, WidePosition, WideStart, WideVariant};
    use crate::Start;

    /// A Dice Chess start with its first roll made is the game's own start and a face, kept
    /// without a position; a rolled position other than the start stays whole, and a start
    /// with no roll is kept by name as every game's own is.
    #[test]
    fn a_rolled_start_is_kept_by_name_and_face() {
        for variant in [WideVariant::Dice, WideVariant::Dice10x10] {
            let mut rolled = WidePosition::new(variant);
            rolled.set_roll(Face::Knight).unwrap();
            let kept = WideStart::from(rolled);
            assert_eq!(kept, Start::Drawn(variant, StartChange::Roll(Face::Knight)));
            assert_eq!((kept.position(), kept.variant()), (rolled, variant));
            assert_eq!(
                WideStart::from(WidePosition::new(variant)),
                Start::Standard(variant)
            );
        }
        let mut later = WidePosition::new(WideVariant::Dice);
        later.set_roll(Face::Pawn).unwrap();
        later.play("e2e4").unwrap();
        later.set_roll(Face::Knight).unwrap();
        assert!(matches!(WideStart::from(later), Start::Other(_)));
        assert_eq!(size_of::<WideStart>(), 16);
    }

    /// The game's own start with Black to move (a Screen Chess game's until its setup is
    /// over) is kept by name too; a position that differs from it in more is kept whole.
    #[test]
    fn a_start_with_black_to_move_is_kept_by_name() {
        for variant in [WideVariant::Screen, WideVariant::Janus] {
            let fen = variant.start_fen().replacen(" w ", " b ", 1);
            let turned = WidePosition::from_fen(variant, &fen).unwrap();
            let kept = WideStart::from(turned);
            assert_eq!(kept, Start::Drawn(variant, StartChange::BlackToMove));
            assert_eq!((kept.position(), kept.variant()), (turned, variant));
            let later = WidePosition::from_fen(variant, &fen.replace(" 0 1", " 0 2")).unwrap();
            assert!(matches!(WideStart::from(later), Start::Other(_)));
        }
    }
}
