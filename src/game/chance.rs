//! Chance that anyone can check: a game's secret [`Seed`], the commitment to it published at
//! creation, and the one derivation of every draw from it ([`Seed::draw`]).
//!
//! A game of chance (a die, a random step), and a game whose start is drawn (Chess960 and the
//! other random setups, when the request names no start), gets 32 random bytes from the
//! operating system when it is created. Its SHA-256 is part of the game from the first answer on; the seed itself is
//! kept by the store beside the seats' digests and shown only once the game is over. Every
//! draw is a pure function of the seed, the ply the draw belongs to and its purpose, so a
//! retry, a restore, a replica or a takeback that comes back to the same ply can only draw the
//! same value, and a player who knows the seed at the end can recompute each one with standard
//! tools (`docs/fairness.md` spells the derivation out; `scripts/verify-draws` does it).

use core::fmt;

use chessd_rules::any::{AnyPosition, AnyVariant};
use chessd_rules::wide::{BehemothStep, Direction, Face, Nature, WidePosition};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The bytes of a seed: 256 bits, as many as the SHA-256 that commits to it.
pub(crate) const SEED_BYTES: usize = 32;

/// A game's secret seed. `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; SEED_BYTES]);

/// What a draw is for: part of the derivation, so no two kinds of draw of one ply share a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Dice Chess: the face for the player to move.
    Roll,
    /// Behemoth Chess: the direction and distance of the Behemoth's step.
    Step,
    /// A start drawn at creation (Chess960, Capablanca Random, Corner, Fortress, Massacre).
    Setup,
}

impl Purpose {
    /// The purpose's word in the derivation's message.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Roll => "roll",
            Purpose::Step => "step",
            Purpose::Setup => "setup",
        }
    }
}

impl Seed {
    /// A fresh seed from the operating system's entropy source.
    pub fn generate() -> Result<Seed, getrandom::Error> {
        let mut bytes = [0; SEED_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Seed(bytes))
    }

    #[must_use]
    pub fn from_bytes(bytes: [u8; SEED_BYTES]) -> Seed {
        Seed(bytes)
    }

    #[must_use]
    pub fn as_bytes(&self) -> &[u8; SEED_BYTES] {
        &self.0
    }

    /// SHA-256 of the seed: published when the game is created, so the seed revealed at the
    /// end can be checked to be the one the game was played with.
    #[must_use]
    pub fn commitment(&self) -> [u8; 32] {
        Sha256::digest(self.0).into()
    }

    /// A uniform value in `0..n` (`n` at least 1): draw number `index` of `purpose` for the
    /// position at `ply` (a die thrown again is the next index; a step's direction and
    /// distance are two).
    ///
    /// The k-th candidate (k = 0, 1, ...) is the first eight bytes, big-endian, of
    /// HMAC-SHA256 keyed with the seed over the ASCII text `chessd draw v1 PURPOSE PLY INDEX K`
    /// (decimal numbers, single spaces). A candidate at or above the largest multiple of `n`
    /// that fits in 64 bits is rejected and the next one tried, so every value is equally
    /// likely; the first accepted candidate modulo `n` is the draw.
    #[must_use]
    pub fn draw(&self, ply: u32, purpose: Purpose, index: u32, n: u32) -> u32 {
        let n = u64::from(n.max(1));
        // The largest multiple of n a u64 holds is 2^64 - (2^64 mod n).
        let limit = u64::MAX - (u64::MAX % n + 1) % n;
        for k in 0u64.. {
            let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0)
                .expect("HMAC takes a key of any length");
            mac.update(format!("chessd draw v1 {} {ply} {index} {k}", purpose.as_str()).as_bytes());
            let out = mac.finalize().into_bytes();
            let mut first = [0; 8];
            first.copy_from_slice(&out[..8]);
            let x = u64::from_be_bytes(first);
            if x <= limit {
                return (x % n) as u32;
            }
        }
        unreachable!("a candidate is rejected with probability below one half")
    }
}

/// A new game's seed and start as played: a fresh seed where anything is drawn, and the start
/// with the draws of ply 0 made from it: a start drawn at creation (`draw_start`, the
/// variant's start array or shuffle: [`drawn_start`]), and the draw a game of chance's start
/// waits for (Dice Chess's first roll). `None` for a game that draws nothing. With
/// `player_entropy` the start's draw waits for the players' secrets (`game::entropy`): the
/// start is returned as it is.
pub(crate) fn for_new_game(
    start: &AnyPosition,
    draw_start: bool,
    player_entropy: bool,
) -> Result<Option<(Seed, AnyPosition)>, getrandom::Error> {
    let draws_setup = draw_start && draws_starts(start.variant());
    if !draws_setup && !start.wide().is_some_and(WidePosition::has_chance) {
        return Ok(None);
    }
    let seed = Seed::generate()?;
    let start = if draws_setup {
        drawn_start(start.variant(), &seed).unwrap_or(*start)
    } else {
        *start
    };
    if player_entropy {
        // Without a roll a request's start may have carried: the first is drawn with the key.
        return Ok(Some((seed, as_requested(&start, false))));
    }
    let settled = settled(&start, &seed);
    Ok(Some((seed, settled)))
}

/// Whether a game of `variant` draws during play (Dice Chess's rolls, the Behemoth's steps):
/// the games whose players may add their own entropy.
#[must_use]
pub(crate) fn draws_in_play(variant: AnyVariant) -> bool {
    AnyPosition::new(variant)
        .wide()
        .is_some_and(WidePosition::has_chance)
}

/// Whether a game of `variant` may have its start drawn: a numbered array (Chess960,
/// Capablanca Random, Corner, Fortress) or a shuffle (Massacre).
#[must_use]
pub(crate) fn draws_starts(variant: AnyVariant) -> bool {
    // Not by dealing a shuffle to see whether there is one: a deal is a whole start.
    AnyPosition::numbered_starts(variant).is_some() || AnyPosition::shuffles(variant)
}

/// The start of a game of `variant` drawn from `seed` ([`Purpose::Setup`], ply 0): the array
/// numbered by draw 0 among the variant's count, or the shuffle whose k-th choice is draw k
/// (Massacre deals its army by Fisher-Yates, dealing again while the side to move has no
/// capture, the draws numbered on across deals). `None` for a game with one start.
#[must_use]
pub(crate) fn drawn_start(variant: AnyVariant, seed: &Seed) -> Option<AnyPosition> {
    if let Some(count) = AnyPosition::numbered_starts(variant) {
        return AnyPosition::numbered(variant, seed.draw(0, Purpose::Setup, 0, count));
    }
    let mut index = 0;
    AnyPosition::shuffled(variant, |n| {
        let draw = seed.draw(
            0,
            Purpose::Setup,
            index,
            u32::try_from(n).unwrap_or(u32::MAX),
        );
        index += 1;
        draw as usize
    })
}

/// `start` given the draw it waits for, from `seed`.
pub(crate) fn settled(start: &AnyPosition, seed: &Seed) -> AnyPosition {
    let mut settled = *start;
    if let Some(p) = settled.wide_mut()
        && let Some(nature) = draw_among(seed, 0, &p.nature_options())
    {
        // The nature was drawn among the position's own options: it applies.
        let _ = p.apply_nature(nature);
    }
    settled
}

/// `start` as a creation request gave it, for a game with a seed (`seeded`) or without: a
/// drawn start as the variant's own (what a request without a start asks for), a game of
/// chance's start without the first roll the server drew into it; so a retried request
/// fingerprints as the first did.
#[must_use]
pub(crate) fn as_requested(start: &AnyPosition, seeded: bool) -> AnyPosition {
    match start.wide() {
        _ if seeded && draws_starts(start.variant()) => AnyPosition::new(start.variant()),
        Some(p) if p.has_chance() => AnyPosition::Wide(p.unrolled()),
        _ => *start,
    }
}

/// The draw due at `ply` among `options`, the draws a position allows (`nature_options`, or
/// `natures_after` a move): `None` when nothing is due.
///
/// Dice Chess: throw `index` 0, 1, ... of the die ([`Purpose::Roll`], six values) until one
/// shows a face in `options`, as the rule's "a fair die re-rolled until it shows one" says.
/// Behemoth Chess: the direction ([`Purpose::Step`] index 0, eight values, in
/// [`Direction::ALL`]'s order) and the distance less one (index 1, four values).
#[must_use]
pub(crate) fn draw_among(seed: &Seed, ply: u32, options: &[Nature]) -> Option<Nature> {
    match options.first()? {
        Nature::Roll(_) => (0..u32::MAX).find_map(|throw| {
            let number = seed.draw(ply, Purpose::Roll, throw, 6) as u8 + 1;
            let face = Nature::Roll(Face::from_number(number)?);
            options.contains(&face).then_some(face)
        }),
        Nature::Step(_) => {
            let direction = Direction::ALL[seed.draw(ply, Purpose::Step, 0, 8) as usize];
            let distance = seed.draw(ply, Purpose::Step, 1, 4) as u8 + 1;
            let step = Nature::Step(BehemothStep::new(direction, distance)?);
            // Every step is always among the options; a list without it is not the
            // Behemoth's, and nothing is drawn from it.
            options.contains(&step).then_some(step)
        }
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed::from_bytes(core::array::from_fn(|i| i as u8))
    }

    /// The derivation is the documented one: these values were computed apart from this code,
    /// with Python's `hmac` and `hashlib` (`docs/fairness.md` shows the commands).
    #[test]
    fn draws_follow_the_documented_derivation() {
        let s = seed();
        assert_eq!(
            crate::game::codec::hex(&s.commitment()),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        assert_eq!(s.draw(0, Purpose::Roll, 0, 6), 0);
        assert_eq!(s.draw(1, Purpose::Roll, 1, 6), 1);
        assert_eq!(s.draw(1, Purpose::Step, 0, 8), 0);
        let rolls: Vec<u32> = (0..12).map(|p| s.draw(p, Purpose::Roll, 0, 6)).collect();
        assert_eq!(rolls, [0, 3, 0, 4, 4, 3, 1, 1, 1, 5, 3, 4]);
        let directions: Vec<u32> = (0..12).map(|p| s.draw(p, Purpose::Step, 0, 8)).collect();
        assert_eq!(directions, [3, 0, 2, 4, 7, 5, 4, 2, 5, 6, 6, 4]);
        let distances: Vec<u32> = (0..12).map(|p| s.draw(p, Purpose::Step, 1, 4)).collect();
        assert_eq!(distances, [2, 1, 2, 3, 2, 2, 3, 2, 3, 3, 3, 2]);
        assert_eq!(s.draw(5, Purpose::Roll, 2, u32::MAX), 2_873_517_211);
    }

    /// The same seed, ply and purpose always draw the same value; another ply or purpose draws
    /// independently (over many plies, every value of a die comes up about equally often).
    #[test]
    fn draws_are_fixed_and_uniform() {
        let s = seed();
        assert_eq!(
            s.draw(7, Purpose::Roll, 0, 6),
            s.draw(7, Purpose::Roll, 0, 6)
        );
        let mut counts = [0u32; 6];
        for ply in 0..6000 {
            counts[s.draw(ply, Purpose::Roll, 0, 6) as usize] += 1;
        }
        // Each face 1000 times expected; 4 standard deviations (about 116) either way.
        for c in counts {
            assert!((884..=1116).contains(&c), "{counts:?}");
        }
        let differ = (0..100)
            .filter(|&ply| s.draw(ply, Purpose::Roll, 0, 32) != s.draw(ply, Purpose::Step, 0, 32))
            .count();
        assert!(differ > 80, "{differ}");
    }

    /// A draw among one value is that value; a draw never reaches `n`.
    #[test]
    fn draws_stay_in_range() {
        let s = seed();
        for n in [1, 2, 3, 5, 6, 32, 1000, u32::MAX] {
            for ply in 0..50 {
                assert!(s.draw(ply, Purpose::Step, 1, n) < n);
            }
        }
        assert_eq!(s.draw(3, Purpose::Roll, 0, 0), 0);
    }

    /// A die is thrown again until it shows a face some piece can move with; the first such
    /// throw is the roll (here ply 0's throws are 1, 2, ... by the vector above: 1 first).
    #[test]
    fn a_roll_is_the_first_throw_among_the_faces_that_can_move() {
        let s = seed();
        let faces = |numbers: &[u8]| -> Vec<Nature> {
            numbers
                .iter()
                .map(|&n| Nature::Roll(Face::from_number(n).unwrap()))
                .collect()
        };
        let throws: Vec<u32> = (0..20)
            .map(|t| s.draw(0, Purpose::Roll, t, 6) + 1)
            .collect();
        let all = faces(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(
            draw_among(&s, 0, &all),
            Some(Nature::Roll(Face::from_number(throws[0] as u8).unwrap()))
        );
        // Leave out the first throw's face: the roll is the first later throw of another.
        let without: Vec<u8> = (1..=6).filter(|&n| u32::from(n) != throws[0]).collect();
        let expected = throws.iter().find(|&&t| t != throws[0]).unwrap();
        assert_eq!(
            draw_among(&s, 0, &faces(&without)),
            Some(Nature::Roll(Face::from_number(*expected as u8).unwrap()))
        );
        assert_eq!(draw_among(&s, 0, &[]), None);
    }

    /// The Behemoth's step: direction from index 0, distance from index 1, as
    /// `scripts/verify-draws` recomputes them (ply 1: N2, ply 2: E3 for this seed).
    #[test]
    fn a_step_is_a_direction_and_a_distance() {
        let s = seed();
        let all: Vec<Nature> = BehemothStep::all().map(Nature::Step).collect();
        let at = |ply| draw_among(&s, ply, &all).unwrap().to_string();
        assert_eq!(at(1), "~N2");
        assert_eq!(at(2), "~E3");
    }

    /// The start the server rolled into reads back as the start the request gave, so a
    /// retried creation fingerprints as the first one did.
    #[test]
    fn a_rolled_start_is_the_requested_one() {
        use chessd_rules::wide::WideVariant;
        let start = AnyPosition::new(AnyVariant::Wide(WideVariant::Dice));
        let rolled = settled(&start, &seed());
        assert!(rolled.wide().and_then(WidePosition::roll).is_some());
        assert_eq!(as_requested(&rolled, true), start);
        let chess = AnyPosition::new(AnyVariant::CHESS);
        assert_eq!(as_requested(&chess, false), chess);
    }

    /// A drawn start is the variant's array numbered by the seed's setup draw (for this seed,
    /// Chess960's number 270, as Python's `hmac` gives it), or its shuffle by the seed's draws;
    /// it reads back as the start a request without one asks for, and an array given by
    /// number (no seed) as itself.
    #[test]
    fn a_start_drawn_from_the_seed() {
        let chess960 = AnyVariant::Std(chessd_rules::Variant::Chess960);
        let s = seed();
        let number = s.draw(0, Purpose::Setup, 0, 960);
        assert_eq!(number, 270);
        let drawn = drawn_start(chess960, &s).unwrap();
        assert_eq!(drawn, AnyPosition::numbered(chess960, number).unwrap());
        // White's back rank of start 270 by `scripts/verify-draws`'s Scharnagl numbering.
        assert!(drawn.fen().contains("/NRKNQBBR w"), "{}", drawn.fen());
        assert_eq!(as_requested(&drawn, true), AnyPosition::new(chess960));
        assert_eq!(as_requested(&drawn, false), drawn);
        let massacre = AnyVariant::by_key("massacre").unwrap();
        let dealt = drawn_start(massacre, &s).unwrap();
        assert_eq!(
            drawn_start(massacre, &s),
            Some(dealt),
            "the same seed, the same deal"
        );
        let other = drawn_start(massacre, &Seed::from_bytes([7; SEED_BYTES])).unwrap();
        assert_ne!(dealt, other);
        assert!(draws_starts(massacre) && draws_starts(chess960));
        assert!(!draws_starts(AnyVariant::CHESS));
        for v in AnyVariant::all() {
            let dealt = AnyPosition::numbered_starts(v).is_none() && drawn_start(v, &s).is_some();
            assert_eq!(AnyPosition::shuffles(v), dealt, "{v}");
        }
        assert_eq!(drawn_start(AnyVariant::CHESS, &s), None);
        let (seed, start) = for_new_game(&AnyPosition::new(chess960), true, false)
            .unwrap()
            .unwrap();
        assert_eq!(Some(start), drawn_start(chess960, &seed));
        assert!(
            for_new_game(&AnyPosition::new(chess960), false, false)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn debug_hides_the_seed() {
        assert_eq!(format!("{:?}", seed()), "Seed(..)");
    }
}
