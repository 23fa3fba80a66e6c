//! The players' entropy as every caller sees it (`game::entropy`): the phase and both
//! commitments to everyone; the secrets to everyone once both are in, to nobody before.

use chessd_rules::any::AnyPosition;
use chessd_rules::{ByColor, Color};

use crate::api::encode::values::color;
use crate::game::codec::hex;
use crate::game::entropy::{Entropy, EntropyPhase, EntropyStep, EntropyValue};
use chessd_proto::wire as pb;

/// The round as it stands. A lone secret is not shown even to its own seat: the seat sent it,
/// and showing it to one viewer and not another would make the answer depend on who asks.
#[must_use]
pub(super) fn entropy(e: &Entropy) -> pb::Entropy {
    let commitment = |c: Color| e.commitment(c).map(|v| hex(v)).unwrap_or_default();
    let secrets = e.secrets();
    let secret = |c: Color| secrets.as_ref().map(|s| hex(&s[c])).unwrap_or_default();
    pb::Entropy {
        phase: match e.phase() {
            EntropyPhase::Commitments => pb::EntropyPhase::Commitments,
            EntropyPhase::Reveals => pb::EntropyPhase::Reveals,
            EntropyPhase::Done => pb::EntropyPhase::Done,
        } as i32,
        white_commitment: commitment(Color::White),
        black_commitment: commitment(Color::Black),
        white_secret: secret(Color::White),
        black_secret: secret(Color::Black),
    }
}

/// A commitment or secret sent (WatchGame's event).
#[must_use]
pub(super) fn submitted(
    by: Color,
    step: EntropyStep,
    commitment: Option<&EntropyValue>,
    secrets: Option<&ByColor<EntropyValue>>,
    start: Option<&AnyPosition>,
) -> pb::EntropySubmitted {
    let secret = |c: Color| secrets.map(|s| hex(&s[c])).unwrap_or_default();
    pb::EntropySubmitted {
        by: color(by),
        revealed: step.is_reveal(),
        commitment: commitment.map(|v| hex(v)).unwrap_or_default(),
        white_secret: secret(Color::White),
        black_secret: secret(Color::Black),
        start_fen: start.map(AnyPosition::fen).unwrap_or_default(),
    }
}
