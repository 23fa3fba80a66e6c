//! A game's header in a feed event: its variant, start position, players and their ids,
//! labels, time control, start rules, draw rule, creation time and claim grace, as text
//! fields ([`fields`]), or all of them in one text ([`joined`], the `h` field of a Redis feed
//! entry). Every event of a game carries the same header, so a feed reader decodes it once per
//! game (`codec::Headers`).

use std::collections::HashMap;
use std::time::Duration;

use chessd_rules::{ByColor, Position, Rules, Variant};

use crate::game::{
    ClockStart, GameHeader, GameId, HeaderParts, Labels, PlayerId, Players, StartRules,
    TimeControl, epoch_ms, from_epoch_ms,
};
use crate::store::feed::text::{field, join, ms, number};

/// Appends the header's fields to `f`.
pub fn fields(g: &GameHeader, f: &mut Vec<(&'static str, String)>) {
    f.extend([
        ("v", g.variant().key().to_owned()),
        ("s", g.start.position().fen()),
        ("w", g.players.white.to_string()),
        ("b", g.players.black.to_string()),
        ("dr", g.draw_rule.key().to_owned()),
        ("ca", epoch_ms(g.created_at()).to_string()),
        ("cl", g.claim_after().as_millis().to_string()),
    ]);
    if let Some(id) = g.players.ids.white() {
        f.push(("wi", id.to_string()));
    }
    if let Some(id) = g.players.ids.black() {
        f.push(("bi", id.to_string()));
    }
    if !g.labels.is_empty() {
        f.push(("l", g.labels.to_stored()));
    }
    if let Some(tc) = g.time_control() {
        f.push(("tc", format!("{}+{}", ms(tc.initial), ms(tc.increment))));
        if let Some(d) = tc.black_initial {
            f.push(("tcbi", ms(d).to_string()));
        }
        if let Some(d) = tc.black_increment {
            f.push(("tcbn", ms(d).to_string()));
        }
    }
    if g.start_rules().clock_start != ClockStart::OnCreation {
        f.push(("cs", g.start_rules().clock_start.to_string()));
    }
    if let Some(d) = g.start_rules().first_move_timeout {
        f.push(("fm", ms(d).to_string()));
    }
}

/// The header's fields in one text, in `text::join`'s form.
#[must_use]
pub fn joined(g: &GameHeader) -> String {
    let mut f = Vec::new();
    fields(g, &mut f);
    join(&f)
}

/// The header from its fields (`map` an event's fields, or the fields of an `h`).
pub fn decode(id: GameId, map: &HashMap<&str, &str>) -> Result<GameHeader, String> {
    let variant: Variant = field(map, "v")?
        .parse()
        .map_err(|_| "feed event: unknown variant".to_owned())?;
    let start = Position::from_fen(variant, field(map, "s")?)
        .map_err(|e| format!("feed event: start position: {e}"))?;
    let player = |name: &str| -> Result<Option<PlayerId>, String> {
        map.get(name)
            .map(|t| PlayerId::checked(t).map_err(|e| format!("feed event: {name}: {e}")))
            .transpose()
    };
    let time_control = match map.get("tc") {
        None => None,
        Some(text) => {
            let (a, b) = text
                .split_once('+')
                .ok_or_else(|| format!("feed event: time control {text:?}"))?;
            let part = |t: &str| {
                t.parse::<u64>()
                    .map(Duration::from_millis)
                    .map_err(|_| format!("feed event: time control {text:?}"))
            };
            let own = |name: &str| map.get(name).map(|t| part(t)).transpose();
            Some(TimeControl {
                initial: part(a)?,
                increment: part(b)?,
                black_initial: own("tcbi")?,
                black_increment: own("tcbn")?,
            })
        }
    };
    let start_rules = StartRules {
        clock_start: map
            .get("cs")
            .map(|t| t.parse::<ClockStart>())
            .transpose()
            .map_err(|e| format!("feed event: {e}"))?
            .unwrap_or_default(),
        first_move_timeout: map
            .get("fm")
            .map(|t| {
                t.parse::<u64>()
                    .map(Duration::from_millis)
                    .map_err(|_| format!("feed event: first-move timeout {t:?}"))
            })
            .transpose()?,
    };
    Ok(GameHeader::new(HeaderParts {
        id,
        players: Players {
            white: field(map, "w")?.into(),
            black: field(map, "b")?.into(),
            ids: ByColor::new(player("wi")?, player("bi")?),
        },
        labels: match map.get("l") {
            Some(text) => Labels::from_stored(text)?,
            None => Labels::default(),
        }
        .shared(),
        start: start.into(),
        time_control,
        start_rules,
        draw_rule: {
            let text = field(map, "dr")?;
            text.parse()
                .map_err(|_| format!("feed event: draw rule {text:?}"))?
        },
        created_at: from_epoch_ms(number(map, "ca")?),
        // Absent from the events of earlier versions: their games have the default.
        claim_after: match map.get("cl") {
            Some(_) => Duration::from_millis(number(map, "cl")?),
            None => crate::game::presence::default_claim_after(time_control),
        },
    }))
}
