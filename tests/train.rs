//! The network's trainer: the backward pass against finite differences, the rounded network against the float
//! model, and a known network recovered from the data it generated.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tengen::board::Board;
use tengen::eval::network::features::{row, window_at};
use tengen::eval::network::{Accumulator, F, FLAGS, Group, H1, H2, INPUTS, Network, ROWS};
use tengen::records::NO_SCORE;
use tengen::train::data::{NetData, Position};
use tengen::train::model::{Layout, Model, Trace};
use tengen::train::{TrainOptions, cross_entropy, train};
use tengen::types::{Color, Pos};

/// Random stones on a board of side `size`: `stones` of them, alternating colours from Black.
fn random_moves(rng: &mut StdRng, size: usize, stones: usize) -> Vec<Pos> {
    let mut free: Vec<Pos> = (0..size * size).map(|i| Pos::new(i % size, i / size)).collect();
    (0..stones).map(|_| free.swap_remove(rng.random_range(0..free.len()))).collect()
}

/// `count` random positions of `group` (3 to 29 stones, random flags and classical values) and a random target
/// for each, from `seed`.
fn random_data(group: Group, count: usize, seed: u64) -> (NetData, Vec<f32>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut data = NetData::new(group, 0);
    let mut targets = Vec::new();
    for _ in 0..count {
        let n = rng.random_range(3..30);
        let moves = random_moves(&mut rng, 15, n);
        data.positions.push(Position {
            start: data.moves.len() as u32,
            len: n as u16,
            size: 15,
            flags: rng.random_range(0..2048),
            white: n % 2 == 1,
            result: 0.0,
            score: NO_SCORE,
            classical: rng.random_range(-500..500),
        });
        data.moves.extend(moves);
        targets.push(rng.random_range(0.0..1.0));
    }
    (data, targets)
}

fn board_of(size: usize, moves: &[Pos]) -> Board {
    let mut b = Board::new(size);
    let mut c = Color::Black;
    for &m in moves {
        b.make(m, c);
        c = c.opponent();
    }
    b
}

/// Per view, the pool of `board`: per point the sum of its four rows, clipped, summed over the board; with
/// `empty_only`, over the empty points alone.
fn reference_pools(params: &[f64], group: Group, empty_only: bool, board: &Board) -> [[f64; F]; 2] {
    let mut pools = [[0.0f64; F]; 2];
    for (v, pool) in pools.iter_mut().enumerate() {
        let table = v.min(group.tables() - 1);
        for q in board.points().filter(|&q| !empty_only || board.is_empty(q)) {
            let mut h = [0.0f64; F];
            for d in 0..4 {
                let (word, along) = board.line(d, q);
                let r = (table * ROWS + row(v, window_at(word, along, 0))) * F;
                for i in 0..F {
                    h[i] += params[r + i];
                }
            }
            for i in 0..F {
                pool[i] += h[i].clamp(0.0, 1.0);
            }
        }
    }
    pools
}

/// The model's logit written out again, plainly and in double precision (an independent reading of the
/// network's definition): the board's pools (on another size than 15×15 plus the empty 15×15 board's, less the
/// empty board's of its own size), read over 32 with the flags by two clipped layers and the output.
fn reference_logit(params: &[f64], group: Group, empty_only: bool, board: &Board, side: Color, flags: u32) -> f64 {
    let l = Layout::of(group);
    let mut pools = reference_pools(params, group, empty_only, board);
    if board.size() != 15 {
        let trained = reference_pools(params, group, empty_only, &Board::new(15));
        let own = reference_pools(params, group, empty_only, &Board::new(board.size()));
        for v in 0..2 {
            for i in 0..F {
                pools[v][i] += trained[v][i] - own[v][i];
            }
        }
    }
    let mut x: Vec<f64> = pools[side.index()].iter().chain(&pools[side.opponent().index()]).map(|a| a / 32.0).collect();
    x.extend((0..FLAGS).map(|i| f64::from((flags >> i) & 1)));
    let y1: Vec<f64> = (0..H1)
        .map(|j| {
            (params[l.b1 + j] + (0..INPUTS).map(|i| x[i] * params[l.w1 + i * H1 + j]).sum::<f64>()).clamp(0.0, 1.0)
        })
        .collect();
    let y2: Vec<f64> = (0..H2)
        .map(|k| (params[l.b2 + k] + (0..H1).map(|j| y1[j] * params[l.w2 + j * H2 + k]).sum::<f64>()).clamp(0.0, 1.0))
        .collect();
    params[l.b3] + (0..H2).map(|k| y2[k] * params[l.w3 + k]).sum::<f64>()
}

#[test]
fn the_backward_pass_agrees_with_finite_differences() {
    let mut rng = StdRng::seed_from_u64(3);
    let cases = [
        (Group::Renju, 1, false, 15),
        (Group::Freestyle, 2, false, 15),
        (Group::Standard, 3, false, 15),
        (Group::Renju, 4, true, 15),
        (Group::Freestyle, 5, false, 20),
        (Group::Freestyle, 6, true, 20),
        (Group::Standard, 7, true, 12),
    ];
    for (group, seed, empty_only, size) in cases {
        let mut model = Model::random(group, seed);
        model.empty_only = empty_only;
        // Larger head weights than the start, so that every part of the gradient is well away from zero.
        let l = model.layout();
        for v in &mut model.params[l.w1..] {
            *v *= 3.0;
        }
        for _ in 0..3 {
            let n = rng.random_range(6..40);
            let moves = random_moves(&mut rng, size, n);
            let board = board_of(size, &moves);
            let side = Color::to_move(moves.len());
            let flags = rng.random_range(0..2048u32);
            let target = rng.random_range(0.0..1.0);
            let mut trace = Trace::default();
            let logit = model.forward(&board, side, flags, &mut trace);
            let (_, dlogit) = cross_entropy(f64::from(logit), target);
            let mut grad = vec![0.0f32; l.len];
            model.backward(&trace, side, dlogit as f32, &mut grad, |_| {});
            // The reference agrees with the model's forward pass.
            let params: Vec<f64> = model.params.iter().map(|&p| f64::from(p)).collect();
            let reference = reference_logit(&params, group, empty_only, &board, side, flags);
            assert!((reference - f64::from(logit)).abs() < 1e-4, "{group:?} {size}x{size}: {reference} vs {logit}");
            // Each part of the parameters along a random direction: the analytic derivative against the central
            // difference of the reference (in double precision, with a step too small to cross a clip).
            let parts =
                [(0, l.w1), (l.w1, l.b1), (l.b1, l.w2), (l.w2, l.b2), (l.b2, l.w3), (l.w3, l.b3), (l.b3, l.len)];
            for (from, to) in parts {
                let dir: Vec<f32> = (from..to)
                    .map(|i| {
                        if grad[i] == 0.0 {
                            0.0
                        } else if rng.random_range(0..2) == 0 {
                            1.0
                        } else {
                            -1.0
                        }
                    })
                    .collect();
                let analytic: f64 = dir.iter().zip(&grad[from..to]).map(|(d, g)| f64::from(*d) * f64::from(*g)).sum();
                let eps = 1e-7;
                let shifted = |sign: f64| {
                    let mut p = params.clone();
                    for (p, d) in p[from..to].iter_mut().zip(&dir) {
                        *p += sign * eps * f64::from(*d);
                    }
                    cross_entropy(reference_logit(&p, group, empty_only, &board, side, flags), target).0
                };
                let numeric = (shifted(1.0) - shifted(-1.0)) / (2.0 * eps);
                let tolerance = 1e-5 + 1e-3 * analytic.abs();
                assert!(
                    (numeric - analytic).abs() <= tolerance,
                    "{group:?} {size}x{size} parameters {from}..{to}: analytic {analytic:.6}, numeric {numeric:.6}"
                );
            }
        }
    }
}

#[test]
fn the_rounded_network_agrees_with_the_float_model() {
    let mut rng = StdRng::seed_from_u64(4);
    for (group, empty_only) in Group::ALL.into_iter().map(|g| (g, false)).chain([(Group::Freestyle, true)]) {
        let mut model = Model::random(group, 9);
        model.empty_only = empty_only;
        let net: &'static Network = Box::leak(Box::new(model.quantise(400.0, vec!["test".into()])));
        let mut trace = Trace::default();
        // On 15x15, and on the sizes whose pools the engine shifts to it (the model shifts them the same way).
        for size in [15, 15, 20, 19, 12] {
            for _ in 0..25 {
                let n = rng.random_range(0..60);
                let moves = random_moves(&mut rng, size, n);
                let board = board_of(size, &moves);
                let side = Color::to_move(moves.len());
                let flags = rng.random_range(0..2048u32);
                let float = model.forward(&board, side, flags, &mut trace);
                let fixed = Accumulator::new(net, &board).logit(side, flags);
                // Tables rounded to 1/256: a few hundredths of a logit at most (a few evaluation units).
                assert!(
                    (float - fixed).abs() < 0.05,
                    "{group:?} (empty only {empty_only}) {size}x{size}: float {float}, rounded {fixed}"
                );
            }
        }
    }
}

#[test]
fn training_recovers_a_known_network_from_its_data() {
    let mut rng = StdRng::seed_from_u64(8);
    let size = 9;
    let mut teacher = Model::random(Group::Freestyle, 100);
    let l = teacher.layout();
    for v in &mut teacher.params[l.w1..] {
        *v *= 4.0;
    }
    let mut data = NetData::new(Group::Freestyle, 0);
    let mut targets = Vec::new();
    let mut trace = Trace::default();
    for _ in 0..3000 {
        let n = rng.random_range(2..12);
        let moves = random_moves(&mut rng, size, n);
        let white = n % 2 == 1;
        let side = if white { Color::White } else { Color::Black };
        let board = board_of(size, &moves);
        let t = 1.0 / (1.0 + (-f64::from(teacher.forward(&board, side, 0, &mut trace))).exp());
        targets.push(t as f32);
        data.positions.push(Position {
            start: data.moves.len() as u32,
            len: n as u16,
            size: size as u8,
            flags: 0,
            white,
            result: t as f32,
            score: NO_SCORE,
            classical: 0,
        });
        data.moves.extend(moves);
    }
    let all: Vec<usize> = (0..targets.len()).collect();
    let (train_part, held) = all.split_at(2700);
    // The noise floor: the teacher's own loss (the entropy of its soft targets).
    let floor: f64 = held
        .iter()
        .map(|&i| {
            let t = f64::from(targets[i]);
            -(t * t.ln() + (1.0 - t) * (1.0 - t).ln())
        })
        .sum::<f64>()
        / held.len() as f64;
    let mut student = Model::random(Group::Freestyle, 200);
    let options = TrainOptions { epochs: 25, batch: 64, lr: 3e-3, seed: 5, freeze_tables: false };
    let mut first = None;
    let mut last = 0.0;
    let bases = vec![0.0; targets.len()];
    train(&mut student, &data, &targets, &bases, [train_part, held], &options, |e| {
        first.get_or_insert(e.loss[1]);
        last = e.loss[1];
    });
    let first = first.expect("the start was reported");
    assert!(last - floor < 0.15 * (first - floor), "held-out loss {first:.4} -> {last:.4}, noise floor {floor:.4}");
}

#[test]
fn a_damaged_network_file_gets_an_error_line_not_a_panic() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_pbrain-tengen");
    let dir = std::env::temp_dir().join(format!("tengen-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/data/network/renju.tgnn");
    let mut bytes = std::fs::read(good).expect("the shipped network");
    bytes.truncate(bytes.len() / 2);
    let cut = dir.join("cut.tgnn");
    std::fs::write(&cut, &bytes).expect("write");
    let cut = cut.to_str().expect("path");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/gen0-renju.tgr");
    for args in [
        vec!["analyze", "--network", cut, "h8"],
        vec!["train", "--init", cut, "--epochs", "0", games],
        vec!["train", "--rule", "freestyle", "--init", good, "--epochs", "0", games],
        vec!["selfplay", "--a-network", cut],
    ] {
        let out = Command::new(bin).args(&args).output().expect("runs");
        // The error on stderr, none on stdout, and an exit code that says nothing was done.
        let (said, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}{err}");
        assert!(err.contains("error:") && !said.contains("error"), "{args:?}: {said}{err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn training_gives_the_same_network_whatever_the_thread_count() {
    let (data, targets) = random_data(Group::Renju, 400, 21);
    let bases = data.bases(300.0, true);
    let all: Vec<usize> = (0..400).collect();
    let (train_part, held) = all.split_at(350);
    // Batches of several chunks, the last one short, so that chunks land on different threads.
    let options = TrainOptions { epochs: 2, batch: 150, lr: 2e-3, seed: 3, freeze_tables: false };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(|| {
            let mut model = Model::random(Group::Renju, 4);
            let mut losses = Vec::new();
            train(&mut model, &data, &targets, &bases, [train_part, held], &options, |e| losses.push(e.loss));
            (model.params.iter().map(|p| p.to_bits()).collect::<Vec<u32>>(), losses)
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    assert_ne!(one.0, Model::random(Group::Renju, 4).params.iter().map(|p| p.to_bits()).collect::<Vec<u32>>());
}

#[test]
fn the_head_alone_learns_on_rounded_tables_and_then_matches_the_network_exactly() {
    let (data, targets) = random_data(Group::Freestyle, 300, 33);
    let bases = data.bases(300.0, false);
    let all: Vec<usize> = (0..300).collect();
    let (train_part, held) = all.split_at(250);
    // A float model's tables, rounded: the model that the head then learns on.
    let rounded = Model::random(Group::Freestyle, 8).quantise(1.0, Vec::new());
    let mut model = Model::from_network(&rounded);
    let before = model.params.clone();
    let options = TrainOptions { epochs: 2, batch: 50, lr: 5e-3, seed: 2, freeze_tables: true };
    let mut losses = Vec::new();
    train(&mut model, &data, &targets, &bases, [train_part, held], &options, |e| losses.push(e.loss[0]));
    let tables = model.layout().w1;
    assert_eq!(model.params[..tables], before[..tables], "a table value moved");
    assert_ne!(model.params[tables..], before[tables..], "the head did not learn");
    assert!(losses[2] < losses[0], "training loss {losses:?}");
    // Its tables are the network's to the bit, so the written network gives the model's own logits.
    let net: &'static Network = Box::leak(Box::new(model.quantise(300.0, vec!["test".into()])));
    let mut trace = Trace::default();
    for &i in held {
        let pos = data.positions[i];
        let board = data.board(i);
        let float = model.forward(&board, pos.side(), pos.flags, &mut trace);
        let fixed = Accumulator::new(net, &board).logit(pos.side(), pos.flags);
        assert!((float - fixed).abs() < 1e-4, "float {float}, network {fixed}");
    }
}

/// A temporary folder of its own (`tengen-NAME-PID`) holding `games.tgr`, the first `count` games of the shipped
/// `gen0-renju.tgr`: the folder and the file's path.
fn first_shipped_games(name: &str, count: usize) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("tengen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let all = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/gen0-renju.tgr")).expect("games");
    let ranges = tengen::records::game_ranges(&all).expect("a game file");
    let games = dir.join("games.tgr");
    std::fs::write(&games, &all[..ranges[count - 1].2.end]).expect("write");
    let path = games.to_str().expect("path").to_string();
    (dir, path)
}

#[test]
fn the_units_option_sets_the_evaluation_units_of_a_logit() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_pbrain-tengen");
    // The first 200 games of a shipped file are enough for a network to be written.
    let (dir, games) = first_shipped_games("units", 200);
    let games = games.as_str();
    let mut scales = Vec::new();
    for units in ["1", "0.5"] {
        let path = dir.join(format!("units-{units}.tgnn"));
        let path = path.to_str().expect("path");
        let args =
            ["train", games, "--epochs", "0", "--head-epochs", "0", "--k", "300", "--units", units, "--out", path];
        let out = Command::new(bin).args(args).output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let net = Network::load(path).expect("the written network");
        assert_eq!(
            net.header.iter().any(|l| l.contains("written at 0.5 K a logit")),
            units == "0.5",
            "{:?}",
            net.header
        );
        // A residual network adds its units to the classical evaluation's.
        assert_eq!(net.evaluation(2.0, 7, 20_000), (2.0 * net.scale).round() as i32 + 7);
        scales.push(net.scale);
    }
    assert_eq!(scales, [300.0, 150.0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Forty shipped self-play games, each move taken as the chosen one: the pairs compare its child with those of the
/// ordering's two highest other moves (with `fours`, single fours taken after their block too).
fn forty_games_pairs(fours: bool) -> tengen::train::choice::Choices {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/gen0-renju.tgr");
    let mut sink = std::io::sink();
    let games = tengen::records::read_games(&[path], &mut tengen::problems::Problems::new(&mut sink)).expect("games");
    let mut choices = tengen::train::choice::Choices::new(Group::Renju, 2);
    choices.fours = fours;
    for (i, game) in games.iter().take(40).enumerate() {
        let mut game = game.clone();
        game.best = Some(game.moves.iter().map(|&m| Some(m)).collect());
        choices.add_game(&game, i as u32, tengen::eval::default_weights());
    }
    choices
}

#[test]
fn choice_pairs_teach_the_network_to_prefer_the_chosen_moves_the_same_on_any_thread_count() {
    use tengen::train::{Pairs, train_with};
    let choices = forty_games_pairs(false);
    assert!(choices.len() > 200, "{} pairs", choices.len());
    let held: Vec<bool> = (0..40).map(|g| g % 5 == 0).collect();
    let [train_pairs, held_pairs] = choices.split_by_game(&held);
    assert!(!held_pairs.is_empty() && train_pairs.len() > held_pairs.len());
    let bases = choices.children.bases(300.0, true);
    let pairs =
        Pairs { choices: &choices, bases: &bases, split: [&train_pairs[..], &held_pairs[..]], weight: 1.0, repeat: 3 };
    // No positions: the pairs alone.
    let data = NetData::new(Group::Renju, 0);
    let options = TrainOptions { epochs: 3, batch: 128, lr: 5e-3, seed: 5, freeze_tables: false };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(|| {
            let mut model = Model::random(Group::Renju, 6);
            let mut epochs = Vec::new();
            train_with(&mut model, &data, &[], &[], [&[], &[]], Some(&pairs), &options, |e| epochs.push(*e));
            (model.params.iter().map(|p| p.to_bits()).collect::<Vec<u32>>(), epochs)
        })
    };
    let (params, epochs) = run(1);
    assert_eq!((params.clone(), epochs.clone()), run(2), "the thread count changed the fit");
    let [first, last] = [epochs[0], epochs[3]].map(|e| e.choice.expect("pair figures"));
    // The training pairs' loss falls and the chosen children are preferred more often than at the start.
    assert!(last[0].0 < first[0].0 - 0.01, "{first:?} -> {last:?}");
    assert!(last[0].1 > first[0].1 + 0.03, "{first:?} -> {last:?}");
}

#[test]
fn pairs_with_a_fours_child_are_learnt_from_the_movers_side() {
    use tengen::train::{Pairs, train_with};
    // The same games with `fours`: the pairs with a four's child (the mover to move again, valued by its logit)
    // alone. Were the sign of such a child wrong in the gradient, their loss would rise as they were learnt.
    let choices = forty_games_pairs(true);
    let with_four: Vec<usize> = (0..choices.len()).filter(|&j| choices.has_four(j)).collect();
    assert!(with_four.len() > 20, "{} pairs with a four's child", with_four.len());
    assert!(with_four.len() < choices.len(), "quiet pairs too");
    let bases = choices.children.bases(300.0, true);
    let pairs = Pairs { choices: &choices, bases: &bases, split: [&with_four[..], &[]], weight: 1.0, repeat: 5 };
    let data = NetData::new(Group::Renju, 0);
    let options = TrainOptions { epochs: 3, batch: 32, lr: 5e-3, seed: 5, freeze_tables: false };
    let mut model = Model::random(Group::Renju, 6);
    let mut epochs = Vec::new();
    train_with(&mut model, &data, &[], &[], [&[], &[]], Some(&pairs), &options, |e| epochs.push(*e));
    let [first, last] = [epochs[0], epochs[3]].map(|e| e.choice.expect("pair figures")[0]);
    assert!(last.0 < first.0 - 0.01, "{first:?} -> {last:?}");
    assert!(last.1 > first.1, "{first:?} -> {last:?}");
}

#[test]
fn the_trainer_learns_from_gomocups_20x20_freestyle_games() {
    // A real freestyle game of Gomocup 2021 on 20x20 (a learning game: opening 0).
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomocup/freestyle-2021");
    let mut out = Vec::new();
    let set = tengen::records::read_training_set(&[folder], &mut tengen::problems::Problems::new(&mut out));
    assert_eq!(set.games.len(), 1, "{}", String::from_utf8_lossy(&out));
    let game = &set.games[0];
    assert_eq!(game.size, 20);
    let mut data = NetData::new(Group::Freestyle, 0);
    let added = data.add_game(game);
    // Every position until the five is on the board (the opening's stones included), none skipped for its size.
    assert!(added > 40 && added < game.moves.len(), "{added} of {} moves", game.moves.len());
    assert_eq!(data.other_group, 0);
    assert!(data.positions.iter().all(|p| p.size == 20));
    assert_eq!(data.board(added - 1).size(), 20);
    // The model reads those positions as the engine does (a rounded network of its tables against the float model),
    // and a training step on them moves their loss.
    let model = Model::random(Group::Freestyle, 11);
    let net: &'static Network = Box::leak(Box::new(model.quantise(400.0, vec!["test".into()])));
    let mut trace = Trace::default();
    for (i, p) in data.positions.iter().enumerate() {
        let board = data.board(i);
        let float = model.forward(&board, p.side(), p.flags, &mut trace);
        let fixed = Accumulator::new(net, &board).logit(p.side(), p.flags);
        assert!((float - fixed).abs() < 0.05, "position {i}: float {float}, rounded {fixed}");
    }
    let targets: Vec<f32> = data.positions.iter().map(|p| p.result).collect();
    let all: Vec<usize> = (0..targets.len()).collect();
    let mut student = model.clone();
    let options = TrainOptions { epochs: 3, batch: 16, lr: 5e-3, seed: 5, freeze_tables: false };
    let mut losses = Vec::new();
    train(&mut student, &data, &targets, &vec![0.0; targets.len()], [&all[..], &all[..]], &options, |e| {
        losses.push(e.loss[0]);
    });
    assert!(losses.last() < losses.first(), "{losses:?}");
    assert_ne!(student.params, model.params);
    // Another group's trainer skips it.
    let mut renju = NetData::new(Group::Renju, 0);
    assert_eq!(renju.add_game(game), 0);
    assert_eq!(renju.other_group, 1);
}

#[test]
fn a_network_continued_keeps_its_scale_and_the_rows_its_data_never_reach() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_pbrain-tengen");
    // Fifty games of a shipped file reach a small part of the shipped network's rows.
    let (dir, games) = first_shipped_games("init", 50);
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/network/renju.tgnn");
    let path = dir.join("continued.tgnn");
    let args = [
        "train",
        &games,
        "--init",
        shipped,
        "--epochs",
        "1",
        "--head-epochs",
        "0",
        "--empty-only",
        "--units",
        "0.6",
        "--out",
        path.to_str().expect("path"),
    ];
    let out = Command::new(bin).args(args).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let before = Network::load(shipped).expect("the shipped network");
    let after = Network::load(path.to_str().expect("path")).expect("the written network");
    // K is the network's own (its scale over the units), not one fitted to fifty games.
    assert!((after.scale - before.scale).abs() < 1e-3, "scale {} against {}", after.scale, before.scale);
    let (mut kept, mut moved, mut wiped) = (0, 0, 0);
    for (t, table) in before.tables.iter().enumerate() {
        for (r, row) in table.iter().enumerate() {
            let new = &after.tables[t][r];
            if row.iter().all(|&v| v == 0) {
                continue;
            }
            if new == row {
                kept += 1;
            } else if new.iter().all(|&v| v == 0) {
                wiped += 1;
            } else {
                moved += 1;
            }
        }
    }
    assert_eq!(wiped, 0, "rows the network had learned were zeroed ({kept} kept, {moved} moved)");
    assert!(kept > moved && moved > 0, "{kept} rows kept, {moved} moved");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_freestyle_network_starts_standards_training_and_renjus_does_not() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_pbrain-tengen");
    let dir = std::env::temp_dir().join(format!("tengen-regroup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let root = env!("CARGO_MANIFEST_DIR");
    let freestyle = format!("{root}/data/network/freestyle.tgnn");
    let games = format!("{root}/data/games/gen0-standard.tgr");
    let out_path = dir.join("standard.tgnn");
    let out_name = out_path.to_str().expect("path");
    // No epochs: the network written is the freestyle one read under standard's group (its tables and head).
    let args = ["train", "--rule", "standard", "--init", &freestyle, "--epochs", "0", "--head-epochs", "0"];
    let run = Command::new(bin).args(args).args(["--out", out_name, &games]).output().expect("runs");
    let text = String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success() && !text.contains("error:"), "{text}");
    let from = Network::load(&freestyle).expect("the shipped network");
    let made = Network::load(out_name).expect("the written network");
    assert_eq!((from.group, made.group), (Group::Freestyle, Group::Standard));
    assert!(made.tables == from.tables && made.w1 == from.w1 && made.w3 == from.w3 && made.b3 == from.b3);
    // Renju's network has a table per colour and no one-table twin.
    let renju = format!("{root}/data/network/renju.tgnn");
    let args = ["train", "--rule", "standard", "--init", &renju, "--epochs", "0"];
    let run = Command::new(bin).args(args).args(["--out", out_name, &games]).output().expect("runs");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("error:") && err.contains("renju network"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
