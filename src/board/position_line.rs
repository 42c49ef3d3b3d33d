//! Position lines, the testdata's and the position-reading commands' format: black stones, a tab, white stones,
//! optionally a tab and the side to move (DESIGN.md).

use crate::types::{Color, Pos, parse_point_list};

/// One parsed position line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// Black stones in the order given.
    pub black: Vec<Pos>,
    /// White stones in the order given.
    pub white: Vec<Pos>,
    /// The side to move when the line names it.
    pub side: Option<Color>,
    /// Fields after the third, left for callers that read more (testdata's expected answers).
    pub extra: Vec<String>,
}

impl PositionLine {
    /// The side to move: as named, else Black on equal counts and White when Black has one stone more.
    ///
    /// # Errors
    /// When the side is not named and the stone counts fit neither case.
    pub fn side_to_move(&self) -> Result<Color, String> {
        if let Some(side) = self.side {
            return Ok(side);
        }
        match self.black.len().checked_sub(self.white.len()) {
            Some(0) => Ok(Color::Black),
            Some(1) => Ok(Color::White),
            _ => Err(format!(
                "cannot tell the side to move from {} black and {} white stones; name it in a third field",
                self.black.len(),
                self.white.len()
            )),
        }
    }
}

/// Parses a position line on a board of side `size`. A third field, when present and not empty, is `black` or
/// `white`, or else a point list (the expected answer testdata files keep there), which goes to `extra` with any
/// further fields.
///
/// # Errors
/// A message naming the bad field or coordinate.
pub fn parse_position_line(text: &str, size: usize) -> Result<PositionLine, String> {
    let fields: Vec<&str> = text.trim_end_matches(['\r', '\n']).split('\t').collect();
    if fields.len() < 2 {
        return Err("expected black stones, a tab, then white stones".to_string());
    }
    let black = parse_point_list(fields[0], size).map_err(|e| format!("black stones: {e}"))?;
    let white = parse_point_list(fields[1], size).map_err(|e| format!("white stones: {e}"))?;
    let mut extra: Vec<String> = fields.iter().skip(2).map(|s| (*s).to_string()).collect();
    let side = match fields.get(2).map(|s| s.trim().to_ascii_lowercase()) {
        None => None,
        Some(s) if s.is_empty() => None,
        Some(s) if s == "black" || s == "b" => Some(Color::Black),
        Some(s) if s == "white" || s == "w" => Some(Color::White),
        // testdata files keep an expected answer (a point list) in the third field: leave it to the caller.
        Some(s) if parse_point_list(&s, size).is_ok() => None,
        Some(s) => {
            return Err(format!("third field '{s}' is neither black, white nor a point list"));
        }
    };
    if side.is_some() || fields.get(2).is_some_and(|s| s.trim().is_empty()) {
        extra.remove(0);
    }
    Ok(PositionLine { black, white, side, extra })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_side() {
        let p = parse_position_line("H8,I9\tH9\twhite", 15).unwrap();
        assert_eq!(p.black.len(), 2);
        assert_eq!(p.side_to_move(), Ok(Color::White));
        let q = parse_position_line("H8\t", 15).unwrap();
        assert_eq!(q.side_to_move(), Ok(Color::White));
        let r = parse_position_line("\t", 15).unwrap();
        assert_eq!(r.side_to_move(), Ok(Color::Black));
        let s = parse_position_line("H8,H9,H10\t", 15).unwrap();
        assert!(s.side_to_move().is_err());
    }

    #[test]
    fn rejects_bad_fields() {
        assert!(parse_position_line("H8", 15).is_err());
        assert!(parse_position_line("H8,Z9\t", 15).is_err());
        assert!(parse_position_line("H8\tH99", 15).is_err());
        assert!(parse_position_line("H8\tH9\tred", 15).is_err());
        let expected = parse_position_line("H8\tH9\tG8,J10", 15).unwrap();
        assert_eq!((expected.side, expected.extra), (None, vec!["G8,J10".to_string()]));
    }
}
