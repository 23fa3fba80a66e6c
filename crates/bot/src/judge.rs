//! Resigning and drawing by the engine's score over the last N searches.
//!
//! Every search the bot moves by leaves its final score here (a book move leaves none, which
//! breaks every run). The rules:
//! - resign when the last `resign.moves` scores are all at or below `resign.score`;
//! - a draw is welcome when the last `draw.moves` scores are all at or below `draw.score`:
//!   the bot then accepts the opponent's offer and claims a claimable draw;
//! - with `offer_draw`, offer one when the last `draw.moves` scores all lie within
//!   `±draw.score`, and again only after as many more moves.

use std::collections::VecDeque;

use crate::uci::Score;

/// A score and how many searches in a row must reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    /// Centipawns, from the bot's side (a mate counts as beyond any score).
    pub score: i32,
    pub moves: u32,
}

/// The thresholds in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub resign: Option<Threshold>,
    pub draw: Option<Threshold>,
    pub offer_draw: bool,
}

/// Scores of the bot's own searches, newest last.
#[derive(Debug)]
pub struct Judge {
    rules: Rules,
    scores: VecDeque<Option<i32>>,
    /// Own moves since the bot last offered a draw.
    since_offer: Option<u32>,
}

impl Judge {
    #[must_use]
    pub fn new(rules: Rules) -> Judge {
        Judge {
            rules,
            scores: VecDeque::new(),
            since_offer: None,
        }
    }

    /// Records the score of a search the bot moved by (`None`: no score, as for a book move).
    pub fn record(&mut self, score: Option<Score>) {
        let keep = [self.rules.resign, self.rules.draw]
            .iter()
            .flatten()
            .map(|t| t.moves as usize)
            .max()
            .unwrap_or(0);
        self.scores.push_back(score.map(Score::centipawns));
        while self.scores.len() > keep {
            self.scores.pop_front();
        }
        if let Some(n) = &mut self.since_offer {
            *n += 1;
        }
    }

    /// Whether the last `t.moves` scores all satisfy `ok`.
    fn run(&self, t: Threshold, ok: impl Fn(i32) -> bool) -> bool {
        let n = t.moves as usize;
        n > 0
            && self.scores.len() >= n
            && self.scores.iter().rev().take(n).all(|s| s.is_some_and(&ok))
    }

    #[must_use]
    pub fn should_resign(&self) -> bool {
        self.rules
            .resign
            .is_some_and(|t| self.run(t, |s| s <= t.score))
    }

    /// Accept an offer, claim a claimable draw.
    #[must_use]
    pub fn welcomes_draw(&self) -> bool {
        self.rules
            .draw
            .is_some_and(|t| self.run(t, |s| s <= t.score))
    }

    /// Offer a draw with the next move; remembers that it did.
    pub fn offer_now(&mut self) -> bool {
        let Some(t) = self.rules.draw else {
            return false;
        };
        let due = self.since_offer.is_none_or(|n| n >= t.moves);
        let offer = self.rules.offer_draw && due && self.run(t, |s| s.abs() <= t.score.abs());
        if offer {
            self.since_offer = Some(0);
        }
        offer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(offer: bool) -> Judge {
        Judge::new(Rules {
            resign: Some(Threshold {
                score: -500,
                moves: 3,
            }),
            draw: Some(Threshold {
                score: 20,
                moves: 2,
            }),
            offer_draw: offer,
        })
    }

    /// Resignation needs N bad scores in a row; one better score or a scoreless move resets.
    #[test]
    fn resign_after_n_bad_scores() {
        let mut j = judge(false);
        j.record(Some(Score::Cp(-600)));
        j.record(Some(Score::Cp(-700)));
        assert!(!j.should_resign());
        j.record(Some(Score::Mate(-4)));
        assert!(j.should_resign());
        j.record(Some(Score::Cp(-100)));
        assert!(!j.should_resign());
        let mut j = judge(false);
        for s in [
            Some(Score::Cp(-900)),
            None,
            Some(Score::Cp(-900)),
            Some(Score::Cp(-900)),
        ] {
            j.record(s);
        }
        assert!(!j.should_resign(), "the scoreless move breaks the run");
        j.record(Some(Score::Cp(-900)));
        assert!(j.should_resign());
        j.record(None);
        assert!(!j.should_resign());
    }

    /// A draw is welcome when the bot is not better than the threshold, losing included.
    #[test]
    fn draws_welcome_when_not_better() {
        let mut j = judge(false);
        j.record(Some(Score::Cp(10)));
        assert!(!j.welcomes_draw());
        j.record(Some(Score::Cp(-300)));
        assert!(j.welcomes_draw());
        j.record(Some(Score::Cp(150)));
        assert!(!j.welcomes_draw());
    }

    /// Offers need the flag and level scores, and repeat only after N more moves.
    #[test]
    fn offers() {
        let mut j = judge(false);
        j.record(Some(Score::Cp(0)));
        j.record(Some(Score::Cp(5)));
        assert!(!j.offer_now());
        let mut j = judge(true);
        j.record(Some(Score::Cp(0)));
        j.record(Some(Score::Cp(-300)));
        assert!(!j.offer_now(), "losing is not level");
        j.record(Some(Score::Cp(0)));
        j.record(Some(Score::Cp(5)));
        assert!(j.offer_now());
        j.record(Some(Score::Cp(0)));
        assert!(!j.offer_now(), "offered one move ago");
        j.record(Some(Score::Cp(0)));
        assert!(j.offer_now());
    }

    /// Without thresholds nothing is ever decided.
    #[test]
    fn off() {
        let mut j = Judge::new(Rules {
            resign: None,
            draw: None,
            offer_draw: true,
        });
        for _ in 0..5 {
            j.record(Some(Score::Mate(-1)));
        }
        assert!(!j.should_resign() && !j.welcomes_draw() && !j.offer_now());
    }
}
