//! The wide-board engine (`chessd_rules::wide`), every game in `WideVariant::ALL`: the input's
//! first line as FEN of each game and as a UCI move against each game's start and the parsed
//! positions, then playouts steered by the remaining bytes. A FEN that reads writes one that
//! reads back to an equal position; a UCI text that parses prints back to itself and resolves
//! only to a legal move; every generated move's UCI reads back to it, the move count agrees
//! with the list, a position without moves has an outcome, and where perft plays on the 8x8
//! generator's boards it counts what the position's own play leads to. Typed errors, never a
//! panic.
#![no_main]

use chessd_rules::wide::{WidePosition, WideUci, WideVariant};
use libfuzzer_sys::fuzz_target;

/// The written FEN reads back to the same position.
fn fen_round_trip(pos: &WidePosition) {
    let fen = pos.fen();
    let back = WidePosition::from_fen(pos.variant(), &fen)
        .unwrap_or_else(|e| panic!("written fen {fen} does not read back: {e}"));
    assert_eq!(&back, pos, "{fen}");
}

/// The legal moves, each one's UCI resolving back to it.
fn moves_read_back(pos: &WidePosition) -> Vec<chessd_rules::wide::WideMove> {
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{pos:?}");
    assert_eq!(!moves.is_empty(), pos.has_legal_move(), "{pos:?}");
    for &m in &moves {
        let uci = m.to_uci(pos);
        let text = uci.to_string();
        assert_eq!(text.parse::<WideUci>(), Ok(uci), "{text} in {pos:?}");
        assert_eq!(uci.to_move(pos), Ok(m), "{text} in {pos:?}");
    }
    moves
}

/// The games whose perft plays on the 8x8 generator's own boards: perft 2 there equals the
/// replies counted after each move played by the position itself.
fn perft_plays_as_the_position_does(pos: &WidePosition, moves: &[chessd_rules::wide::WideMove]) {
    const EIGHT_BY_EIGHT: [WideVariant; 4] = [
        WideVariant::Cylinder,
        WideVariant::KnightRelay,
        WideVariant::CheshireCat,
        WideVariant::IceAge,
    ];
    if !EIGHT_BY_EIGHT.contains(&pos.variant()) {
        return;
    }
    let replies: u64 = moves
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            child.count_legal_moves()
        })
        .sum();
    assert_eq!(pos.perft(2), replies, "{pos:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (head, steer) = rest.split_at(rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len()));
    let text = std::str::from_utf8(head).ok();
    let parsed: Vec<WidePosition> = WideVariant::ALL
        .into_iter()
        .filter_map(|v| WidePosition::from_fen(v, text?).ok())
        .collect();
    for pos in &parsed {
        fen_round_trip(pos);
    }
    if let Some(uci) = text.and_then(|t| t.parse::<WideUci>().ok()) {
        assert_eq!(uci.to_string().parse::<WideUci>(), Ok(uci));
        let starts = WideVariant::ALL.into_iter().map(WidePosition::new);
        for pos in starts.chain(parsed.iter().cloned()) {
            if let Ok(m) = uci.to_move(&pos) {
                assert!(pos.legal_moves().contains(&m), "{uci} in {pos:?}");
                assert_eq!(m.to_uci(&pos), uci, "{pos:?}");
            }
        }
    }
    // The first byte picks where the playout starts: a parsed position, else a game's start.
    let mut pos = match parsed.len() {
        0 => WidePosition::new(WideVariant::ALL[pick as usize % WideVariant::ALL.len()]),
        n => parsed[pick as usize % n],
    };
    for &b in steer.iter().skip(1) {
        let moves = moves_read_back(&pos);
        perft_plays_as_the_position_does(&pos, &moves);
        let _ = pos.is_check();
        let _ = pos.is_insufficient_material();
        if moves.is_empty() {
            assert!(
                pos.outcome().is_some(),
                "no moves but no outcome in {pos:?}"
            );
            break;
        }
        let _ = pos.outcome();
        pos.play_unchecked(moves[b as usize % moves.len()]);
        fen_round_trip(&pos);
    }
});
