//! The board as text, for every variant of the family, in the manner of gnubg's text
//! board (`docs/gammon.md`, "The board"): the points numbered from the side at the bottom
//! (`X`, whose home board is on the right), its opponent (`O`) at the top, the bar in the
//! middle of each row, stacks of checkers (a count in place of the last checker when a
//! stack is taller than the board), and beside the board the pip counts, the checkers
//! borne off, the cube and its owner, and the dice.
//!
//! ```text
//!  24,23/24,23   Position ID AABAAQAACgAAAA
//!  +13-14-15-16-17-18------19-20-21-22-23-24-+   O  pips 47  off 0
//!  |                  |   |             X  X |
//!  |                  |   |                  |
//!  |                  |BAR|                  |   cube 1, centred
//!  |                  |   |                  |
//!  |                  |   |             O  O |
//!  +12-11-10--9--8--7-------6--5--4--3--2--1-+   X  pips 47  off 0  on roll, 5-6
//! ```

use tabula::gammon::cube::CubeState;
use tabula::gammon::gnubg::position_id;
use tabula::gammon::moves::off;
use tabula::gammon::notation::notation;
use tabula::gammon::{Position, Roll, Variant};

/// What is drawn around the checkers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Around {
    /// The cube: its value and its state as the side at the bottom sees it (no cube drawn
    /// when none).
    pub cube: Option<(u32, CubeState)>,
    /// The dice the side on roll has rolled, if any.
    pub dice: Option<Roll>,
    /// Whether the side at the bottom (X, the position's side on roll) is on roll; else
    /// the top side (O) is: the Position ID shown is then the top side's view.
    pub top_on_roll: bool,
    /// The match's score, when the game is one of a match.
    pub score: Option<Standing>,
}

/// A match's running score, as the board shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The match's length.
    pub length: u32,
    /// Points the bottom side (X) still needs.
    pub bottom: u32,
    /// Points the top side (O) still needs.
    pub top: u32,
    /// This is the Crawford game.
    pub crawford: bool,
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "match to {}: X needs {}, O needs {}",
            self.length, self.bottom, self.top
        )?;
        if self.crawford {
            f.write_str(" (Crawford game)")?;
        }
        Ok(())
    }
}

/// Rows a half of the board shows at most; a taller stack shows its count in its last row.
pub const MAX_ROWS: usize = 5;

/// The points of each quarter: the bottom row's right (the home side, from 1) and left
/// parts, then the top row's left and right parts, each listed left to right.
fn quarters(points: usize) -> [Vec<usize>; 4] {
    let low = points.div_ceil(2);
    let right = low.div_ceil(2);
    let bottom_right: Vec<usize> = (1..=right).rev().collect();
    let bottom_left: Vec<usize> = (right + 1..=low).rev().collect();
    let top_left_len = (low - right).min(points - low);
    let top_left: Vec<usize> = (low + 1..=low + top_left_len).collect();
    let top_right: Vec<usize> = (low + top_left_len + 1..=points).collect();
    [bottom_right, bottom_left, top_left, top_right]
}

/// A point's label in a border: three characters, `-9-` or `13-`.
fn label(point: usize) -> String {
    if point < 10 {
        format!("-{point}-")
    } else {
        format!("{point:<3}").replace(' ', "-")
    }
}

/// One cell of a stack of `count` checkers drawn as `mark`, at `row` (0 nearest the
/// border) of `rows`.
fn cell(count: usize, row: usize, rows: usize, mark: char) -> String {
    if count > rows && row == rows - 1 {
        format!("{count:^3}")
    } else if count > row {
        format!(" {mark} ")
    } else {
        "   ".to_string()
    }
}

/// The board of `p` (`X` the side on roll of `p`, at the bottom) with what is `around` it.
pub fn draw(variant: &Variant, p: &Position, around: &Around) -> String {
    let points = variant.points;
    let rows = variant.checkers.clamp(1, MAX_ROWS);
    let (us, them) = (p.us(), p.them());
    // Checkers on point `point` (the bottom side's numbering): X's or O's.
    let at = |point: usize| -> (usize, char) {
        let x = usize::from(us[point - 1]);
        if x > 0 {
            (x, 'X')
        } else {
            (usize::from(them[points - point]), 'O')
        }
    };
    let [bottom_right, bottom_left, top_left, top_right] = quarters(points);
    // The halves' parts padded to the same width: empty columns outside.
    let left = top_left.len().max(bottom_left.len());
    let right = top_right.len().max(bottom_right.len());
    let pad = |n: usize, fill: &str| fill.repeat(n);
    let border = |l: &[usize], r: &[usize]| {
        let ls: String = l.iter().map(|&q| label(q)).collect();
        let rs: String = r.iter().map(|&q| label(q)).collect();
        format!(
            " +{}{ls}-----{rs}{}+",
            pad(left - l.len(), "---"),
            pad(right - r.len(), "---")
        )
    };
    let row_line = |l: &[usize], r: &[usize], row: usize, bar: String| {
        let stack = |&q: &usize| {
            let (n, mark) = at(q);
            cell(n, row, rows, mark)
        };
        let ls: String = l.iter().map(stack).collect();
        let rs: String = r.iter().map(stack).collect();
        format!(
            " |{}{ls}|{bar}|{rs}{}|",
            pad(left - l.len(), "   "),
            pad(right - r.len(), "   ")
        )
    };
    let pips = p.pips();
    let side = |mark: char, k: usize, s: &[u8], on_roll: bool| {
        let mut text = format!(
            "   {mark}  pips {}  off {}",
            pips[k],
            off(s, variant.checkers)
        );
        match (on_roll, around.dice) {
            (true, Some(d)) => text.push_str(&format!("  on roll, {d}")),
            (true, None) => text.push_str("  on roll"),
            _ => {}
        }
        text
    };
    let mut lines = Vec::new();
    let mut head = format!(" {}", notation(variant, p));
    if points == position_id::POINTS {
        let on_roll = if around.top_on_roll { p.swapped() } else { *p };
        if let Ok(id) = position_id::encode(&on_roll) {
            head.push_str(&format!("   Position ID {id}"));
        }
    }
    if let Some(score) = around.score {
        head.push_str(&format!("   {score}"));
    }
    lines.push(head);
    // The top half: O's points from X's view, stacks hanging from the border.
    lines.push(format!(
        "{}{}",
        border(&top_left, &top_right),
        side('O', 1, them, around.top_on_roll)
    ));
    let top_bar = usize::from(them[points]);
    for row in 0..rows {
        let bar = cell(top_bar, row, rows, 'O');
        lines.push(row_line(&top_left, &top_right, row, bar));
    }
    let cube = match around.cube {
        None => String::new(),
        Some((value, state)) => format!(
            "   cube {value}, {}",
            match state {
                CubeState::Owned => "owned by X",
                CubeState::OpponentOwns => "owned by O",
                CubeState::Centred | CubeState::CentredJacoby => "centred",
            }
        ),
    };
    lines.push(format!(
        " |{}|BAR|{}|{cube}",
        pad(left, "   "),
        pad(right, "   ")
    ));
    // The bottom half: X's, stacks standing on the border.
    let bottom_bar = usize::from(us[points]);
    for row in (0..rows).rev() {
        let bar = cell(bottom_bar, row, rows, 'X');
        lines.push(row_line(&bottom_left, &bottom_right, row, bar));
    }
    lines.push(format!(
        "{}{}",
        border(&bottom_left, &bottom_right),
        side('X', 0, us, !around.top_on_roll)
    ));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::gammon::Numbers;

    /// What a drawing says, read back from its text alone: the checkers on each point (the
    /// bottom side's numbering, X positive, O negative), on each bar, borne off, the cube.
    #[derive(Debug, PartialEq)]
    struct Read {
        points: Vec<i32>,
        bar: [usize; 2],
        off: [usize; 2],
        cube: Option<String>,
    }

    /// Reads a drawing: the point labels of each border give the columns, the stacks in
    /// the rows of its half give each point's checkers.
    fn read_back(text: &str, points: usize) -> Read {
        let lines: Vec<&str> = text.lines().collect();
        let borders: Vec<usize> = (0..lines.len())
            .filter(|&k| lines[k].trim_start().starts_with('+'))
            .collect();
        assert_eq!(borders.len(), 2, "{text}");
        let (top, bottom) = (borders[0], borders[1]);
        let middle = lines
            .iter()
            .position(|l| l.contains("|BAR|"))
            .expect("a bar line");
        let mut on = vec![0i32; points + 1];
        let char_at = |line: &str, col: usize| line.chars().nth(col).unwrap_or(' ');
        let stack = |rows: &[usize], col: usize| -> (usize, char) {
            let mut n = 0;
            let mut mark = ' ';
            let mut count = None;
            for &r in rows {
                let line = lines[r];
                let c = char_at(line, col);
                if c == 'X' || c == 'O' {
                    n += 1;
                    mark = c;
                } else if c.is_ascii_digit() || char_at(line, col - 1).is_ascii_digit() {
                    let digits: String = line
                        .chars()
                        .skip(col - 1)
                        .take(3)
                        .filter(char::is_ascii_digit)
                        .collect();
                    count = Some(digits.parse().unwrap());
                }
            }
            // A count in place of a checker is the stack's height.
            (count.unwrap_or(n), mark)
        };
        let top_rows: Vec<usize> = (top + 1..middle).collect();
        let bottom_rows: Vec<usize> = (middle + 1..bottom).collect();
        for (border, rows) in [(top, &top_rows), (bottom, &bottom_rows)] {
            // A label's last digit stands over its column.
            let line: Vec<char> = lines[border].chars().collect();
            let open = line.iter().position(|&c| c == '+').unwrap();
            let close = open + 1 + line[open + 1..].iter().position(|&c| c == '+').unwrap();
            let mut col = open;
            while col < close {
                if !line[col].is_ascii_digit() {
                    col += 1;
                    continue;
                }
                let first = col;
                while col + 1 < line.len() && line[col + 1].is_ascii_digit() {
                    col += 1;
                }
                let point: usize = line[first..=col]
                    .iter()
                    .collect::<String>()
                    .parse()
                    .unwrap();
                let (n, mark) = stack(rows, col);
                on[point] = if mark == 'O' { -(n as i32) } else { n as i32 };
                col += 1;
            }
        }
        let bar_col = lines[middle].find("|BAR|").unwrap() + 2;
        let bar = [stack(&bottom_rows, bar_col).0, stack(&top_rows, bar_col).0];
        let off_of = |line: &str| -> usize {
            let at = line.find(" off ").unwrap() + 5;
            line[at..]
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        let cube = lines[middle]
            .split("cube ")
            .nth(1)
            .map(|c| c.trim().to_string());
        Read {
            points: on[1..].to_vec(),
            bar,
            off: [off_of(lines[bottom]), off_of(lines[top])],
            cube,
        }
    }

    /// What the drawing of `p` should say.
    fn expected(v: &Variant, p: &Position, cube: Option<String>) -> Read {
        let n = v.points;
        let points = (1..=n)
            .map(|q| i32::from(p.us()[q - 1]) - i32::from(p.them()[n - q]))
            .collect();
        Read {
            points,
            bar: [usize::from(p.us()[n]), usize::from(p.them()[n])],
            off: [off(p.us(), v.checkers), off(p.them(), v.checkers)],
            cube,
        }
    }

    #[test]
    fn every_variants_board_reads_back_as_its_position_with_bar_off_and_cube() {
        let mut rng = tabula::random::stream(27, 1);
        let cubes = [
            (1, CubeState::Centred, "1, centred"),
            (2, CubeState::Owned, "2, owned by X"),
            (4, CubeState::OpponentOwns, "4, owned by O"),
        ];
        let mut bars = 0;
        let mut offs = 0;
        let mut tall = 0;
        for name in [
            "nikoniko",
            "nikoniko-12",
            "hyper1",
            "hyper2",
            "hyper3",
            "points=7:checkers=2:faces=1-3:home=3:start=7,6",
            "points=5:checkers=7:faces=1-2:home=2:start=5,5,5,5,5,5,4",
        ] {
            let v = Variant::parse(name).unwrap();
            let numbers = Numbers::new(&v).unwrap();
            let mut drawn = 0;
            while drawn < 200 {
                let record = tabula::random::below(&mut rng, numbers.records());
                let p = numbers.position(record).unwrap();
                if tabula::gammon::notation::check(&v, &p).is_err() {
                    continue;
                }
                let (value, state, text) = cubes[drawn % 3];
                let around = Around {
                    cube: Some((value, state)),
                    dice: None,
                    top_on_roll: false,
                    score: None,
                };
                let board = draw(&v, &p, &around);
                let read = read_back(&board, v.points);
                assert_eq!(
                    read,
                    expected(&v, &p, Some(text.to_string())),
                    "{name}\n{board}"
                );
                bars += usize::from(read.bar != [0, 0]);
                offs += usize::from(read.off != [0, 0]);
                tall += usize::from(
                    read.points
                        .iter()
                        .any(|&c| c.unsigned_abs() as usize > MAX_ROWS),
                );
                drawn += 1;
            }
        }
        // The drawings covered checkers on the bar, borne off, and stacks taller than a
        // half of the board.
        assert!(bars > 100 && offs > 100 && tall > 5, "{bars} {offs} {tall}");
    }

    #[test]
    fn the_hyper2_opening_is_drawn_with_its_position_id_pips_and_dice() {
        let v = Variant::parse("hyper2").unwrap();
        let around = Around {
            cube: None,
            dice: Some(Roll::new(6, 5)),
            top_on_roll: false,
            score: None,
        };
        let board = draw(&v, &v.opening(), &around);
        let id = position_id::encode(&v.opening()).unwrap();
        assert!(board.contains(&format!("Position ID {id}")), "{board}");
        assert!(board.contains("X  pips 47  off 0  on roll, 5-6"), "{board}");
        assert!(board.contains("O  pips 47  off 0\n"), "{board}");
        assert!(!board.contains("cube"), "{board}");
        assert!(board.contains("+13-14-15-16-17-18------19-20-21-22-23-24-+"));
        assert!(board.contains("+12-11-10--9--8--7-------6--5--4--3--2--1-+"));
    }
}
