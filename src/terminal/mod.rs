//! For a person at a terminal: a game against the engine ([`mod@play`], with the opening negotiated first when a rule is
//! asked, `opening.rs`), one position analysed as a person reads it ([`analysis`]), and the board they both draw.
//! The command line (`pbrain-tengen play`, `analyze`) reads the options and hands its input and output here.

pub mod analysis;
mod opening;
pub mod play;

pub use analysis::{analyze, report_text};
pub use play::{PlayOptions, play};

use crate::board::Cell;
use crate::pattern::PatternBoard;
use crate::types::{Color, Pos};

/// The board with the column letters and row numbers, `X` Black, `O` White, `#` a forbidden point, the last move
/// in brackets.
pub fn board_text(pb: &PatternBoard, forbidden: &[Pos]) -> String {
    let size = pb.size();
    let letters: String = (0..size).map(|x| format!(" {}", (b'A' + x as u8) as char)).collect();
    let last = pb.board().moves().last().map(|&(p, _)| p);
    let mut text = format!("   {letters}\n");
    for y in 0..size {
        let row = size - y;
        text.push_str(&format!("{row:>2} "));
        for x in 0..size {
            let p = Pos::new(x, y);
            let mark = match pb.board().cell(p) {
                Cell::Stone(Color::Black) => 'X',
                Cell::Stone(Color::White) => 'O',
                _ if forbidden.contains(&p) => '#',
                _ => '.',
            };
            let before_was_last = x > 0 && last == Some(Pos::new(x - 1, y));
            text.push(if last == Some(p) {
                '['
            } else if before_was_last {
                ']'
            } else {
                ' '
            });
            text.push(mark);
        }
        let ends_with_last = last == Some(Pos::new(size - 1, y));
        text.push(if ends_with_last { ']' } else { ' ' });
        text.push_str(&format!("{row}\n"));
    }
    text.push_str(&format!("   {letters}"));
    text
}
