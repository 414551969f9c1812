//! The `dekadoku` command.
fn main() {
    println!("dekadoku: the game is not built yet");
}
