//! gnubg's match files, `.sgf` (`docs/gammon.md`, "Match files"): Smart Game Format
//! with game number 6, one game tree a game. The root node holds `MI[length:L][game:G]
//! [ws:A][bs:B]` (the match's length, the game's number from 0, the scores of player 0
//! (`W`) and player 1 (`B`)), `PW`/`PB` the names, `RU` the rules (`Crawford`,
//! `CrawfordGame`, `Jacoby`, `NoCube`, `Nackgammon`, `Hypergammon1`–`3`) and `RE[W+2]`
//! the result; each later node one action: `W[52lkhe]` (the dice, then from/to letters
//! per checker: `a`–`x` the points 1–24 in player 0's numbering — player 1's read from
//! `x` down — `y` the bar, `z` off), `W[double]`, `B[take]`, `B[drop]`. A game starts
//! from a turned cube when its root says `CV[2]` (gnubg's automatic doubles) or nodes
//! before its first action set it (`CV[4]`, `CP[w]`: the value, and `c`, `w` or `b` for
//! centred or the player who owns it). Setting the board by hand (`AE`, `AW`, `AB`), or
//! the cube after the game began, is not a game tabula can replay: such a game is a fault
//! and skipped.

use super::record::{Act, Action, Fault, GameRecord, MatchRecord, Played, StartCube};

/// A node: its line and its properties, each name with its values.
struct Node {
    line: usize,
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, name: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

/// Reads a `.sgf` file's text: what could be read, and a fault for each line that could
/// not be.
pub fn read(text: &str) -> MatchRecord {
    let mut record = MatchRecord::unread();
    let trees = match trees(text) {
        Ok(t) => t,
        Err(fault) => {
            record.faults.push(fault.0);
            fault.1
        }
    };
    if trees.is_empty() {
        record.faults.push(Fault {
            line: 0,
            game: None,
            reason: "no game in the file (an SGF game tree starts with `(;`)".into(),
        });
    }
    for (k, nodes) in trees.into_iter().enumerate() {
        if let Some(game) = game(&mut record, k, &nodes) {
            record.games.push(game);
        }
    }
    record
}

fn game(record: &mut MatchRecord, k: usize, nodes: &[Node]) -> Option<GameRecord> {
    let root = nodes.first()?;
    let number = k + 1;
    let mut fault = |line: usize, reason: String| {
        record.faults.push(Fault {
            line,
            game: Some(number),
            reason,
        })
    };
    if root
        .get("GM")
        .is_some_and(|v| v.first().map(String::as_str) != Some("6"))
    {
        fault(root.line, "not a backgammon file (GM is not 6)".into());
        return None;
    }
    let mut score = [0, 0];
    if let Some(mi) = root.get("MI") {
        for item in mi {
            let (key, value) = item.split_once(':').unwrap_or((item, ""));
            let n = value.trim().parse::<u32>();
            match (key, n) {
                ("length", Ok(n)) => record.length = n,
                ("ws", Ok(n)) => score[0] = n,
                ("bs", Ok(n)) => score[1] = n,
                ("length" | "ws" | "bs", Err(_)) => {
                    fault(root.line, format!("MI[{item}] is not a number"));
                }
                _ => {}
            }
        }
    }
    for (i, name) in ["PW", "PB"].iter().enumerate() {
        if let Some(v) = root.get(name).and_then(|v| v.first()) {
            record.players[i] = v.clone();
        }
    }
    let mut crawford = (record.length > 0).then_some(false);
    if let Some(rules) = root.get("RU").and_then(|v| v.first()) {
        for rule in rules.split(':') {
            match rule {
                "Crawford" => {}
                "CrawfordGame" => crawford = Some(true),
                "Jacoby" => record.jacoby = true,
                "NoCube" => record.cube = false,
                "Hypergammon1" => record.played = Played::Hypergammon(1),
                "Hypergammon2" => record.played = Played::Hypergammon(2),
                "Hypergammon3" => record.played = Played::Hypergammon(3),
                other => record.played = Played::Other(other.to_string()),
            }
        }
    }
    let result = root.get("RE").and_then(|v| v.first()).and_then(|re| {
        let (who, points) = re.split_once('+')?;
        let player = match who {
            "W" => 0,
            "B" => 1,
            _ => return None,
        };
        let digits: String = points.chars().take_while(char::is_ascii_digit).collect();
        Some((player, digits.parse().ok()?))
    });
    // The cube the game starts from: the root's automatic doubles, then what is set by
    // hand before the first action.
    let mut start = StartCube {
        value: 1,
        owner: None,
    };
    if let Some(v) = root.get("CV").and_then(|v| v.first()) {
        match cube_value(v) {
            Ok(value) => start.value = value,
            Err(reason) => {
                fault(root.line, reason);
                return None;
            }
        }
    }
    let mut actions = Vec::new();
    for node in &nodes[1..] {
        for hand in ["AE", "AW", "AB"] {
            if node.get(hand).is_some() {
                fault(
                    node.line,
                    format!(
                        "the board set by hand ({hand}): the game cannot be replayed from \
                         here"
                    ),
                );
                return None;
            }
        }
        for hand in ["CV", "CP"] {
            let Some(v) = node.get(hand).and_then(|v| v.first()) else {
                continue;
            };
            let set = if !actions.is_empty() {
                Err(format!(
                    "the cube set by hand ({hand}[{v}]) after the game began: the game \
                     cannot be replayed from here"
                ))
            } else if hand == "CV" {
                cube_value(v).map(|value| start.value = value)
            } else {
                match v.as_str() {
                    "c" => Ok(None),
                    "w" => Ok(Some(0)),
                    "b" => Ok(Some(1)),
                    _ => Err(format!("CP[{v}]: the cube's place is c, w or b")),
                }
                .map(|owner| start.owner = owner)
            };
            if let Err(reason) = set {
                fault(node.line, reason);
                return None;
            }
        }
        for (player, who) in ["W", "B"].iter().enumerate() {
            let Some(value) = node.get(who).and_then(|v| v.first()) else {
                continue;
            };
            match act(player, value) {
                Ok(act) => actions.push(Action {
                    line: node.line,
                    player,
                    act,
                }),
                Err(reason) => {
                    fault(node.line, format!("{who}[{value}]: {reason}"));
                    return Some(GameRecord {
                        number,
                        line: root.line,
                        score,
                        crawford,
                        start: turned(start),
                        actions,
                        result: None,
                    });
                }
            }
        }
    }
    Some(GameRecord {
        number,
        line: root.line,
        score,
        crawford,
        start: turned(start),
        actions,
        result,
    })
}

/// A cube value as `CV` gives it: a power of two up to gnubg's largest, 4096.
fn cube_value(v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if n.is_power_of_two() && n <= 4096 => Ok(n),
        _ => Err(format!("CV[{v}]: a cube's value is 1, 2, 4, … up to 4096")),
    }
}

/// The starting cube when it is not the usual one (1, centred).
fn turned(start: StartCube) -> Option<StartCube> {
    (start.value > 1 || start.owner.is_some()).then_some(start)
}

/// One action's value: `double`, `take`, `drop`, or the dice and the letters.
fn act(player: usize, value: &str) -> Result<Act, String> {
    match value {
        "double" => return Ok(Act::Double),
        "take" => return Ok(Act::Take),
        "drop" => return Ok(Act::Drop),
        _ => {}
    }
    let b = value.as_bytes();
    let die = |c: u8| (b'1'..=b'6').contains(&c).then(|| c - b'0');
    let (Some(a), Some(d)) = (
        b.first().and_then(|&c| die(c)),
        b.get(1).and_then(|&c| die(c)),
    ) else {
        return Err("not two dice 1-6 then the checkers' letters, nor double, take, drop".into());
    };
    let letters = &b[2..];
    if !letters.len().is_multiple_of(2) || letters.len() > 16 {
        return Err("the checkers' letters come in pairs, at most 4".into());
    }
    let point = |c: u8| -> Result<u8, String> {
        match c {
            b'y' => Ok(25),
            b'z' => Ok(0),
            b'a'..=b'x' => Ok(match player {
                0 => c - b'a' + 1,
                _ => b'x' - c + 1,
            }),
            _ => Err(format!("`{}` is not a point letter a-z", char::from(c))),
        }
    };
    let steps = letters
        .chunks(2)
        .map(|pair| Ok((point(pair[0])?, point(pair[1])?)))
        .collect::<Result<_, String>>()?;
    Ok(Act::Move {
        dice: (a, d),
        steps,
    })
}

/// The game trees, each a list of nodes; on a fault, the fault and what was read before.
#[allow(clippy::type_complexity)]
fn trees(text: &str) -> Result<Vec<Vec<Node>>, (Fault, Vec<Vec<Node>>)> {
    let mut trees: Vec<Vec<Node>> = Vec::new();
    let mut depth = 0usize;
    let mut line = 1usize;
    let mut chars = text.chars().peekable();
    let fail = |line: usize, reason: &str, trees: Vec<Vec<Node>>| {
        Err((
            Fault {
                line,
                game: Some(trees.len().max(1)),
                reason: reason.to_string(),
            },
            trees,
        ))
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '(' => {
                depth += 1;
                if depth == 1 {
                    trees.push(Vec::new());
                }
            }
            ')' => {
                if depth == 0 {
                    return fail(line, "a `)` closes no game tree", trees);
                }
                depth -= 1;
            }
            ';' if depth > 0 => {
                let node = Node {
                    line,
                    props: Vec::new(),
                };
                trees.last_mut().expect("inside a tree").push(node);
            }
            c if c.is_ascii_uppercase() && depth > 0 => {
                let mut name = c.to_string();
                while let Some(&n) = chars.peek() {
                    if !n.is_ascii_uppercase() {
                        break;
                    }
                    name.push(n);
                    chars.next();
                }
                let mut values = Vec::new();
                loop {
                    while let Some(&n) = chars.peek() {
                        if n == '\n' {
                            line += 1;
                        } else if !n.is_whitespace() {
                            break;
                        }
                        chars.next();
                    }
                    if chars.peek() != Some(&'[') {
                        break;
                    }
                    chars.next();
                    let mut value = String::new();
                    let mut closed = false;
                    while let Some(v) = chars.next() {
                        match v {
                            '\\' => {
                                if let Some(e) = chars.next() {
                                    line += usize::from(e == '\n');
                                    value.push(e);
                                }
                            }
                            ']' => {
                                closed = true;
                                break;
                            }
                            '\n' => {
                                line += 1;
                                value.push(v);
                            }
                            _ => value.push(v),
                        }
                    }
                    if !closed {
                        return fail(line, "the file ends inside a property's value", trees);
                    }
                    values.push(value);
                }
                match trees.last_mut().and_then(|t| t.last_mut()) {
                    Some(node) => node.props.push((name, values)),
                    None => return fail(line, "a property before any node (`;`)", trees),
                }
            }
            c if c.is_whitespace() => {}
            c => {
                return fail(
                    line,
                    &format!("`{c}` where SGF expects `(`, `;`, `)` or a property"),
                    trees,
                )
            }
        }
    }
    if depth > 0 {
        return fail(line, "the file ends inside a game tree (truncated?)", trees);
    }
    Ok(trees)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]PW[gnubg]PB[root]RU[Crawford:Hypergammon2]RE[W+1]\n;W[21mkxw]A[0][mkxw E ver 3]\n;B[double]\n;W[take]\n;B[52yt]\n;W[drop])\n(;FF[4]GM[6]MI[length:3][game:1][ws:2][bs:0]PW[gnubg]PB[root]RU[Crawford:CrawfordGame:Hypergammon2]\n;B[31ed])\n";

    #[test]
    fn a_gnubg_file_reads_as_games_of_actions() {
        let r = read(TWO_GAMES);
        assert_eq!(r.faults, vec![]);
        assert_eq!(r.played, Played::Hypergammon(2));
        assert_eq!((r.length, r.players[1].as_str()), (3, "root"));
        assert_eq!(r.games.len(), 2);
        let g = &r.games[0];
        assert_eq!(g.result, Some((0, 1)));
        // W is player 0: `m` is its point 13, `k` 11, `x` 24, `w` 23.
        assert_eq!(
            g.actions[0].act,
            Act::Move {
                dice: (2, 1),
                steps: vec![(13, 11), (24, 23)]
            }
        );
        // B is player 1, read from `x` down: `y` the bar, `t` its point 5.
        assert_eq!(
            g.actions[3].act,
            Act::Move {
                dice: (5, 2),
                steps: vec![(25, 5)]
            }
        );
        assert_eq!(
            (
                g.actions[1].act.clone(),
                g.actions[1].player,
                g.actions[1].line
            ),
            (Act::Double, 1, 3)
        );
        assert_eq!(r.games[1].score, [2, 0]);
        assert_eq!(r.games[1].crawford, Some(true));
    }

    #[test]
    fn damaged_files_keep_what_could_be_read() {
        // Truncated in the second game.
        let cut = &TWO_GAMES[..TWO_GAMES.len() - 5];
        let r = read(cut);
        assert_eq!(r.games.len(), 2);
        assert!(r.faults[0].reason.contains("ends inside"), "{:?}", r.faults);
        // A bad move: the game keeps its actions before it.
        let bad = TWO_GAMES.replace("B[52yt]", "B[5Xyt]");
        let r = read(&bad);
        assert_eq!(r.faults.len(), 1);
        assert_eq!(r.faults[0].line, 5);
        assert_eq!(r.games[0].actions.len(), 3);
        assert_eq!(r.games[0].result, None);
        assert_eq!(read("").faults.len(), 1);
        assert_eq!(read("garbage").faults.len(), 2);
    }

    #[test]
    fn a_game_starts_from_the_cube_its_root_or_its_first_nodes_set() {
        let head = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]RU[Hypergammon1]";
        let start = |text: &str| {
            let r = read(text);
            (r.games.first().and_then(|g| g.start), r.faults.len())
        };
        assert_eq!(start(&format!("{head}\n;W[21xw])")), (None, 0));
        // gnubg's automatic doubles: the root's CV, centred.
        let centred = |value| StartCube { value, owner: None };
        assert_eq!(
            start(&format!("{head}CV[2]\n;W[21xw])")),
            (Some(centred(2)), 0)
        );
        // `set cube value 4`, `set cube owner 1` before the first roll, as gnubg saves them.
        let text = format!("{head}\n;PL[B]DI[21]\n;CV[4]\n;CP[b]\n;W[21xw])");
        let owned = StartCube {
            value: 4,
            owner: Some(1),
        };
        assert_eq!(start(&text), (Some(owned), 0));
        assert_eq!(read(&text).games[0].actions.len(), 1);
        // Set back to the usual cube: nothing turned.
        assert_eq!(
            start(&format!("{head}\n;CV[1]\n;CP[c]\n;W[21xw])")),
            (None, 0)
        );
        // After the first action, or not a cube: the game is a fault.
        for bad in [
            format!("{head}\n;W[21xw]\n;CV[2])"),
            format!("{head}CV[3]\n;W[21xw])"),
            format!("{head}\n;CP[x]\n;W[21xw])"),
            format!("{head}\n;CV[8192])"),
        ] {
            let r = read(&bad);
            assert_eq!((r.games.len(), r.faults.len()), (0, 1), "{bad}");
            assert!(r.faults[0].reason.contains("cube"), "{:?}", r.faults);
        }
    }
}
