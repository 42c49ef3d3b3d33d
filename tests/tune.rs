//! The tuner on synthetic data made from known weights: it recovers them, its held-out losses fall, and bad data
//! files are reported record by record while the rest is used.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::Cursor;
use tengen::eval::{Family, Weights, evaluate, order_value};
use tengen::movegen::{Candidates, candidates};
use tengen::pattern::{CODES, PatternBoard};
use tengen::records::{GameRecord, NO_SCORE, Outcome, write_game, write_header};
use tengen::tune::data::{Dataset, OPP_AT, OWN_AT};
use tengen::tune::{TuneOptions, fit_k, split, tune};
use tengen::types::{Color, Pos, Rule};

/// A random position of freestyle: random moves next to the stones, none making a five.
fn random_position(rng: &mut StdRng) -> (PatternBoard, Color) {
    let mut pb = PatternBoard::new(15, Rule::Freestyle).expect("board");
    pb.make(Pos::new(7, 7), Color::Black);
    let mut side = Color::White;
    let length = rng.random_range(4..50);
    while pb.board().stone_count() < length {
        let near: Vec<Pos> =
            pb.board().points().filter(|&p| pb.board().is_empty(p) && pb.is_near(p) && !pb.is_five(side, p)).collect();
        if near.is_empty() {
            break;
        }
        pb.make(near[rng.random_range(0..near.len())], side);
        side = side.opponent();
    }
    (pb, side)
}

/// Known weights: random values for every code of the freestyle tables, no threat term.
fn known_weights(rng: &mut StdRng) -> &'static Weights {
    let mut w = Weights::zero();
    let f = Family::Freestyle.index();
    for k in 1..CODES {
        w.own[f][k] = rng.random_range(-10..=10);
        w.opp[f][k] = rng.random_range(-10..=10);
        w.attack[f][k] = rng.random_range(-300..=300);
        w.defend[f][k] = rng.random_range(-300..=300);
    }
    Box::leak(Box::new(w))
}

#[test]
fn the_tuner_recovers_known_evaluation_weights() {
    const K: f64 = 60.0;
    let mut rng = StdRng::seed_from_u64(11);
    let truth = known_weights(&mut rng);
    let mut data = Dataset::default();
    for _ in 0..4000 {
        let (mut pb, side) = random_position(&mut rng);
        let e = f64::from(evaluate(&pb, side, truth));
        data.add_position(&mut pb, side, (1.0 / (1.0 + (-e / K).exp())) as f32, NO_SCORE, None);
    }
    let (train, held) = split(data.evals.len(), 0.2, 3);
    // K fitted to the true weights is the K the data were made with.
    let k = fit_k(&data, &train, &tengen::tune::eval_params(truth));
    assert!((k - K).abs() < 3.0, "fitted K {k}, made with {K}");
    let options = TuneOptions { epochs: 200, batch: 256, eval_lr: 1.0, l2: 0.0, k: Some(K), ..TuneOptions::default() };
    let tuned = tune(&data, [&train, &held], [&[], &[]], &Weights::zero(), &options, |_| {});
    assert!(tuned.last.eval[1] < tuned.first.eval[1] * 0.8, "held-out loss {:?} -> {:?}", tuned.first, tuned.last);
    // The codes seen in many positions come back close to their true values.
    let mut seen = vec![0usize; tengen::tune::data::EVAL_PARAMS];
    for &(k, _) in &data.features {
        seen[k as usize] += 1;
    }
    let f = Family::Freestyle.index();
    let mut errors = Vec::new();
    for k in 1..CODES {
        for (at, table) in [(OWN_AT, &truth.own), (OPP_AT, &truth.opp)] {
            let i = at + f * CODES + k;
            if seen[i] >= 400 {
                errors.push((tuned.eval[i] - f64::from(table[f][k])).abs());
            }
        }
    }
    assert!(errors.len() >= 20, "only {} frequent codes", errors.len());
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    let worst = errors.iter().copied().fold(0.0, f64::max);
    eprintln!("recovery: mean {mean:.2}, worst {worst:.2} over {} codes", errors.len());
    assert!(mean < 1.5 && worst < 8.0, "recovery error: mean {mean:.2}, worst {worst:.2} over {} codes", errors.len());
}

#[test]
fn the_tuner_learns_which_moves_are_played() {
    let mut rng = StdRng::seed_from_u64(12);
    let truth = known_weights(&mut rng);
    let mut data = Dataset::default();
    let mut positions = Vec::new();
    while data.moves.len() < 3000 {
        let (mut pb, side) = random_position(&mut rng);
        let Candidates::Moves { moves, forced: false } = candidates(&mut pb, side) else { continue };
        // The move played is the one the true ordering values like best.
        let best = moves.iter().copied().max_by_key(|&m| (order_value(&pb, side, m, truth), m.index()));
        let before = data.moves.len();
        data.add_position(&mut pb, side, 0.5, NO_SCORE, best);
        if data.moves.len() > before {
            positions.push((pb, side, best));
        }
    }
    let (train, held) = split(data.moves.len(), 0.2, 5);
    let evals: Vec<usize> = (0..data.evals.len()).collect();
    let options =
        TuneOptions { epochs: 40, batch: 256, order_lr: 20.0, l2: 0.0, k: Some(100.0), ..TuneOptions::default() };
    let tuned = tune(&data, [&evals, &[]], [&train, &held], &Weights::zero(), &options, |_| {});
    assert!(tuned.last.order[1] < tuned.first.order[1] * 0.5, "held-out {:?} -> {:?}", tuned.first, tuned.last);
    // On held-out positions the learned values mostly pick the move played.
    let learned = Box::leak(Box::new(tengen::tune::weights_from(&tuned.eval, &tuned.order, Vec::new())));
    let mut right = 0;
    for &i in &held {
        let (pb, side, best) = &positions[i];
        let mut pb = pb.clone();
        let Candidates::Moves { moves, .. } = candidates(&mut pb, *side) else { continue };
        let pick = moves.iter().copied().max_by_key(|&m| (order_value(&pb, *side, m, learned), m.index()));
        right += usize::from(pick == *best);
    }
    assert!(right * 10 >= held.len() * 7, "{right} of {} held-out moves picked", held.len());
}

/// The exit code, stdout and stderr of a command.
fn cli(args: &[&str]) -> (u8, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = tengen::cli::run(&args, &mut Cursor::new(Vec::new()), &mut out, &mut err).expect("runs");
    (code, String::from_utf8(out).expect("utf-8"), String::from_utf8(err).expect("utf-8"))
}

#[test]
fn tune_reports_corrupt_and_truncated_records_and_uses_the_rest() {
    let dir = std::env::temp_dir().join(format!("tengen-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let game = |moves: &[&str], outcome| {
        let moves: Vec<Pos> = moves.iter().map(|m| Pos::parse(m, 15).expect("point")).collect();
        let mut scores = vec![NO_SCORE; 3];
        scores.resize(moves.len(), 10);
        GameRecord {
            rule: Rule::Renju,
            size: 15,
            outcome,
            opening: 3,
            moves,
            scores: Some(scores),
            players: None,
            best: None,
            forbidden_end: None,
        }
    };
    let games = [
        game(&["h8", "h9", "j10", "g8", "j8", "j9"], Outcome::BlackWins),
        game(&["h8", "i9", "j10", "g7"], Outcome::WhiteWins),
        game(&["h8", "h7", "j9", "g9", "g8", "k10", "f7"], Outcome::Draw),
        // Black's next move, J8, was forbidden (a double three): left out of training.
        GameRecord {
            forbidden_end: Pos::parse("j8", 15).ok(),
            ..game(&["h8", "a1", "i8", "a3", "h10", "a5", "i9", "a7"], Outcome::WhiteWins)
        },
    ];
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("write");
    let mut starts = Vec::new();
    for g in &games {
        starts.push(bytes.len());
        write_game(&mut bytes, g).expect("write");
    }
    // Record 2's size byte is 99; the file ends inside a fifth record.
    bytes[starts[1] + 2] = 99;
    let mut tail = Vec::new();
    write_game(&mut tail, &games[0]).expect("write");
    bytes.extend_from_slice(&tail[..tail.len() - 5]);
    let path = dir.join("games.tgr");
    std::fs::write(&path, &bytes).expect("write file");
    let out_path = dir.join("w.txt");
    let (code, text, err) =
        cli(&["tune", "--epochs", "1", "--held-out", "0", path.to_str().unwrap(), "--out", out_path.to_str().unwrap()]);
    // The bad records on stderr, each with its file; the rest learned from; the exit code 1 for the two skipped.
    let named = format!("error: {}: record ", path.display());
    assert!(err.lines().any(|l| l.starts_with(&format!("{named}2:")) && l.contains("board size 99")), "{err}");
    assert!(err.lines().any(|l| l.starts_with(&format!("{named}5: truncated"))), "{err}");
    assert!(err.ends_with("error: 2 inputs skipped, each named above\n"), "{err}");
    assert!(!text.contains("error"), "{text}");
    assert_eq!(code, 1);
    assert!(text.contains("data: 2 games and 0 samples"), "{text}");
    assert!(text.contains("epoch   1:"), "{text}");
    let written = Weights::load(out_path.to_str().unwrap()).expect("weights file");
    assert!(written.header.iter().any(|l| l.contains("command: pbrain-tengen tune")));
    assert!(written.header.iter().any(|l| l.contains("eval loss")));
    assert!(
        written.header.iter().any(|l| l.contains("1 more that ended by a forbidden move left out")),
        "{:?}",
        written.header
    );
    let _ = std::fs::remove_dir_all(&dir);
}
