//! Games in and out of the browser board: SGF (FF[4] GM[4], as the match runner writes it: `SZ`, `RU` with the
//! rule's name, then `;B[hh]` / `;W[hi]` nodes with points from the top-left corner) and plain move lists
//! (`h8 h9 i10`).

use crate::types::{Pos, Rule};

/// SGF text of a game.
#[must_use]
pub fn write(size: usize, rule: Rule, moves: &[Pos]) -> String {
    let mut s = format!("(;FF[4]GM[4]CA[UTF-8]AP[tengen serve]SZ[{size}]RU[{}]", rule.name());
    for (i, p) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!("\n;{colour}[{}]", crate::matches::sgf::point(*p)));
    }
    s.push_str(")\n");
    s
}

/// A game read from SGF: its size (`SZ`, 15 without), rule (`RU` when it names one, else `default`) and moves in
/// order. Properties other than SZ, RU, B and W are passed over; a `B`/`W` node out of turn is refused.
///
/// # Errors
/// What is wrong with the text.
pub fn read(text: &str, default: Rule) -> Result<(usize, Rule, Vec<Pos>), String> {
    let text = text.trim();
    if !text.starts_with('(') {
        return Err("SGF must start with '('".to_string());
    }
    let mut size = 15;
    let mut rule = default;
    let mut moves: Vec<(char, u8, u8)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut ident = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            'A'..='Z' => ident.push(c),
            '[' => {
                let mut value = String::new();
                let mut closed = false;
                while let Some((_, v)) = chars.next() {
                    match v {
                        '\\' => {
                            if let Some((_, e)) = chars.next() {
                                value.push(e);
                            }
                        }
                        ']' => {
                            closed = true;
                            break;
                        }
                        _ => value.push(v),
                    }
                }
                if !closed {
                    return Err("an SGF value is not closed with ']'".to_string());
                }
                match ident.as_str() {
                    "SZ" => {
                        size = value.trim().parse().map_err(|_| format!("bad board size SZ[{value}]"))?;
                    }
                    "RU" => {
                        if let Ok(r) = value.parse::<Rule>() {
                            rule = r;
                        }
                    }
                    "B" | "W" => {
                        let b = value.trim().as_bytes();
                        if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
                            return Err(format!("bad point {ident}[{value}]"));
                        }
                        moves.push((if ident == "B" { 'B' } else { 'W' }, b[0] - b'a', b[1] - b'a'));
                    }
                    _ => {}
                }
                // A property may have several values: the identifier stays until the next letters.
                if chars.peek().is_some_and(|&(_, n)| n != '[') {
                    ident.clear();
                }
            }
            _ => ident.clear(),
        }
    }
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
        return Err(format!("board size {size} is not supported"));
    }
    let mut out = Vec::new();
    for (i, &(colour, x, y)) in moves.iter().enumerate() {
        let expected = if i % 2 == 0 { 'B' } else { 'W' };
        if colour != expected {
            return Err(format!("move {} is {colour}'s, but it is {expected}'s turn", i + 1));
        }
        if usize::from(x) >= size || usize::from(y) >= size {
            return Err(format!("move {} is off the {size}x{size} board", i + 1));
        }
        out.push(Pos::new(usize::from(x), usize::from(y)));
    }
    Ok((size, rule, out))
}

/// A plain move list (`h8 h9 i10`, commas or spaces) on a board of `size`.
///
/// # Errors
/// The first word that is not a point.
pub fn read_moves(text: &str, size: usize) -> Result<Vec<Pos>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| Pos::parse(w, size).map_err(|e| format!("'{w}': {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_goes_out_and_back_in_and_bad_text_says_why() {
        let moves = read_moves("h8 h9, i10", 15).expect("moves");
        assert_eq!(moves.len(), 3);
        let text = write(15, Rule::Renju, &moves);
        assert_eq!(read(&text, Rule::Freestyle), Ok((15, Rule::Renju, moves.clone())));
        assert!(read("(;SZ[15];B[hh];B[hi])", Rule::Renju).is_err_and(|e| e.contains("turn")));
        assert!(read("(;SZ[15];B[hh", Rule::Renju).is_err());
        assert!(read("(;SZ[99])", Rule::Renju).is_err_and(|e| e.contains("size")));
        assert!(read("(;SZ[9];B[zz])", Rule::Renju).is_err());
        assert!(read("nonsense", Rule::Renju).is_err());
        assert!(read_moves("h8 z99", 15).is_err_and(|e| e.contains("z99")));
    }
}
