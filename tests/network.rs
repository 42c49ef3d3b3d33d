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
        let net = EvalChoice::Network(None).network(rule).expect("an embedded network");
        assert_eq!(net.group, Group::of(rule));
        assert!(net.residual, "the shipped networks are residual");
        assert!(EvalChoice::Classical.network(rule).is_none());
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
