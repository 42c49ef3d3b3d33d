//! Random balanced openings ([`tengen::openings::random_openings`]) scored by the engine's search
//! ([`tengen::engine::opening_scorer`]), as the `openings` command, `match --random-openings` and self-play make them,
//! and the openings games started from left out (`--unseen-in`).

use std::path::PathBuf;
use tengen::engine::opening_scorer;
use tengen::openings::{
    GenOptions, check_opening, opening_key, random_openings, same_opening, seen_openings, unseen_random_openings,
};
use tengen::problems::Problems;
use tengen::types::{Pos, Rule};

#[test]
fn generated_openings_are_legal_distinct_and_balanced() {
    let opts = GenOptions { count: 3, depth: 2, max_score: 400, ..GenOptions::default() };
    let found = random_openings(&opts, &mut opening_scorer(&opts));
    assert_eq!(found.len(), 3);
    for (i, (m, score)) in found.iter().enumerate() {
        assert_eq!(m.len(), 3);
        assert!(check_opening(m, 15, Rule::Renju).is_ok());
        assert!(score.abs() <= 400);
        for (other, _) in &found[i + 1..] {
            assert!(!same_opening(m, other));
        }
    }
    assert_eq!(found, random_openings(&opts, &mut opening_scorer(&opts)), "the seed fixes the openings");
}

#[test]
fn openings_that_games_started_from_are_left_out_and_the_rest_keep_their_order() {
    use tengen::records::{GameRecord, Outcome, write_game, write_header};
    let opts = GenOptions { count: 5, depth: 2, max_score: 400, seed: 7, ..GenOptions::default() };
    let all: Vec<Vec<Pos>> = random_openings(&opts, &mut opening_scorer(&opts)).into_iter().map(|(m, _)| m).collect();
    assert_eq!(all.len(), 5);
    // A game that started from the second opening, mirrored and with Black's stones in another order, and a
    // freestyle game from the third, which a renju generator does not count.
    let mut mirrored: Vec<Pos> = all[1].iter().map(|p| p.transform(15, 5)).collect();
    mirrored.swap(0, 2);
    mirrored.extend([Pos::new(0, 0), Pos::new(14, 14)]);
    let game = |rule, moves: &Vec<Pos>| GameRecord {
        rule,
        size: 15,
        outcome: Outcome::Draw,
        opening: 3,
        moves: moves.clone(),
        scores: None,
        players: None,
        best: None,
        forbidden_end: None,
    };
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("header");
    write_game(&mut bytes, &game(Rule::Renju, &mirrored)).expect("game");
    write_game(&mut bytes, &game(Rule::Freestyle, &all[2])).expect("game");
    // A third record cut short: skipped, and named with its file.
    let mut torn = Vec::new();
    write_game(&mut torn, &game(Rule::Renju, &all[3])).expect("game");
    bytes.extend_from_slice(&torn[..torn.len() - 3]);
    let path = std::env::temp_dir().join(format!("tengen-unseen-{}.tgr", std::process::id()));
    std::fs::write(&path, &bytes).expect("write");

    let mut said = Vec::new();
    let mut problems = Problems::new(&mut said);
    let seen = seen_openings(std::slice::from_ref(&path), Rule::Renju, 15, 3, &mut problems).expect("read");
    assert_eq!(problems.skipped(), 1);
    let said = String::from_utf8(said).expect("utf-8");
    assert!(said.starts_with(&format!("error: {}: record 3: truncated", path.display())), "{said}");
    let mut sink = std::io::sink();
    let mut problems = Problems::new(&mut sink);
    assert_eq!(seen.len(), 1);
    assert!(seen.contains(&opening_key(&all[1], 15)));
    let four = GenOptions { count: 4, ..opts };
    let (kept, refused) =
        unseen_random_openings(&four, std::slice::from_ref(&path), &mut opening_scorer(&four), &mut problems)
            .expect("made");
    let kept: Vec<Vec<Pos>> = kept.into_iter().map(|(m, _)| m).collect();
    assert_eq!(kept, [&all[0], &all[2], &all[3], &all[4]].map(Clone::clone).to_vec());
    assert_eq!(refused, 1, "one opening was seen");
    // Without a file nothing is left out; a file with no game of the rule is an error.
    assert_eq!(unseen_random_openings(&opts, &[], &mut opening_scorer(&opts), &mut problems).expect("made").1, 0);
    let standard = seen_openings(std::slice::from_ref(&path), Rule::Standard, 15, 3, &mut problems);
    assert!(standard.unwrap_err().contains("standard"));
    assert!(seen_openings(&[PathBuf::from("/no/such.tgr")], Rule::Renju, 15, 3, &mut problems).is_err());
    let _ = std::fs::remove_file(&path);
}
