//! The opening rules in words, for people: each rule in a sentence, each request as a question, and an answer typed
//! as text (points in `h8` notation, `swap` or `keep`, the declared number last) read as the typed action. `play
//! --opening-rule` in the terminal and the browser board (`serve`) ask and read with these.

use crate::opening_rule::{Action, OpeningRule, Request};
use crate::types::Pos;

/// The rule in a sentence.
pub fn summary(rule: OpeningRule) -> &'static str {
    match rule {
        OpeningRule::Rif => {
            "Black places the first three stones (centre, 3x3, 5x5), White may swap, White plays the 4th, Black offers \
             two 5th moves and White keeps one."
        }
        OpeningRule::Yamaguchi => "As RIF, but the first player also declares how many 5th moves Black will offer.",
        OpeningRule::Soosorv(_) => {
            "Black places the first three stones, White may swap, White plays the 4th and declares how many 5th moves \
             Black must offer, Black may swap, then Black offers them and White keeps one."
        }
        OpeningRule::Taraguchi(_) => {
            "Stones 1 to 4 go within the central 1, 3x3, 5x5 and 7x7 squares, with a swap after each; then Black plays \
             the 5th within 9x9 (White may swap) or offers N 5th moves and White keeps one."
        }
        OpeningRule::Swap2 => {
            "The first player places three stones; the second swaps, plays the 4th as White, or places two more and \
             lets the first choose a colour."
        }
    }
}

/// The question a request asks the person.
pub fn ask(request: &Request, size: usize) -> String {
    let square = |a: &Option<usize>| {
        a.map_or("anywhere".to_string(), |s| if s == 1 { "the centre".into() } else { format!("within {s}x{s}") })
    };
    match request {
        Request::Place { areas, declare } => {
            let places: Vec<String> = areas.iter().map(square).collect();
            let declared = declare.map_or(String::new(), |max| format!(", then the number of 5th moves (1 to {max})"));
            format!("place {} stone(s), {}{declared}, e.g. h8", areas.len(), places.join(", "))
        }
        Request::Swap => "swap colours? (swap or keep)".to_string(),
        Request::Swap2 => {
            "swap, or play the 4th as White (one point), or place the 4th and 5th (two points)".to_string()
        }
        Request::Offer { count, or_place } => {
            let or = or_place.map_or(String::new(), |a| format!(", or place the 5th {} (one point)", square(&a)));
            format!("offer {count} different, non-symmetric 5th moves{or}, e.g. h6 j9")
        }
        Request::Choose { offers } => {
            let list: Vec<String> = offers.iter().map(|p| p.notation(size)).collect();
            format!("keep one of the offered 5th moves: {}", list.join(" "))
        }
    }
}

/// The person's answer read as an action for `request`: points in `h8` notation (the declared number last),
/// `swap`/`keep` (or yes/no).
///
/// # Errors
/// What is wrong with the answer, in words.
pub fn read(request: &Request, text: &str, size: usize) -> Result<Action, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower = text.to_ascii_lowercase();
    let points = |ws: &[&str]| ws.iter().map(|w| Pos::parse(w, size)).collect::<Result<Vec<Pos>, String>>();
    match request {
        Request::Swap | Request::Swap2 if lower == "swap" || lower == "yes" || lower == "y" => Ok(Action::Swap(true)),
        Request::Swap if lower == "keep" || lower == "no" || lower == "n" => Ok(Action::Swap(false)),
        Request::Swap => Err("answer swap or keep".to_string()),
        Request::Place { declare: Some(_), .. } => {
            let (last, stones) = words.split_last().ok_or("no stones given")?;
            let n: usize = last.parse().map_err(|_| "the number of 5th moves comes last".to_string())?;
            Ok(Action::Place(points(stones)?, Some(n)))
        }
        Request::Place { .. } | Request::Swap2 => Ok(Action::Place(points(&words)?, None)),
        Request::Offer { or_place: Some(_), .. } if words.len() == 1 => Ok(Action::Place(points(&words)?, None)),
        Request::Offer { .. } => Ok(Action::Offer(points(&words)?)),
        Request::Choose { .. } => {
            let [w] = words.as_slice() else { return Err("choose one point".to_string()) };
            Ok(Action::Choose(Pos::parse(w, size)?))
        }
    }
}
