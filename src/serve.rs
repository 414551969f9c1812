//! `dekadoku serve`: the game served over SSH (issue 24), one player per
//! SSH public key, each player's games, settings and statistics in a
//! database.
//!
//! Built so far: the players' store ([`store`]), one trait with the
//! SQLite backend, versioned migrations, per-player limits; the decoder of
//! the channel's bytes into the game's actions ([`input`]). Still to come:
//! the SSH server (russh) running the game's update/draw loop per
//! connection, the PostgreSQL backend behind the same trait, the shared
//! daily board in the game.

pub mod input;
pub mod server;
pub mod session;
pub mod store;
