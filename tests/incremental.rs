//! Property tests of the incremental pattern board: random games with random undos, where after every make and
//! every undo the incremental state equals a from-scratch rebuild and the zobrist hash is the one it had before.

mod common;

use common::Rng;
use tengen::board::{Cell, DIRS};
use tengen::pattern::{EMPTY, LineCells, OPP, OWN, Pattern4, PatternBoard, WALL, classify_line};
use tengen::types::{Color, Pos, Rule};

/// A random empty point, usually next to an existing stone so that lines fill up the way games do.
fn random_move(b: &PatternBoard, rng: &mut Rng) -> Option<Pos> {
    let empties: Vec<Pos> = b.board().points().filter(|&p| b.board().is_empty(p)).collect();
    if empties.is_empty() {
        return None;
    }
    if rng.below(4) != 0 {
        let near: Vec<Pos> = empties
            .iter()
            .copied()
            .filter(|p| {
                b.board().moves().iter().any(|(q, _)| {
                    (i32::from(p.x) - i32::from(q.x)).abs() <= 2 && (i32::from(p.y) - i32::from(q.y)).abs() <= 2
                })
            })
            .collect();
        if !near.is_empty() {
            return Some(near[rng.below(near.len())]);
        }
    }
    Some(empties[rng.below(empties.len())])
}

fn assert_consistent(b: &PatternBoard, context: &str) {
    if let Some(diff) = b.difference(&b.rebuilt()) {
        panic!("{context}: incremental state differs from a rebuild: {diff}\n{}", b.board().to_ascii());
    }
}

#[test]
fn random_games_with_undos_match_a_rebuild() {
    let mut rng = Rng::new(0x5eed_1234_abcd_0001);
    let mut checks = 0;
    for game in 0..120 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let size = [15, 15, 20, 7, 22, 15][game % 6];
        let mut b = PatternBoard::new(size, rule).expect("valid size");
        let mut hashes = vec![b.board().hash()];
        let length = 20 + rng.below(181);
        let mut color = Color::Black;
        while b.board().stone_count() < length {
            if b.board().stone_count() > 0 && rng.below(5) == 0 {
                // Undo one to three moves, checking after each.
                for _ in 0..=rng.below(3) {
                    let Some((_, c)) = b.undo() else { break };
                    hashes.pop();
                    color = c;
                    assert_eq!(Some(&b.board().hash()), hashes.last(), "game {game}: hash not restored by undo");
                    assert_consistent(&b, &format!("game {game} after undo"));
                    checks += 1;
                }
                continue;
            }
            let Some(p) = random_move(&b, &mut rng) else {
                break;
            };
            b.make(p, color);
            hashes.push(b.board().hash());
            assert_consistent(&b, &format!("game {game} after {} at {}", color, p.notation(size)));
            checks += 1;
            color = color.opponent();
        }
        // Unwind the whole game: back to an empty board and hash zero.
        while b.undo().is_some() {}
        assert_eq!(b.board().hash(), 0);
        assert_consistent(&b, &format!("game {game} unwound"));
        assert!(b.difference(&PatternBoard::new(size, rule).expect("valid size")).is_none());
    }
    assert!(checks > 5_000, "only {checks} checks");
}

/// The eleven points of direction `d` centred on `p`, read from the stones by coordinates (not from line words).
fn cells_by_coordinates(b: &PatternBoard, p: Pos, d: usize, own: Color) -> LineCells {
    let (dx, dy) = DIRS[d];
    let size = b.size() as i32;
    let mut cells = [EMPTY; 11];
    for (i, slot) in cells.iter_mut().enumerate() {
        let k = i as i32 - 5;
        let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
        *slot = if x < 0 || y < 0 || x >= size || y >= size {
            WALL
        } else {
            match b.board().cell(Pos::new(x as usize, y as usize)) {
                Cell::Empty => EMPTY,
                Cell::Stone(c) if c == own => OWN,
                Cell::Stone(_) => OPP,
            }
        };
    }
    cells[5] = EMPTY;
    cells
}

#[test]
fn table_patterns_match_direct_classification_from_coordinates() {
    let mut rng = Rng::new(0x0dd_ba11_cafe_f00d);
    let mut compared = 0;
    for game in 0..25 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let size = [15, 9, 20][game % 3];
        let mut b = PatternBoard::new(size, rule).expect("valid size");
        let mut color = Color::Black;
        for _ in 0..(size * size / 2) {
            let Some(p) = random_move(&b, &mut rng) else {
                break;
            };
            b.make(p, color);
            color = color.opponent();
        }
        for p in b.board().points().filter(|&p| b.board().is_empty(p)) {
            for d in 0..4 {
                for c in Color::BOTH {
                    let direct = classify_line(&cells_by_coordinates(&b, p, d, c), rule, c);
                    assert_eq!(b.pattern(c, p, d), direct, "{rule} {c} at {} dir {d}", p.notation(size));
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 20_000);
}

#[test]
fn forbidden_checks_leave_the_board_unchanged() {
    let mut rng = Rng::new(0xfeed_beef_0000_0042);
    let mut found = 0;
    for _ in 0..60 {
        let mut b = PatternBoard::new(15, Rule::Renju).expect("valid size");
        let mut color = Color::Black;
        for _ in 0..70 {
            let Some(p) = random_move(&b, &mut rng) else {
                break;
            };
            b.make(p, color);
            color = color.opponent();
        }
        let before = b.board().hash();
        found += b.forbidden_points().len();
        assert_eq!(b.board().hash(), before);
        assert_consistent(&b, "after a forbidden scan");
    }
    assert!(found > 0, "random dense boards should have some forbidden points");
}

#[test]
fn undoing_set_up_stones_matches_a_rebuild() {
    // Stones given at set-up have no undo record; taking them back must still leave a consistent board.
    let mut rng = Rng::new(0xabad_1dea_0000_0007);
    for game in 0..40 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let mut scratch = PatternBoard::new(15, rule).expect("valid size");
        let mut color = Color::Black;
        for _ in 0..(5 + rng.below(30)) {
            let Some(p) = random_move(&scratch, &mut rng) else { break };
            scratch.make(p, color);
            color = color.opponent();
        }
        let stones = |c: Color| -> Vec<Pos> {
            scratch.board().moves().iter().filter(|(_, k)| *k == c).map(|&(p, _)| p).collect()
        };
        let Ok(mut b) = PatternBoard::from_stones(15, rule, &stones(Color::Black), &stones(Color::White)) else {
            continue; // the random stones made a five
        };
        assert_consistent(&b, "after set-up");
        for _ in 0..rng.below(10) {
            let Some(p) = random_move(&b, &mut rng) else { break };
            b.make(p, color);
            color = color.opponent();
        }
        while b.undo().is_some() {
            assert_consistent(&b, &format!("game {game}: undo past set-up"));
            // Moves made after some set-up stones were taken back are undone from the log again.
            if rng.below(3) == 0
                && let Some(p) = random_move(&b, &mut rng)
            {
                let before = b.board().hash();
                b.make(p, color);
                assert_consistent(&b, &format!("game {game}: make below set-up"));
                b.undo();
                assert_eq!(b.board().hash(), before);
                assert_consistent(&b, &format!("game {game}: undo below set-up"));
            }
        }
        assert!(b.difference(&PatternBoard::new(15, rule).expect("valid size")).is_none());
    }
}

/// The class counts and stone neighbourhoods, counted directly from the points.
fn assert_tracking_direct(b: &PatternBoard, context: &str) {
    let size = b.size();
    for c in Color::BOTH {
        let mut counts = [0u32; 16];
        for p in b.board().points().filter(|&p| b.board().is_empty(p)) {
            counts[b.pattern4(c, p) as usize] += 1;
        }
        for (k, &n) in counts.iter().enumerate().skip(1) {
            assert_eq!(u32::from(b.class_counts()[c.index()][k]), n, "{context}: {c} class {k}");
        }
    }
    for p in b.board().points() {
        let near =
            b.board().moves().iter().any(|(q, _)| {
                (i32::from(p.x) - i32::from(q.x)).abs() <= 2 && (i32::from(p.y) - i32::from(q.y)).abs() <= 2
            });
        assert_eq!(b.is_near(p), near, "{context}: neighbourhood of {}", p.notation(size));
    }
}

#[test]
fn class_counts_and_neighbourhoods_follow_moves_undos_and_tracking_switches() {
    let mut rng = Rng::new(0x7ac4_0002);
    for game in 0..40 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let mut b = PatternBoard::new(15, rule).expect("valid size");
        let mut color = Color::Black;
        for step in 0..120 {
            match rng.below(10) {
                0 => b.set_tracking(!b.tracking()),
                1 | 2 if b.board().stone_count() > 0 => {
                    if let Some((_, c)) = b.undo() {
                        color = c;
                    }
                }
                _ => {
                    let Some(p) = random_move(&b, &mut rng) else { break };
                    if b.is_five(color, p) {
                        continue;
                    }
                    b.make(p, color);
                    color = color.opponent();
                }
            }
            assert_consistent(&b, &format!("game {game} step {step}"));
            if b.tracking() {
                assert_tracking_direct(&b, &format!("game {game} step {step}"));
            }
        }
        b.set_tracking(true);
        assert_tracking_direct(&b, &format!("game {game} at the end"));
    }
}

#[test]
fn class_after_a_move_matches_making_it() {
    // `has_class_after`, `five_points_after` and `class_after` must tell, without making the move, exactly what make and a look at the four candidates
    // tell: for every rule, both colours, every class of the four set and the pairs the VCF asks about.
    let mut rng = Rng::new(0x5eed_1234_abcd_0003);
    let masks: Vec<u16> = (0..16u16)
        .map(|class| 1 << class)
        .chain([(1 << Pattern4::Flex4 as u16) | (1 << Pattern4::Forbidden as u16)])
        .collect();
    let (mut checks, mut five_checks) = (0, 0);
    for game in 0..60 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let size = [15, 15, 20, 7, 22, 15][game % 6];
        let mut b = PatternBoard::new(size, rule).expect("valid size");
        let mut color = Color::Black;
        let length = 10 + rng.below(120);
        for _ in 0..length {
            let Some(p) = random_move(&b, &mut rng) else { break };
            if b.is_five(color, p) {
                continue;
            }
            for c in [Color::Black, Color::White] {
                for _ in 0..4 {
                    let Some(q) = random_move(&b, &mut rng) else { break };
                    // The classes of either colour after `c`'s stone.
                    let predicted: Vec<Vec<bool>> = Color::BOTH
                        .iter()
                        .map(|&qc| masks.iter().map(|&m| b.has_class_after(q, c, qc, m)).collect())
                        .collect();
                    let fours = b.fours(c, q) > 0 && !b.is_five(c, q);
                    let fives_after = b.five_points_after(q, c);
                    let fives_before: Vec<Pos> = b.five_points(c).collect();
                    // Every empty point within six steps, for both colours.
                    let around: Vec<(Pos, Color, Pattern4)> = b
                        .board()
                        .points()
                        .filter(|&r| r != q && b.board().is_empty(r))
                        .filter(|r| {
                            (i32::from(r.x) - i32::from(q.x)).abs().max((i32::from(r.y) - i32::from(q.y)).abs()) <= 6
                        })
                        .flat_map(|r| [Color::Black, Color::White].map(|rc| (r, rc, b.class_after(q, c, r, rc))))
                        .collect();
                    b.make(q, c);
                    for &(r, rc, class) in &around {
                        assert_eq!(class, b.pattern4(rc, r), "game {game}, {c} at {q:?}, {rc} at {r:?}");
                        checks += 1;
                    }
                    if fours && fives_before.is_empty() {
                        let fives: Vec<Pos> = b.five_points(c).collect();
                        let mut predicted_fives = fives_after.to_vec();
                        predicted_fives.sort_by_key(|p| p.index());
                        let context = format!("game {game}, {c} at {q:?}\n{}", b.board().to_ascii());
                        if fives.len() <= 2 {
                            assert_eq!(predicted_fives, fives, "{context}");
                        } else {
                            assert!(predicted_fives.len() == 2 && predicted_fives.iter().all(|f| fives.contains(f)));
                        }
                        five_checks += 1;
                    }
                    let found: Vec<Vec<bool>> = Color::BOTH
                        .iter()
                        .map(|&qc| {
                            masks
                                .iter()
                                .map(|&m| b.four_candidates(qc).any(|r| m & (1 << b.pattern4(qc, r) as u16) != 0))
                                .collect()
                        })
                        .collect();
                    b.undo();
                    for (qc, (pred_row, found_row)) in Color::BOTH.iter().zip(predicted.iter().zip(&found)) {
                        for ((&m, &pred), &actual) in masks.iter().zip(pred_row).zip(found_row) {
                            // Classes outside the four set are not promised.
                            if m & !FOUR_SET == 0 {
                                assert_eq!(
                                    pred,
                                    actual,
                                    "game {game}, {c} at {q:?}, classes of {qc}, mask {m:#x}\n{}",
                                    b.board().to_ascii()
                                );
                                checks += 1;
                            }
                        }
                    }
                }
            }
            b.make(p, color);
            color = color.opponent();
        }
    }
    assert!(checks > 10_000 && five_checks > 300, "only {checks} and {five_checks} checks");
}

/// The classes of the four set (see `PatternBoard::four_candidates`), one bit each.
const FOUR_SET: u16 = (1 << Pattern4::Forbidden as u16)
    | (1 << Pattern4::Block4 as u16)
    | (1 << Pattern4::Block4Plus as u16)
    | (1 << Pattern4::Block4Flex3 as u16)
    | (1 << Pattern4::Flex4 as u16)
    | (1 << Pattern4::Five as u16);

/// A set of weights with a distinct value for every code, table and family, so that a sum that missed or
/// doubled a point would show.
fn distinct_weights() -> &'static tengen::eval::Weights {
    let mut w = tengen::eval::Weights::zero();
    for f in 0..tengen::eval::FAMILIES {
        for k in 1..tengen::pattern::CODES {
            w.own[f][k] = (k as i16 % 97) * 3 + f as i16 + 1;
            w.opp[f][k] = -((k as i16 % 89) * 5) - 7 * f as i16 - 2;
        }
    }
    Box::leak(Box::new(w))
}

#[test]
fn code_sums_equal_a_from_scratch_sum_after_every_make_and_undo() {
    let weights = distinct_weights();
    let mut rng = Rng::new(0xc0de_5a11_0000_0011);
    let mut checks = 0;
    for game in 0..60 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let size = [15, 15, 20, 9, 22][game % 5];
        let mut b = PatternBoard::new(size, rule).expect("valid size");
        let values = weights.code_values(rule);
        // Half the games attach the values to a board that already has stones (undone by recomputing).
        let attach_at = if game % 2 == 0 { 0 } else { 6 + rng.below(20) };
        let mut color = Color::Black;
        let length = 20 + rng.below(120);
        while b.board().stone_count() < length {
            if b.board().stone_count() == attach_at && b.code_values().is_none() {
                b.set_code_values(Some(values));
            }
            if b.board().stone_count() > 0 && rng.below(5) == 0 {
                let Some((_, c)) = b.undo() else { break };
                color = c;
            } else {
                let Some(p) = random_move(&b, &mut rng) else { break };
                b.make(p, color);
                color = color.opponent();
            }
            if b.code_values().is_some() {
                let scratch = tengen::eval::code_sums_from_scratch(&b, weights);
                assert_eq!(b.code_sums(), scratch, "game {game} ({rule}) at {} stones", b.board().stone_count());
                checks += 1;
            }
        }
        while b.undo().is_some() {
            if b.code_values().is_some() {
                assert_eq!(b.code_sums(), tengen::eval::code_sums_from_scratch(&b, weights), "game {game} unwinding");
            }
        }
        let mut empty = PatternBoard::new(size, rule).expect("valid size");
        empty.set_code_values(Some(values));
        if b.code_values().is_some() {
            assert_eq!(b.code_sums(), empty.code_sums(), "game {game}: unwound to the empty board's sums");
        }
    }
    assert!(checks > 2_000, "only {checks} checks");
}

#[test]
fn a_points_code_is_the_code_of_its_four_directly_classified_patterns() {
    use tengen::pattern::{code_of, code_of_patterns, code_patterns};
    let mut rng = Rng::new(0x5eed_c0de_0000_0013);
    let mut compared = 0;
    for game in 0..15 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let mut b = PatternBoard::new(15, rule).expect("valid size");
        let mut color = Color::Black;
        for _ in 0..(20 + rng.below(80)) {
            let Some(p) = random_move(&b, &mut rng) else { break };
            b.make(p, color);
            color = color.opponent();
        }
        for p in b.board().points().filter(|&p| b.board().is_empty(p)) {
            for c in Color::BOTH {
                let direct = [0, 1, 2, 3].map(|d| classify_line(&cells_by_coordinates(&b, p, d, c), rule, c));
                let code = code_of(b.packed_patterns(c, p));
                assert_eq!(code, code_of_patterns(direct), "{rule} {c} at {}", p.notation(15));
                let mut sorted = direct;
                sorted.sort();
                assert_eq!(code_patterns(code), sorted);
                compared += 1;
            }
        }
    }
    assert!(compared > 3_000);
}
