//! Gomocup's published tournaments as this project reads them: which of their games may be learned from and which
//! only judge (the split, written down before anything learned from them: docs/agreement.md), the engines of a
//! league by its `ratings.txt`, and a game file's key (its path from its league's folder on).

/// Which games a position may serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    /// Training and tuning learn from these.
    Learn,
    /// Only these judge: nothing is ever judged on what it learned from.
    Judge,
}

/// The leagues the split knows, as their archives unpack (`shared/data/gomocup/`): renju's two years split by year,
/// the single-year leagues by the opening (the first number of the file name, 0 to 11).
const LEAGUES: [(&str, LeagueSplit); 5] = [
    ("renju-2020", LeagueSplit::All(Split::Learn)),
    ("renju-2021", LeagueSplit::All(Split::Judge)),
    ("standard-2021", LeagueSplit::ByOpening),
    ("freestyle-2021", LeagueSplit::ByOpening),
    ("fastgame-2021", LeagueSplit::ByOpening),
];

/// Openings below this number learn, the rest judge (a league of twelve openings split in halves).
pub const FIRST_JUDGING_OPENING: u32 = 6;

#[derive(Clone, Copy, Debug)]
enum LeagueSplit {
    All(Split),
    ByOpening,
}

impl Split {
    /// The split of a Gomocup game file by its path, written down before anything learned from these games
    /// (docs/agreement.md): renju 2020 learns and renju 2021 judges; in standard, freestyle and fastgame 2021
    /// (one year each) the games of openings 0 to 5 learn and those of openings 6 to 11 judge. `None` for a path
    /// outside those leagues' folders.
    #[must_use]
    pub fn of_path(path: &str) -> Option<Split> {
        let parts: Vec<&str> = path.split(['/', '\\']).collect();
        let league = parts.iter().find_map(|part| LEAGUES.iter().find(|(name, _)| part.starts_with(name)))?;
        match league.1 {
            LeagueSplit::All(split) => Some(split),
            LeagueSplit::ByOpening => {
                let opening: u32 = parts.last()?.split('_').next()?.parse().ok()?;
                Some(if opening < FIRST_JUDGING_OPENING { Split::Learn } else { Split::Judge })
            }
        }
    }

    /// `learn`, `judge`.
    ///
    /// # Errors
    /// Any other word.
    pub fn parse(text: &str) -> Result<Option<Split>, String> {
        match text {
            "learn" => Ok(Some(Split::Learn)),
            "judge" => Ok(Some(Split::Judge)),
            "all" => Ok(None),
            other => Err(format!("unknown split '{other}' (judge, learn or all)")),
        }
    }
}

/// The names in a `ratings.txt` (`   1 10#KATAGOMO21.R  2084 …`), strongest first, without their `N#`.
#[must_use]
pub fn read_ratings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            words.next()?.parse::<u32>().ok()?;
            let name = words.next()?;
            Some(name.split_once('#').map_or(name, |(_, n)| n).to_string())
        })
        .collect()
}

/// A game file's key prefix: its path from its league's folder on (`standard-2021/league1/7_8_0_2.psq`), else its
/// folder's name and its own.
#[must_use]
pub fn file_key(path: &str) -> String {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let league = parts.iter().position(|part| LEAGUES.iter().any(|(name, _)| part.starts_with(name)));
    let from = league.unwrap_or(parts.len().saturating_sub(2));
    parts[from..].join("/")
}

/// The warning of a trainer that leaves out `count` judging files, `first` the first of them.
#[must_use]
pub fn judging_left_out(count: usize, first: &str) -> String {
    format!(
        "{count} of Gomocup's judging files left out ({first} the first): training never reads them \
         (docs/agreement.md)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_by_year_for_renju_and_by_opening_for_the_single_year_leagues() {
        assert_eq!(Split::of_path("g/renju-2020/3_0_1_1.psq"), Some(Split::Learn));
        assert_eq!(Split::of_path("/x/renju-2021/3_0_1_1.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("standard-2021/league1/5_2_1_0.psq"), Some(Split::Learn));
        assert_eq!(Split::of_path("standard-2021/league2/6_2_1_0.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("fastgame-2021/11_0_1_2.psq"), Some(Split::Judge));
        assert_eq!(Split::of_path("freestyle-2021/league1/x_1.psq"), None);
        assert_eq!(Split::of_path("games/3_0_1_1.psq"), None);
    }

    #[test]
    fn ratings_are_read_strongest_first_without_their_numbers() {
        let text = "Rank Name  Elo\n   1 10#KATAGOMO21.R  2084   66\n   2 0#EMBRYO21.R     2018   60\n";
        assert_eq!(read_ratings(text), ["KATAGOMO21.R", "EMBRYO21.R"]);
    }

    #[test]
    fn keys_start_at_the_league_folder() {
        assert_eq!(file_key("/x/freestyle-2021/league1/7_8_0_2.psq"), "freestyle-2021/league1/7_8_0_2.psq");
        assert_eq!(file_key("/x/games/7_8_0_2.psq"), "games/7_8_0_2.psq");
    }
}
