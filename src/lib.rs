//! Tengen: a renju and gomoku engine.
//!
//! Layers, lowest first: [`types`], [`board`] (stones, line keys, hash), [`pattern`] (line patterns, threat
//! classes, the renju forbidden check), [`movegen`], [`threat`] (VCF and VCT solvers) and [`eval`], [`search`]
//! (iterative deepening PVS, transposition table, time budgets), the [`engine`] facade, and the command-line front
//! end in [`cli`], which reads options, calls the rooms below it and prints. Beside them: [`openings`], the match
//! runner [`mod@matches`] (directory `match/`), which plays engine processes against each other and judges them by the
//! rules, never by the search, [`selfplay`] (games of the engine in one process), the tuners and trainers
//! ([`tune`], [`train`]) with their game files ([`records`]), and [`terminal`] (a person at a terminal).
//! Under every command, [`problems`]: its errors and warnings on stderr, apart from its data, and its exit status.

#![deny(missing_docs)]

pub mod agree;
pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod gametree;
#[path = "match/mod.rs"]
pub mod matches;
pub mod movegen;
pub mod opening_rule;
pub mod opening_text;
pub mod openings;
pub mod pattern;
pub mod problems;
pub mod protocol;
pub mod records;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod terminal;
pub mod threat;
pub mod train;
pub mod tune;
pub mod types;
