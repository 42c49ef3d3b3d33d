//! The Piskvork/Gomocup protocol and the Yixin-Board extensions: lines parsed into typed commands
//! ([`command`]) and the session that answers them ([`session`]), with the search on its own thread.

pub mod command;
pub mod session;

pub use session::{ABOUT, PRESET_THREATS, PRESET_WEIGHTS, Session, run, run_with};
