//! The learned tables and their file: per family, two values per pattern code (the evaluation of a point of the
//! side to move and of a point of the opponent), a value per threat key, and the attack and defence values per code
//! that order the search's moves.
//!
//! The weights file is text. Lines starting with `#` are the provenance header (the data, the command line, the
//! losses); each section starts with `[table family]` (`table` one of `own`, `opp`, `threat`, `attack`, `defend`;
//! `family` one of `freestyle`, `standard`, `renju-black`, `renju-white`) and holds its integers separated by
//! white space: 1,365 per code table (in code order, see [`crate::pattern::code_patterns`]), 1,024 per threat
//! table (the key of [`super::threat_key`]). A section left out keeps the prior's values.

use super::{FAMILIES, Family, THREATS};
use crate::pattern::{CODES, CodeValues, Pattern4, code_patterns, combine};
use crate::types::{Color, Rule};
use std::fmt;
use std::sync::OnceLock;

/// The weights the build embeds: `data/weights.txt`, written by `pbrain-tengen tune` (see README).
const EMBEDDED: &str = include_str!("../../data/weights.txt");

/// The embedded tables' identity for `--version`: the first 32 bits of `data/weights.txt`'s FNV-1a checksum.
#[must_use]
pub fn embedded_identity() -> String {
    format!("{:08x}", super::network::checksum(EMBEDDED.as_bytes()) >> 32)
}

/// Every learned table.
pub struct Weights {
    /// Per family, the value of each pattern code at a point of the side to move (code 0, four dead lines, is
    /// always worth 0).
    pub own: [[i16; CODES]; FAMILIES],
    /// Per family, the value of each pattern code at a point of the opponent of the side to move.
    pub opp: [[i16; CODES]; FAMILIES],
    /// Per family of the side to move, the value of each threat key.
    pub threat: [[i16; THREATS]; FAMILIES],
    /// Per family of the side to move, the ordering value of its own code at a move.
    pub attack: [[i16; CODES]; FAMILIES],
    /// Per family of the side to move, the ordering value of the opponent's code at a move.
    pub defend: [[i16; CODES]; FAMILIES],
    /// The provenance: the header lines of the file, without their `# `.
    pub header: Vec<String>,
    /// Per rule group (freestyle, standard and caro, renju), the code values spread for the board's sums.
    dense: [OnceLock<CodeValues>; 3],
}

/// The tables of a weights file, in file order.
const TABLES: [&str; 5] = ["own", "opp", "threat", "attack", "defend"];

/// The hand-set class weights the first tables were derived from: the side to move's and the opponent's value
/// per [`Pattern4`] class (None, Forbidden, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2, Block4,
/// Block4Plus, Block4Flex3, Flex4, Five).
const HAND_OWN: [i32; 14] = [0, -4, 4, 6, 14, 16, 20, 40, 100, 16, 40, 400, 600, 2000];
const HAND_OPP: [i32; 14] = [0, 4, 3, 4, 10, 12, 14, 28, 60, 12, 28, 200, 300, 1000];
/// The hand-set move-ordering weights per class made (attack) and stopped (defence).
const HAND_ATTACK: [i32; 14] = [0, -50, 20, 25, 60, 70, 300, 400, 800, 250, 400, 5_000, 10_000, 100_000];
const HAND_DEFEND: [i32; 14] = [0, 0, 10, 12, 30, 35, 150, 200, 400, 120, 200, 2_500, 5_000, 50_000];

impl Weights {
    /// The hand-set starting point: each code valued by its threat class as the hand-set evaluation valued it (a
    /// renju Black forbidden point a small minus for Black whoever moves), no threat term, and the hand-set
    /// ordering weights by class.
    #[must_use]
    pub fn prior() -> Weights {
        let mut w = Weights::zero();
        for family in Family::ALL {
            let f = family.index();
            let forbidden = family == Family::RenjuBlack;
            for code in 1..CODES {
                let class = combine(code_patterns(code), forbidden) as usize;
                w.own[f][code] = HAND_OWN[class] as i16;
                w.opp[f][code] =
                    if class == Pattern4::Forbidden as usize { -HAND_OPP[class] } else { HAND_OPP[class] } as i16;
                w.attack[f][code] = HAND_ATTACK[class].clamp(-16_000, 16_000) as i16;
                w.defend[f][code] = HAND_DEFEND[class].clamp(-16_000, 16_000) as i16;
            }
        }
        w.header = vec!["Tengen evaluation weights: the hand-set prior (Weights::prior)".to_string()];
        w
    }

    /// All tables zero.
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            own: [[0; CODES]; FAMILIES],
            opp: [[0; CODES]; FAMILIES],
            threat: [[0; THREATS]; FAMILIES],
            attack: [[0; CODES]; FAMILIES],
            defend: [[0; CODES]; FAMILIES],
            header: Vec::new(),
            dense: [const { OnceLock::new() }; 3],
        }
    }

    /// A copy of the tables and header (the spread values are rebuilt when needed).
    #[must_use]
    pub fn duplicate(&self) -> Weights {
        Weights {
            own: self.own,
            opp: self.opp,
            threat: self.threat,
            attack: self.attack,
            defend: self.defend,
            header: self.header.clone(),
            dense: [const { OnceLock::new() }; 3],
        }
    }

    /// The code values of `rule` spread for the board's running sums (see
    /// [`crate::pattern::PatternBoard::set_code_values`]), built on first use.
    pub fn code_values(&self, rule: Rule) -> &CodeValues {
        let group = match Family::of(rule, Color::Black) {
            Family::Freestyle => 0,
            Family::Standard => 1,
            Family::RenjuBlack | Family::RenjuWhite => 2,
        };
        self.dense[group].get_or_init(|| {
            let [b, w] = Color::BOTH.map(|c| Family::of(rule, c).index());
            CodeValues::new([&self.own[b], &self.opp[b]], [&self.own[w], &self.opp[w]])
        })
    }

    /// The table named `table` ([`TABLES`]) of family `f`.
    fn table_mut(&mut self, table: usize, f: usize) -> &mut [i16] {
        match table {
            0 => &mut self.own[f],
            1 => &mut self.opp[f],
            2 => &mut self.threat[f],
            3 => &mut self.attack[f],
            _ => &mut self.defend[f],
        }
    }

    fn table(&self, table: usize, f: usize) -> &[i16] {
        match table {
            0 => &self.own[f],
            1 => &self.opp[f],
            2 => &self.threat[f],
            3 => &self.attack[f],
            _ => &self.defend[f],
        }
    }

    /// Reads a weights file (see the module's documentation). Sections left out keep the prior's values.
    ///
    /// # Errors
    /// A message naming the line: an unknown section, a value that is not a 16-bit integer, too many or too few
    /// values in a section, a section given twice.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = Weights::prior();
        w.header.clear();
        let mut seen = [[false; FAMILIES]; TABLES.len()];
        // The section being read: table, family, values read so far, the line it started on.
        let mut current: Option<(usize, usize, usize, usize)> = None;
        let finish = |current: Option<(usize, usize, usize, usize)>, w: &Weights| -> Result<(), String> {
            if let Some((t, f, n, line)) = current {
                let want = w.table(t, f).len();
                if n != want {
                    let name = format!("[{} {}]", TABLES[t], Family::ALL[f].name());
                    return Err(format!("line {line}: section {name} has {n} values, not {want}"));
                }
            }
            Ok(())
        };
        for (i, raw) in text.lines().enumerate() {
            let number = i + 1;
            let line = raw.trim();
            if let Some(comment) = line.strip_prefix('#') {
                if current.is_none() {
                    w.header.push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                finish(current, &w)?;
                let mut words = name.split_whitespace();
                let (Some(table), Some(family), None) = (words.next(), words.next(), words.next()) else {
                    return Err(format!("line {number}: a section is '[table family]', not '{line}'"));
                };
                let t = TABLES.iter().position(|&n| n == table).ok_or_else(|| {
                    format!("line {number}: unknown table '{table}' (own, opp, threat, attack, defend)")
                })?;
                let f = Family::ALL.iter().position(|fam| fam.name() == family).ok_or_else(|| {
                    format!("line {number}: unknown family '{family}' (freestyle, standard, renju-black, renju-white)")
                })?;
                if std::mem::replace(&mut seen[t][f], true) {
                    return Err(format!("line {number}: section [{table} {family}] given twice"));
                }
                current = Some((t, f, 0, number));
                continue;
            }
            let Some((t, f, n, start)) = current.as_mut() else {
                return Err(format!("line {number}: values before any section"));
            };
            for word in line.split_whitespace() {
                let v: i16 = word.parse().map_err(|_| format!("line {number}: '{word}' is not a 16-bit integer"))?;
                let table = w.table_mut(*t, *f);
                if *n >= table.len() {
                    let name = format!("[{} {}]", TABLES[*t], Family::ALL[*f].name());
                    return Err(format!("line {number}: section {name} (from line {start}) has too many values"));
                }
                table[*n] = v;
                *n += 1;
            }
        }
        finish(current, &w)?;
        for f in 0..FAMILIES {
            w.own[f][0] = 0;
            w.opp[f][0] = 0;
        }
        Ok(w)
    }

    /// The weights file text: the header, then every section.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for family in Family::ALL {
            for (t, name) in TABLES.iter().enumerate() {
                out.push_str(&format!("\n[{name} {}]\n", family.name()));
                for row in self.table(t, family.index()).chunks(16) {
                    let words: Vec<String> = row.iter().map(i16::to_string).collect();
                    out.push_str(&words.join(" "));
                    out.push('\n');
                }
            }
        }
        out
    }

    /// Reads a weights file from disk and keeps it for the rest of the process.
    ///
    /// # Errors
    /// The file cannot be read, or [`Weights::parse`] refuses it (the message names the file).
    pub fn load(path: &str) -> Result<&'static Weights, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read weights file {path}: {e}"))?;
        let w = Weights::parse(&text).map_err(|e| format!("weights file {path}: {e}"))?;
        Ok(Box::leak(Box::new(w)))
    }
}

impl Weights {
    /// [`Weights::load`], once per path for the whole process (a protocol session applies its presets at every
    /// START).
    ///
    /// # Errors
    /// As [`Weights::load`].
    pub fn load_cached(path: &str) -> Result<&'static Weights, String> {
        static LOADED: std::sync::Mutex<Vec<(String, &'static Weights)>> = std::sync::Mutex::new(Vec::new());
        let mut loaded = LOADED.lock().map_err(|_| "weights cache poisoned".to_string())?;
        if let Some((_, w)) = loaded.iter().find(|(p, _)| p == path) {
            return Ok(w);
        }
        let w = Weights::load(path)?;
        loaded.push((path.to_string(), w));
        Ok(w)
    }
}

/// The weights the build embeds (`data/weights.txt`), read once.
pub fn default_weights() -> &'static Weights {
    static DEFAULT: OnceLock<Weights> = OnceLock::new();
    // The embedded file is checked by a test; were it ever unreadable, the prior stands in.
    DEFAULT.get_or_init(|| Weights::parse(EMBEDDED).unwrap_or_else(|_| Weights::prior()))
}

/// A shared handle on a set of weights, for options that are copied around: equal when it is the same set.
#[derive(Clone, Copy)]
pub struct WeightsRef(pub &'static Weights);

impl Default for WeightsRef {
    fn default() -> WeightsRef {
        WeightsRef(default_weights())
    }
}

impl PartialEq for WeightsRef {
    fn eq(&self, other: &WeightsRef) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for WeightsRef {}

impl fmt::Debug for WeightsRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({})", self.0.header.first().map_or("", String::as_str))
    }
}

impl std::ops::Deref for WeightsRef {
    type Target = Weights;
    fn deref(&self) -> &Weights {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_weights_parse() {
        let w = Weights::parse(EMBEDDED).expect("embedded weights");
        assert!(!w.header.is_empty(), "the embedded weights name their provenance");
    }

    #[test]
    fn text_round_trips() {
        let mut w = Weights::prior();
        w.own[2][17] = -123;
        w.opp[1][5] = 99;
        w.threat[3][1023] = 77;
        w.header.push("a second line".to_string());
        let back = Weights::parse(&w.to_text()).expect("parse");
        assert_eq!(back.own, w.own);
        assert_eq!(back.opp, w.opp);
        assert_eq!(back.threat, w.threat);
        assert_eq!(back.attack, w.attack);
        assert_eq!(back.defend, w.defend);
        assert_eq!(back.header, w.header);
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let short = "# h\n[own freestyle]\n1 2 3\n[threat freestyle]\n";
        let e = Weights::parse(short).err().expect("short section");
        assert!(e.contains("line 2") && e.contains("3 values"), "{e}");
        let e = Weights::parse("[own nowhere]\n").err().expect("unknown family");
        assert!(e.contains("line 1") && e.contains("nowhere"), "{e}");
        let e = Weights::parse("[opp renju-black]\n1 x\n").err().expect("bad number");
        assert!(e.contains("line 2") && e.contains("'x'"), "{e}");
        let e = Weights::parse("5\n").err().expect("values before sections");
        assert!(e.contains("line 1"), "{e}");
        // An empty file is the prior.
        assert_eq!(Weights::parse("").expect("empty").own, Weights::prior().own);
    }

    #[test]
    fn the_prior_ranks_threats() {
        let w = Weights::prior();
        let f = Family::RenjuWhite.index();
        let code = |pats| crate::pattern::code_of_patterns(pats);
        use crate::pattern::Pattern::{Block3, Dead, Flex2, Flex3};
        assert!(w.own[f][code([Flex3, Dead, Dead, Dead])] > w.own[f][code([Flex2, Dead, Dead, Dead])]);
        assert!(w.own[f][code([Flex3, Dead, Dead, Dead])] > w.opp[f][code([Flex3, Dead, Dead, Dead])]);
        assert!(w.attack[f][code([Flex3, Block3, Dead, Dead])] > w.attack[f][code([Block3, Dead, Dead, Dead])]);
        // Renju Black's double open three is forbidden: a minus; White's is a strong point.
        let double = code([Flex3, Flex3, Dead, Dead]);
        assert!(w.own[Family::RenjuBlack.index()][double] < 0);
        assert!(w.opp[Family::RenjuBlack.index()][double] < 0);
        assert!(w.own[f][double] > 0);
    }
}
