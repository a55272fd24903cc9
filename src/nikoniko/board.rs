//! An ASCII board a backgammon player can read, from the side on roll's point of view.
//!
//! ```text
//!   O: off 0  bar 0                    (O's points)
//!   +---------------------------+       1  2  3  4  5  6  7  8
//!   | 8  7  6  5  4  3 | 2  1 |
//! ```
//! Columns are the side on roll's points 8 down to 1 (its home, points 2 and 1, on the
//! right); each column shows that point's checkers, `X` for the side on roll, `O` for the
//! opponent, stacked up to five high.

use super::index::index_of;
use super::notation::notation;
use super::position::{Position, BAR, CHECKERS};

/// The board as text, with the notation, index and pip counts.
pub fn render(p: &Position) -> String {
    let mut lines = Vec::new();
    lines.push(format!(
        "  O (opponent)   bar {}  off {}  pips {}",
        p.opp[BAR],
        p.opp[0],
        p.opp_pips()
    ));
    lines.push("  O's points:  1  2  3  4  5  6 | 7  8".to_string());
    lines.push("             +------------------+------+".to_string());
    for row in 0..CHECKERS {
        let mut line = String::from("             |");
        for point in (1..=8usize).rev() {
            let (mine, theirs) = (p.me[point], p.opp[9 - point]);
            let cell = if mine > row {
                " X "
            } else if theirs > row {
                " O "
            } else if row == 0 {
                " . "
            } else {
                "   "
            };
            line.push_str(cell);
            if point == 3 {
                line.push('|');
            }
        }
        line.push('|');
        lines.push(line);
    }
    lines.push("             +------------------+------+".to_string());
    lines.push("  X's points:  8  7  6  5  4  3 | 2  1   (X's home: 2, 1)".to_string());
    lines.push(format!(
        "  X (on roll)    bar {}  off {}  pips {}",
        p.me[BAR],
        p.me[0],
        p.my_pips()
    ));
    lines.push(format!(
        "  position {}   index {}",
        notation(p),
        index_of(p)
    ));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_board_shows_both_sides_stacks() {
        let text = render(&Position::OPENING);
        assert!(text.contains("position 8,8,5,2,2/8,8,5,2,2"));
        // X's 8 holds two, X's 1 holds O's two (O's point 8).
        let first_row = text.lines().nth(3).unwrap();
        assert_eq!(first_row, "             | X  O  .  X  O  . | X  O |");
        assert!(text.contains("pips 25"));
    }
}
