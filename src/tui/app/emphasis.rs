//! What the board emphasises besides the cursor: the app decides it, the
//! board widget draws it.

/// How conflicts (a value twice in a unit) are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConflictDisplay {
    /// Not shown.
    Off,
    /// The conflicting cells.
    #[default]
    Cells,
    /// The conflicting cells and a tint over every unit holding them.
    Unit,
}

/// What the board emphasises besides the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Emphasis {
    /// Tint the cells sharing a row, column or box with the cursor.
    pub peers: bool,
    /// Emphasise the cells (and notes) holding the cursor's value.
    pub same_digit: bool,
    /// How conflicts are shown.
    pub conflicts: ConflictDisplay,
    /// Units (rows 0..n, columns n..2n, boxes 2n..3n) a hint is about.
    pub hint_units: Vec<usize>,
    /// Cells a hint is about.
    pub hint_cells: Vec<usize>,
    /// The solver view: the cell where a value is being tried.
    pub solver_try: Option<usize>,
    /// The solver view: the cell whose guess was just taken back.
    pub solver_backtrack: Option<usize>,
}

impl Default for Emphasis {
    /// The usual play settings: peers, same digit and conflicting cells
    /// shown, no hint.
    fn default() -> Emphasis {
        Emphasis {
            peers: true,
            same_digit: true,
            conflicts: ConflictDisplay::Cells,
            hint_units: Vec::new(),
            hint_cells: Vec::new(),
            solver_try: None,
            solver_backtrack: None,
        }
    }
}
