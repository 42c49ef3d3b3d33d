//! The network evaluation: the incremental accumulator against one built from scratch, in every rule.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::eval::network::{Accumulator, Group, Network};
use tengen::pattern::PatternBoard;
use tengen::train::model::Model;
use tengen::types::{Color, Pos, Rule};

/// A network with random tables and head (the float model's random start, rounded), pooling every point or
/// (`empty_only`) the empty points alone; the rows of windows centred on stones are random either way.
fn random_network(group: Group, seed: u64, empty_only: bool) -> &'static Network {
    let mut model = Model::random(group, seed);
    model.empty_only = empty_only;
    Box::leak(Box::new(model.quantise(300.0, vec!["random".into()])))
}

/// Every rule with a random network of each kind: every point pooled, the empty points alone.
fn every_kind(seed: u64) -> Vec<(Rule, &'static Network)> {
    let kinds = Rule::ALL.into_iter().flat_map(|rule| [(rule, false), (rule, true)]);
    kinds.map(|(rule, empty_only)| (rule, random_network(Group::of(rule), seed, empty_only))).collect()
}

/// An empty point of `pb`, chosen by `rng`.
fn random_empty(pb: &PatternBoard, rng: &mut StdRng) -> Pos {
    let empty: Vec<Pos> = pb.board().points().filter(|&p| pb.board().is_empty(p)).collect();
    empty[rng.random_range(0..empty.len())]
}

#[test]
fn the_incremental_accumulator_equals_one_built_from_scratch() {
    let mut rng = StdRng::seed_from_u64(5);
    for (rule, net) in every_kind(11) {
        for size in [15, 9, 20] {
            let mut pb = PatternBoard::new(size, rule).expect("board");
            let mut acc = Accumulator::new(net, pb.board());
            let mut portable = Accumulator::new(net, pb.board()).portable();
            let mut side = Color::Black;
            for step in 0..400 {
                let undo = pb.board().stone_count() > 0 && (rng.random_range(0..3) == 0 || pb.board().is_full());
                if undo {
                    let (p, c) = *pb.board().moves().last().expect("a stone");
                    acc.unmake(pb.board(), p);
                    portable.unmake(pb.board(), p);
                    pb.undo();
                    side = c;
                } else {
                    let p = random_empty(&pb, &mut rng);
                    pb.make(p, side);
                    acc.make(pb.board(), p);
                    portable.make(pb.board(), p);
                    side = side.opponent();
                }
                let fresh = Accumulator::new(net, pb.board());
                assert!(acc.same_state(&fresh, pb.board()), "{rule:?} {net:?} size {size} step {step}");
                assert!(portable.same_state(&fresh, pb.board()), "{rule:?} {net:?} size {size} step {step} (portable)");
                for c in Color::BOTH {
                    let flags = (step as u32 * 37) & 0x7ff;
                    assert_eq!(acc.logit(c, flags).to_bits(), fresh.logit(c, flags).to_bits());
                    assert_eq!(portable.logit(c, flags).to_bits(), fresh.logit(c, flags).to_bits());
                }
            }
        }
    }
}

/// A make keeps what it overwrote and its undo puts it back; a stone that was on the board when the state was
/// built has no such record, and its undo computes the change: both give the state built from scratch.
#[test]
fn stones_older_than_the_state_are_taken_back_by_computing_their_change() {
    let mut rng = StdRng::seed_from_u64(21);
    for (rule, net) in every_kind(17) {
        let mut pb = PatternBoard::new(15, rule).expect("board");
        let mut side = Color::Black;
        let mut place = |pb: &mut PatternBoard, side: &mut Color| {
            let p = random_empty(pb, &mut rng);
            pb.make(p, *side);
            *side = side.opponent();
            p
        };
        for _ in 0..40 {
            place(&mut pb, &mut side);
        }
        let mut acc = Accumulator::new(net, pb.board());
        for _ in 0..10 {
            let p = place(&mut pb, &mut side);
            acc.make(pb.board(), p);
        }
        // Ten stones with a record, then forty without, all taken back.
        while let Some(&(p, _)) = pb.board().moves().last() {
            acc.unmake(pb.board(), p);
            pb.undo();
            let fresh = Accumulator::new(net, pb.board());
            assert!(acc.same_state(&fresh, pb.board()), "{rule:?} {net:?} {} stones", pb.board().stone_count());
            // And a stone placed again on the way down is followed and taken back as any other.
            if pb.board().stone_count() % 7 == 3 {
                let q = place(&mut pb, &mut side);
                acc.make(pb.board(), q);
                acc.unmake(pb.board(), q);
                pb.undo();
                side = side.opponent();
                assert!(
                    acc.same_state(&fresh, pb.board()),
                    "{rule:?} {net:?} {} stones, again",
                    pb.board().stone_count()
                );
            }
        }
    }
}

/// The search's way: a stone placed is only noted (`defer`), followed when the position is evaluated or another
/// stone comes (`settle`), and costs nothing when taken back first (`take_back`); the state read is always the
/// board's.
#[test]
fn deferred_stones_settle_to_the_state_built_from_scratch() {
    let mut rng = StdRng::seed_from_u64(9);
    for (rule, net) in every_kind(13) {
        let mut pb = PatternBoard::new(15, rule).expect("board");
        let mut acc = Accumulator::new(net, pb.board());
        let mut side = Color::Black;
        let (mut evaluated, mut dropped) = (0, 0);
        for step in 0..600 {
            match rng.random_range(0..4) {
                0 if pb.board().stone_count() > 0 => {
                    let (p, c) = *pb.board().moves().last().expect("a stone");
                    acc.take_back(pb.board(), p);
                    pb.undo();
                    side = c;
                    dropped += 1;
                }
                1 => {
                    acc.settle(pb.board());
                    let fresh = Accumulator::new(net, pb.board());
                    assert!(acc.same_state(&fresh, pb.board()), "{rule:?} {net:?} step {step}");
                    for c in Color::BOTH {
                        assert_eq!(
                            acc.logit(c, 5).to_bits(),
                            fresh.logit(c, 5).to_bits(),
                            "{rule:?} {net:?} step {step}"
                        );
                    }
                    evaluated += 1;
                }
                _ if !pb.board().is_full() => {
                    let p = random_empty(&pb, &mut rng);
                    acc.settle(pb.board());
                    pb.make(p, side);
                    acc.defer(p);
                    side = side.opponent();
                }
                _ => {}
            }
        }
        assert!(evaluated > 100 && dropped > 100, "{evaluated} {dropped}");
    }
}

#[test]
fn every_rule_has_an_embedded_network_and_the_search_uses_it() {
    use tengen::eval::EvalChoice;
    use tengen::search::tt::Table;
    use tengen::search::{SearchLimits, SearchOptions, search};
    for rule in Rule::ALL {
        for size in [15, 20] {
            let net = EvalChoice::Network(None).network(rule, size).expect("an embedded network");
            assert_eq!(net.group, Group::of(rule));
            assert!(net.residual, "the shipped networks are residual");
            assert!(EvalChoice::Classical.network(rule, size).is_none());
        }
    }
    // Freestyle by default: the 15x15 network below 18x18, the 20x20 one from there; a given network on every size.
    use tengen::eval::network::{embedded_network, embedded_wide_network};
    let narrow = embedded_network(Group::Freestyle).expect("freestyle's network");
    let wide = embedded_wide_network(Group::Freestyle).expect("freestyle's 20x20 network");
    for (size, expected) in [(15, narrow), (17, narrow), (18, wide), (20, wide)] {
        let chosen = EvalChoice::Default.network(Rule::Freestyle, size).expect("a network");
        assert!(std::ptr::eq(chosen, expected), "size {size}");
        let given = EvalChoice::Network(Some(tengen::eval::NetworkRef(narrow))).network(Rule::Freestyle, size);
        assert!(given.is_some_and(|n| std::ptr::eq(n, narrow)), "size {size}: the given network");
    }
    // The same position searched with each evaluation: the network changes the scores.
    let moves = ["h8", "h9", "j10", "g8", "i8", "j8", "i9"].map(|m| Pos::parse(m, 15).expect("point"));
    let (black, white): (Vec<Pos>, Vec<Pos>) =
        (moves.iter().step_by(2).copied().collect(), moves.iter().skip(1).step_by(2).copied().collect());
    let pb = PatternBoard::from_stones(15, Rule::Renju, &black, &white).expect("position");
    let limits = SearchLimits { depth: 4, ..SearchLimits::default() };
    let scores: Vec<i32> = [EvalChoice::Classical, EvalChoice::Network(None)]
        .into_iter()
        .map(|eval| {
            let options = SearchOptions { eval, ..SearchOptions::default() };
            let report = search(&pb, Color::White, &Table::new(1 << 20), &limits, &options, |_| {});
            assert!(report.best.is_some());
            report.score
        })
        .collect();
    assert_ne!(scores[0], scores[1], "the network's search scored the position as the classical one did");
}

/// The stones of `moves` (Black first, as points of a 15×15 board) moved so that the 15×15 centre lands on the
/// centre of a `size` board.
fn centred(moves: &[Pos], size: usize, rule: Rule) -> PatternBoard {
    let shift = size / 2 - 7;
    let moved: Vec<Pos> = moves.iter().map(|p| Pos::new(usize::from(p.x) + shift, usize::from(p.y) + shift)).collect();
    let (black, white): (Vec<Pos>, Vec<Pos>) =
        (moved.iter().step_by(2).copied().collect(), moved.iter().skip(1).step_by(2).copied().collect());
    PatternBoard::from_stones(size, rule, &black, &white).expect("position")
}

/// Black's expected score by the embedded network of `pb`'s rule group (its 15×15 one, on every size: what is
/// tested is the shift, not which network a size plays with), the position `pb` with `side` to move.
fn black_chance(pb: &PatternBoard, side: Color) -> f32 {
    let net = tengen::eval::network::embedded_network(Group::of(pb.rule())).expect("an embedded network");
    let acc = Accumulator::new(net, pb.board());
    let logit = acc.logit(side, tengen::eval::network_flags(pb, side));
    let chance = 1.0 / (1.0 + (-logit).exp());
    if side == Color::Black { chance } else { 1.0 - chance }
}

/// The pools do not grow with the board: a centred position evaluates alike on 15×15, 19×19 and 20×20, and
/// exactly alike where every stone is eight points inside every edge of both boards (19×19 and 20×20 with the
/// stones within one point of the centre; never on 15×15, see the next test). Before the pools were shifted, freestyle's network gave White 94% after H8 H9 I10 on 20×20
/// and 5% on 15×15 (now 5% on both); the largest gap left between 15×15 and 20×20 here is 0.14, where windows of
/// stones near the centre reach the 15×15 edge.
#[test]
fn a_centred_position_evaluates_alike_on_every_board_size() {
    let mut rng = StdRng::seed_from_u64(20);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for trial in 0..12 {
            // H8 H9 I10 first, then random middle-game positions near the centre (radius 3, then 1).
            let radius = if trial < 6 { 3 } else { 1 };
            let mut moves = vec![Pos::new(7, 7)];
            if trial == 0 {
                moves.extend([Pos::new(7, 6), Pos::new(8, 5)]);
            }
            let count = 3 + rng.random_range(0..(2 * radius + 1) * (2 * radius + 1) / 2);
            while trial != 0 && moves.len() < count {
                let p = Pos::new(
                    7 - radius + rng.random_range(0..=2 * radius),
                    7 - radius + rng.random_range(0..=2 * radius),
                );
                if !moves.contains(&p) {
                    moves.push(p);
                }
            }
            let side = Color::to_move(moves.len());
            let Ok(boards) = std::panic::catch_unwind(|| [15, 19, 20].map(|s| centred(&moves, s, rule))) else {
                continue; // a five or a forbidden stone among the random ones
            };
            if boards[0].five_points(Color::Black).next().is_some()
                || boards[0].five_points(Color::White).next().is_some()
            {
                continue;
            }
            let [c15, c19, c20] = boards.each_ref().map(|pb| black_chance(pb, side));
            let text: Vec<String> = moves.iter().map(|p| p.notation(15)).collect();
            let at = format!("{rule:?} {}: 15x15 {c15:.3}, 19x19 {c19:.3}, 20x20 {c20:.3}", text.join(" "));
            if radius == 1 {
                // No line of a stone reaches an edge of 19x19 or 20x20: the very same evaluation.
                assert_eq!(c19.to_bits(), c20.to_bits(), "{at}");
            } else {
                assert!((c19 - c20).abs() < 0.1, "{at}");
            }
            // On 15x15 the lines of stones one point from the centre reach the edge: close, not equal.
            if radius == 1 || trial == 0 {
                assert!((c15 - c20).abs() < 0.2, "{at}");
            }
        }
    }
}

/// The positions: freestyle, H8 H9 I10 on 15×15 and K10 K11 L12 on 19×19 and 20×20, White to move, as
/// `analyze --depth 1` reads them. The classical evaluation (the residual network's base) and the tempo flags are
/// the same on all three, and the pools are shifted to the 15×15 background; what differs is the edge. A stone
/// changes the windows centred up to four points from it along its lines, and those windows reach four points
/// further: the evaluation is the open board's only where every stone is at least eight points inside every edge
/// (indices 8 to size − 9). On 20×20 K10 K11 L12 is (indices 8 to 11) and reads exactly as the same shape one point
/// to the lower left; on 19×19 L12's windows reach the top edge (index 11 > 10), and on 15×15 no point is eight
/// inside the edge, so there the edge is part of every position, as the network learned it.
#[test]
fn what_differs_between_board_sizes_is_the_edge_within_reach() {
    let rule = Rule::Freestyle;
    let weights = tengen::eval::default_weights();
    let at = |size: usize, moves: &[&str]| {
        let points: Vec<Pos> = moves.iter().map(|m| Pos::parse(m, size).expect("point")).collect();
        let (black, white): (Vec<Pos>, Vec<Pos>) =
            (points.iter().step_by(2).copied().collect(), points.iter().skip(1).step_by(2).copied().collect());
        let pb = PatternBoard::from_stones(size, rule, &black, &white).expect("position");
        // One network on every size (freestyle's 15x15 one; 20x20 boards play with another by default).
        let net = tengen::eval::network::embedded_network(Group::Freestyle).expect("an embedded network");
        let acc = Accumulator::new(net, pb.board());
        let side = Color::White;
        let classical = tengen::eval::parts(&pb, side, weights).total;
        let flags = tengen::eval::network_flags(&pb, side);
        (classical, flags, tengen::eval::network_evaluate(&acc, &pb, side, weights))
    };
    let c15 = at(15, &["h8", "h9", "i10"]);
    let c19 = at(19, &["k10", "k11", "l12"]);
    let c20 = at(20, &["k10", "k11", "l12"]);
    // The classical evaluation and the tempo flags are not what differs.
    assert_eq!((c15.0, c15.1), (c19.0, c19.1));
    assert_eq!((c15.0, c15.1), (c20.0, c20.1));
    // Every stone eight points inside the edge: the same shape anywhere there reads the same, on either size.
    assert_eq!(c20.2, at(20, &["j10", "j11", "k12"]).2);
    assert_eq!(at(19, &["j10", "j11", "k10"]).2, at(20, &["j10", "j11", "k10"]).2);
    assert_eq!(at(19, &["j9", "j10", "k11"]).2, c20.2, "on 19x19 the shape fits inside by one point lower");
    // A stone whose windows reach an edge: the evaluation moves (15x15 White 5%, 19x19 12%, 20x20 18% today).
    assert_ne!(c19.2, c20.2, "L12 on 19x19 is seven points from the top edge");
    assert_ne!(c15.2, c20.2, "on 15x15 every window around the centre reaches the edge");
    assert!(c15.2 < c19.2 && c19.2 < c20.2, "the nearer the edge, the worse for White here: {c15:?} {c19:?} {c20:?}");
}
