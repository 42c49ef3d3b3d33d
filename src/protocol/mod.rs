//! The Piskvork/Gomocup protocol and the Yixin-Board extensions: lines (and blocks) parsed into typed commands
//! ([`command`]), the session that answers them ([`session`]) with each think request on its own thread ([`job`]),
//! every line it prints ([`reply`]), and the reader thread and loop that feed it ([`reader`]). Beside them, the
//! scripted engine the match runner's tests play against ([`mod@puppet`]).

pub mod command;
mod job;
pub mod opening_steps;
pub mod puppet;
pub mod reader;
pub mod reply;
pub mod session;

pub use puppet::puppet;
pub use reader::{run, run_with};
pub use reply::ABOUT;
pub use session::{
    PRESET_BOOK, PRESET_NETWORK, PRESET_PARAMS, PRESET_SAY_SCORE, PRESET_THREATS, PRESET_WEIGHTS, Session,
};
