//! An ASCII board a backgammon player can read, from the side on roll's point of view.
//!
//! ```text
//!   O (opponent)   bar 0  off 0  pips 25
//!   O's points:  1  2  3  4  5  6 | 7  8
//!              +------------------+------+
//!              | X  O  .  X  O  . | X  O |
//! ```
//! Columns are the side on roll's points 8 down to 1 (its home, points 2 and 1, on the
//! right); each column shows that point's checkers, `X` for the side on roll, `O` for the
//! opponent, stacked up to five high.

use crate::gammon::{notation::notation, Position};

/// Points on the article's board, and checkers a side.
const POINTS: usize = 8;
const CHECKERS: usize = 5;

/// The board of a NikoNiko position as text, with the notation, index and pip counts.
pub fn render(p: &Position) -> String {
    let variant = super::variant();
    let [my_pips, opp_pips] = p.pips();
    let (me, opp) = (p.us(), p.them());
    let mut lines = Vec::new();
    lines.push(format!(
        "  O (opponent)   bar {}  off {}  pips {opp_pips}",
        opp[POINTS],
        CHECKERS - p.them_in_play(),
    ));
    lines.push("  O's points:  1  2  3  4  5  6 | 7  8".to_string());
    lines.push("             +------------------+------+".to_string());
    for row in 0..CHECKERS as u8 {
        let mut line = String::from("             |");
        for point in (1..=POINTS).rev() {
            let (mine, theirs) = (me[point - 1], opp[POINTS - point]);
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
        "  X (on roll)    bar {}  off {}  pips {my_pips}",
        me[POINTS],
        CHECKERS - p.us_in_play(),
    ));
    lines.push(format!(
        "  position {}   index {}",
        notation(&variant, p),
        super::index().index(p)
    ));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_board_shows_both_sides_stacks() {
        let text = render(&super::super::variant().opening());
        assert!(text.contains("position 8,8,5,2,2/8,8,5,2,2   index 562767"));
        // X's 8 holds two, X's 1 holds O's two (O's point 8).
        let first_row = text.lines().nth(3).unwrap();
        assert_eq!(first_row, "             | X  O  .  X  O  . | X  O |");
        assert!(text.contains("pips 25"));
    }
}
