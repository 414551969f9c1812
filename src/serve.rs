//! `dekadoku serve`: the game served over SSH (issue 24), one player per
//! SSH public key, each player's games, settings and statistics in a
//! database.
//!
//! [`server`] is the SSH server (russh): admission, identity by key,
//! everything but the game refused, logs. [`session`] runs one player's
//! game on the local game's own loop, drawing to the channel and keeping
//! their things in [`store`] (SQLite or PostgreSQL, one trait). [`input`]
//! decodes the channel's bytes into the game's actions.

pub mod input;
pub mod memory;
pub mod server;
pub mod session;
pub mod store;
