//! The networks the build embeds, and which one evaluates a rule on a board of a given size.
//!
//! Each rule group has its network (`data/network/<group>.tgnn`, learned on 15×15). Freestyle has a second one for
//! wide boards (`data/network/freestyle20.tgnn`, fine-tuned on Gomocup's 20×20 freestyle games searched at a million
//! nodes: docs/training.md): Gomocup plays freestyle on 20×20, and there the 15×15 network judges the league's
//! positions worse than the classical evaluation, while the 20×20 one forgets what it knew on 15×15. Boards of
//! [`WIDE_BOARD`] and more use the wide-board network where the group has one; every other board, and every other
//! group, the group's network.

use super::{Group, Network, checksum};
use crate::types::Rule;
use std::sync::OnceLock;

/// The least board size evaluated by a group's wide-board network, where it has one: the sizes nearer 20 than 15.
pub const WIDE_BOARD: usize = 18;

/// The networks the build embeds (`data/network/<group>.tgnn`), by group, where one was trained.
const EMBEDDED: [Option<&[u8]>; 3] = [
    Some(include_bytes!("../../../data/network/freestyle.tgnn")),
    Some(include_bytes!("../../../data/network/standard.tgnn")),
    Some(include_bytes!("../../../data/network/renju.tgnn")),
];

/// The wide-board networks the build embeds (`data/network/<group>20.tgnn`), by group, where one was trained.
const EMBEDDED_WIDE: [Option<&[u8]>; 3] = [Some(include_bytes!("../../../data/network/freestyle20.tgnn")), None, None];

/// The embedded networks' identities for `--version`: each network's name (its group's, and the boards it plays
/// after a wide-board one) with the first 32 bits of its file's FNV-1a checksum.
#[must_use]
pub fn embedded_identities() -> Vec<(String, String)> {
    let id = |bytes: &[u8]| format!("{:08x}", checksum(bytes) >> 32);
    let mut ids = Vec::new();
    for &g in &Group::ALL {
        if let Some(bytes) = EMBEDDED[g as usize] {
            ids.push((g.name().to_string(), id(bytes)));
        }
        if let Some(bytes) = EMBEDDED_WIDE[g as usize] {
            ids.push((format!("{} on {WIDE_BOARD}x{WIDE_BOARD} and wider", g.name()), id(bytes)));
        }
    }
    ids
}

/// The embedded network that evaluates `rule` on a board of `size`, if the build has one: the group's wide-board
/// network on a board of [`WIDE_BOARD`] or more where it has one, else the group's network.
#[must_use]
pub fn default_network(rule: Rule, size: usize) -> Option<&'static Network> {
    let group = Group::of(rule);
    let wide = if size >= WIDE_BOARD { embedded_wide_network(group) } else { None };
    wide.or_else(|| embedded_network(group))
}

/// The embedded network of `group` (the one learned on 15×15), if the build has one.
#[must_use]
pub fn embedded_network(group: Group) -> Option<&'static Network> {
    static NETS: Slots = [const { OnceLock::new() }; 3];
    read_once(&NETS, &EMBEDDED, group)
}

/// The embedded wide-board network of `group`, if the build has one.
#[must_use]
pub fn embedded_wide_network(group: Group) -> Option<&'static Network> {
    static NETS: Slots = [const { OnceLock::new() }; 3];
    read_once(&NETS, &EMBEDDED_WIDE, group)
}

/// Per group, an embedded network once read (`None` where the build has none or it does not read).
type Slots = [OnceLock<Option<Network>>; 3];

/// `group`'s network of `files`, read into `slots` the first time it is asked for.
fn read_once(slots: &'static Slots, files: &[Option<&[u8]>; 3], group: Group) -> Option<&'static Network> {
    let g = group as usize;
    slots[g].get_or_init(|| files[g].and_then(|bytes| Network::from_bytes(bytes).ok())).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn every_embedded_network_reads_and_serves_its_group() {
        for g in Group::ALL {
            for (bytes, net) in
                [(EMBEDDED[g as usize], embedded_network(g)), (EMBEDDED_WIDE[g as usize], embedded_wide_network(g))]
            {
                assert_eq!(bytes.is_some(), net.is_some(), "{} reads", g.name());
                if let Some(net) = net {
                    assert_eq!(net.group, g);
                }
            }
        }
    }

    #[test]
    fn freestyle_on_wide_boards_takes_its_wide_network_and_nothing_else_changes() {
        let narrow = embedded_network(Group::Freestyle).expect("freestyle's network");
        let wide = embedded_wide_network(Group::Freestyle).expect("freestyle's wide-board network");
        assert!(!std::ptr::eq(narrow, wide));
        for size in [15, WIDE_BOARD - 1] {
            assert!(std::ptr::eq(default_network(Rule::Freestyle, size).expect("a network"), narrow), "size {size}");
        }
        for size in [WIDE_BOARD, 20] {
            assert!(std::ptr::eq(default_network(Rule::Freestyle, size).expect("a network"), wide), "size {size}");
        }
        for rule in [Rule::Standard, Rule::Caro, Rule::CaroOverline, Rule::Renju] {
            let own = embedded_network(Group::of(rule)).expect("the group's network");
            for size in [15, 20] {
                assert!(std::ptr::eq(default_network(rule, size).expect("a network"), own), "{rule:?} size {size}");
            }
        }
    }
}
