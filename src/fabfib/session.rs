//! A person at the table: one seat played from a reader (a terminal, or a script in the
//! tests) against strategies at the other seats, the game told to a writer as that seat
//! sees it. Other players' cards stay hidden until a doubt shows them.
//!
//! Answers are read a line at a time, at most [`MAX_LINE`] bytes: a longer line (or input
//! that is not UTF-8) ends the session with an error naming where the input came from.

use super::calls::parse_call;
use super::cards::{digit, format_cards, format_digits, hand_value, parse_digits, Card};
use super::engine::{play_game, Seats};
use super::events::{Event, Observer};
use super::odds::discard_list;
use super::rules::Rules;
use super::strategy::{CallView, DiscardView, DoubtView, Strategy};
use super::{Error, Result};
use crate::lines::{LineError, Lines};
use crate::random::{self, Rng};
use std::io::{BufRead, Write};

/// The longest answer line read, in bytes.
pub const MAX_LINE: usize = crate::lines::MAX_LINE;

/// A table with one person at it.
#[derive(Debug)]
pub struct Setup {
    /// The rules.
    pub rules: Rules,
    /// The person's seat, from 0.
    pub seat: usize,
    /// One strategy per other seat, in seat order.
    pub opponents: Vec<Strategy>,
    /// The seed of the deal and of the strategies' draws.
    pub seed: u64,
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// The game was played to its end.
    Finished {
        /// The winner's seat, from 0.
        winner: usize,
        /// Whether that is the person.
        won: bool,
    },
    /// The person quit, or the input ended.
    Abandoned,
}

/// A finished (or abandoned) session: how it ended and every event of the game so far.
#[derive(Debug, Clone)]
pub struct Played {
    /// How it ended.
    pub end: GameEnd,
    /// Everything that happened, as a replay shows it.
    pub events: Vec<Event>,
}

/// Why the game stopped early.
enum Stop {
    Quit,
    Failed(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Failed(e)
    }
}

/// Plays one game with the person at `setup.seat`: answers from `input` (named `what` in
/// errors, e.g. "standard input"), the game told to `out`. P1 starts the first round.
pub fn play<R: BufRead, W: Write>(
    setup: &Setup,
    input: R,
    what: &str,
    out: &mut W,
) -> Result<Played> {
    let rules = setup.rules.checked()?;
    let n = rules.players;
    if setup.seat >= n {
        return Err(Error::Seat {
            seat: setup.seat + 1,
            players: n,
        });
    }
    if setup.opponents.len() + 1 != n {
        return Err(Error::StrategyCount {
            given: setup.opponents.len(),
            players: n - 1,
        });
    }
    let mut others = setup.opponents.iter();
    let seats: Vec<Option<&Strategy>> = (0..n)
        .map(|p| if p == setup.seat { None } else { others.next() })
        .collect();
    let mut table = Person {
        seats,
        me: setup.seat,
        rules,
        input: Lines::new(input),
        what: what.to_string(),
        out,
        shown: None,
        events: Vec::new(),
        failed: None,
    };
    table.intro(setup.seed)?;
    let mut rng = random::stream(setup.seed, 0);
    let result = play_game(&rules, 0, &mut rng, &mut table);
    if let Some(e) = table.failed.take() {
        return Err(e);
    }
    let end = match result {
        Ok(winner) => GameEnd::Finished {
            winner,
            won: winner == setup.seat,
        },
        Err(Stop::Quit) => {
            table.line("Game abandoned.")?;
            GameEnd::Abandoned
        }
        Err(Stop::Failed(e)) => return Err(e),
    };
    table
        .out
        .flush()
        .map_err(|source| Error::Write { source })?;
    Ok(Played {
        end,
        events: table.events,
    })
}

/// The seats, the person's input and output, and what the person has been told.
struct Person<'a, 'w, R, W> {
    seats: Vec<Option<&'a Strategy>>,
    me: usize,
    rules: Rules,
    input: Lines<R>,
    what: String,
    out: &'w mut W,
    /// The last hand passed on, shown only if it is doubted.
    shown: Option<[Card; 3]>,
    events: Vec<Event>,
    /// A write that failed while telling an event (reported at the next decision).
    failed: Option<Error>,
}

impl<R: BufRead, W: Write> Person<'_, '_, R, W> {
    fn name(&self, p: usize) -> String {
        if p == self.me {
            "you".to_string()
        } else {
            format!("P{}", p + 1)
        }
    }

    fn line(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}").map_err(|source| Error::Write { source })
    }

    fn intro(&mut self, seed: u64) -> Result<()> {
        let seats: Vec<String> = self
            .seats
            .iter()
            .enumerate()
            .map(|(p, s)| match s {
                Some(s) => format!("P{} {}", p + 1, s.name),
                None => format!("P{} you", p + 1),
            })
            .collect();
        let text = format!(
            "Fabfib: {} ({} life each, seed {}). A call holds when the hand is worth {} it.\n\
             Answer a call with 1000 or three digits that never rise (like 876), a doubt \
             with d or a, a discard with the digits to throw (like 65, or all{}); q quits.",
            seats.join(", "),
            self.rules.life,
            seed,
            if self.rules.exact {
                "exactly"
            } else {
                "at least"
            },
            if self.rules.zero_discard {
                ", or - for none"
            } else {
                ""
            },
        );
        self.line(&text)
    }

    /// Asks until `parse` accepts an answer; `None` when the person quits or the input
    /// ends.
    fn ask<T>(
        &mut self,
        prompt: &str,
        mut parse: impl FnMut(&str) -> std::result::Result<T, String>,
    ) -> std::result::Result<T, Stop> {
        if let Some(e) = self.failed.take() {
            return Err(Stop::Failed(e));
        }
        loop {
            write!(self.out, "{prompt} ")
                .and_then(|()| self.out.flush())
                .map_err(|source| Error::Write { source })?;
            let Some(answer) = self.read_line()? else {
                self.line("")?;
                return Err(Stop::Quit);
            };
            if answer == "q" || answer == "quit" {
                return Err(Stop::Quit);
            }
            match parse(&answer) {
                Ok(x) => return Ok(x),
                Err(message) => self.line(&message)?,
            }
        }
    }

    /// One line of input, trimmed; `None` at the end of the input.
    fn read_line(&mut self) -> Result<Option<String>> {
        let what = || self.what.clone();
        self.input.next_line().map_err(|e| match e {
            LineError::Read(source) => Error::Read {
                what: what(),
                source,
            },
            LineError::TooLong { max, .. } => Error::LineTooLong {
                what: what(),
                limit: max,
            },
            LineError::NotText { line } => Error::NotText { what: what(), line },
        })
    }

    fn tell(&mut self, text: String) {
        if self.failed.is_none() {
            if let Err(source) = writeln!(self.out, "{text}") {
                self.failed = Some(Error::Write { source });
            }
        }
    }
}

/// The person's call: a call above the previous one.
fn parse_my_call(answer: &str, previous: Option<u16>) -> std::result::Result<u16, String> {
    let call = parse_call(answer, "your call").map_err(|e| e.to_string())?;
    match previous {
        Some(p) if call <= p => Err(format!(
            "{call} is not above {p}: a call must be higher than the call you accepted"
        )),
        _ => Ok(call),
    }
}

/// The person's discard: digits of the hand (or `all`, or `-` for none), as a mask of
/// hand positions.
fn parse_my_discard(
    answer: &str,
    hand: &[Card; 3],
    rules: &Rules,
) -> std::result::Result<u8, String> {
    let digits: Vec<u8> = match answer {
        "all" => hand.map(digit).to_vec(),
        "-" => Vec::new(),
        text => parse_digits(text, "your discard").map_err(|e| e.to_string())?,
    };
    if digits.len() > 3 {
        return Err(Error::DiscardTooLarge {
            discard: discard_list(&digits),
        }
        .to_string());
    }
    if (digits.len() as u32) < rules.min_discard() {
        return Err(Error::EmptyDiscard.to_string());
    }
    let mut mask = 0u8;
    for &d in &digits {
        match (0..3).find(|&i| mask >> i & 1 == 0 && digit(hand[i]) == d) {
            Some(i) => mask |= 1 << i,
            None => {
                return Err(Error::NotInHand {
                    discard: discard_list(&digits),
                    hand: format_digits(&hand.map(digit)),
                }
                .to_string())
            }
        }
    }
    Ok(mask)
}

fn show(hand: &[Card; 3]) -> String {
    format!("{} = {}", format_cards(hand), hand_value(hand))
}

impl<R: BufRead, W: Write> Seats for Person<'_, '_, R, W> {
    type Stop = Stop;

    fn call(
        &mut self,
        seat: usize,
        view: &CallView,
        rng: &mut Rng,
    ) -> std::result::Result<u16, Stop> {
        match self.seats[seat] {
            Some(s) => Ok(s.caller.call(view, rng)),
            None => {
                let prompt = match view.previous {
                    None => format!("You hold {}. Your call:", show(&view.hand)),
                    Some(p) => format!("You hold {}. Your call (above {p}):", show(&view.hand)),
                };
                let previous = view.previous;
                self.ask(&prompt, |a| parse_my_call(a, previous))
            }
        }
    }

    fn discard(
        &mut self,
        seat: usize,
        view: &DiscardView,
        rng: &mut Rng,
    ) -> std::result::Result<u8, Stop> {
        match self.seats[seat] {
            Some(s) => Ok(s.discarder.discard(view, rng)),
            None => {
                let prompt = format!("You see {}. Throw which digits?", show(&view.hand));
                let (hand, rules) = (view.hand, self.rules);
                self.ask(&prompt, |a| parse_my_discard(a, &hand, &rules))
            }
        }
    }

    fn doubt(
        &mut self,
        seat: usize,
        view: &DoubtView,
        rng: &mut Rng,
    ) -> std::result::Result<bool, Stop> {
        match self.seats[seat] {
            Some(s) => Ok(s.doubter.doubt(view, rng)),
            None => {
                let prompt = format!(
                    "Doubt {} (the caller replaced {} card{})? d or a:",
                    view.call,
                    view.replaced,
                    if view.replaced == 1 { "" } else { "s" }
                );
                self.ask(&prompt, |a| match a {
                    "d" | "doubt" => Ok(true),
                    "a" | "accept" => Ok(false),
                    _ => Err(format!("{a:?}: answer d to doubt or a to accept")),
                })
            }
        }
    }
}

impl<R: BufRead, W: Write> Observer for Person<'_, '_, R, W> {
    const WANTS_EVENTS: bool = true;

    fn event(&mut self, event: Event) {
        let text = match &event {
            Event::RoundStart {
                round,
                starter,
                life,
            } => {
                let life: Vec<String> = life
                    .iter()
                    .enumerate()
                    .map(|(p, l)| format!("{}:{}", self.name(p), (*l).max(0)))
                    .collect();
                Some(format!(
                    "\nround {round}: {} start{}   life {}",
                    self.name(*starter),
                    if *starter == self.me { "" } else { "s" },
                    life.join(" ")
                ))
            }
            Event::Reshuffle { cards } => Some(format!(
                "(the deck is empty: {cards} discarded cards are shuffled in)"
            )),
            Event::Call {
                player, hand, call, ..
            } => {
                self.shown = Some(*hand);
                Some(format!(
                    "{} call{} {call}",
                    self.name(*player),
                    if *player == self.me { "" } else { "s" }
                ))
            }
            Event::Accept { player, .. } if *player != self.me => {
                Some(format!("{} accepts", self.name(*player)))
            }
            Event::Accept { .. } => None,
            Event::Replace {
                player,
                discarded,
                drawn,
                ..
            } => Some(if *player == self.me {
                format!(
                    "you throw {}, draw {}",
                    format_cards(discarded),
                    format_cards(drawn)
                )
            } else {
                format!(
                    "{} throws {} card{}",
                    self.name(*player),
                    discarded.len(),
                    if discarded.len() == 1 { "" } else { "s" }
                )
            }),
            Event::Doubt(d) => {
                let hand = self.shown.map_or_else(String::new, |h| format_cards(&h));
                Some(format!(
                    "{} {} {}: the hand is {} = {}, {}; {} lose{} {} life ({} left)",
                    self.name(d.doubter),
                    match (d.forced, d.doubter == self.me) {
                        (true, _) => "must doubt",
                        (false, true) => "doubt",
                        (false, false) => "doubts",
                    },
                    d.call,
                    hand,
                    d.value,
                    if d.call_true {
                        "the call holds"
                    } else {
                        "a lie"
                    },
                    self.name(d.loser),
                    if d.loser == self.me { "" } else { "s" },
                    d.loss,
                    d.life.max(0)
                ))
            }
            Event::Out { player } => Some(if *player == self.me {
                "you are out".to_string()
            } else {
                format!("{} is out", self.name(*player))
            }),
            Event::GameOver { winner, rounds } => Some(if *winner == self.me {
                format!("\nYou win after {rounds} rounds.")
            } else {
                format!("\n{} wins after {rounds} rounds.", self.name(*winner))
            }),
        };
        if let Some(text) = text {
            self.tell(text);
        }
        self.events.push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabfib::strategy::parse_strategies;

    fn setup(players: usize, seat: usize, seed: u64) -> Setup {
        Setup {
            rules: Rules::new(players).unwrap(),
            seat,
            opponents: parse_strategies(&vec!["article"; players - 1].join(",")).unwrap(),
            seed,
        }
    }

    fn run(setup: &Setup, script: &[u8]) -> (Result<Played>, String) {
        let mut out = Vec::new();
        let played = play(setup, script, "the script", &mut out);
        (played, String::from_utf8(out).unwrap())
    }

    /// Answers every question: `d` to a doubt, 1000 to a call (each is refused at the
    /// other question and the next line answers it). Such a player never discards.
    fn stubborn(lines: usize) -> Vec<u8> {
        "d\n1000\n".repeat(lines).into_bytes()
    }

    #[test]
    fn an_illegal_call_is_refused_with_the_reason_and_asked_again() {
        // P1 starts: its first answer, 678, is not a call; 1000 is.
        let (played, out) = run(&setup(3, 0, 2), b"678\n1000\nq\n");
        assert!(out.contains("your call \"678\" is not a call"), "{out}");
        assert!(out.contains("you call 1000"), "{out}");
        // After 1000 the next player must doubt.
        assert!(out.contains("P2 must doubt 1000"), "{out}");
        assert_eq!(played.unwrap().end, GameEnd::Abandoned);
    }

    #[test]
    fn a_call_not_above_the_one_accepted_is_refused() {
        // P2 accepts P1's call, throws everything, then tries 100, never above a call.
        let (_, out) = run(&setup(3, 1, 2), b"a\nall\n100\n1000\nq\n");
        let refused = out
            .lines()
            .find(|l| l.contains("100 is not above"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(refused.contains("a call must be higher than the call you accepted"));
        assert!(out.contains("you call 1000"), "{out}");
    }

    #[test]
    fn a_discard_of_cards_not_in_the_hand_is_refused() {
        let (_, out) = run(&setup(3, 1, 2), b"a\n5555\n\nall\nq\n");
        assert!(
            out.contains("cannot discard 5,5,5,5: a hand has only 3 cards"),
            "{out}"
        );
        assert!(out.contains("must discard 1 to 3 cards"), "{out}");
        assert!(out.contains("you throw "), "{out}");
    }

    #[test]
    fn a_scripted_game_is_played_to_its_winner_with_the_life_accounted() {
        let s = setup(3, 2, 7);
        let (played, out) = run(&s, &stubborn(400));
        let played = played.unwrap();
        let GameEnd::Finished { winner, won } = played.end else {
            panic!("the game should end: {out}");
        };
        assert_eq!(won, winner == 2);
        // Replay the life from the doubts alone: exactly one player is left, the winner.
        let mut life = [12i16; 3];
        for e in &played.events {
            if let Event::Doubt(d) = e {
                life[d.loser] -= i16::from(d.loss);
                assert_eq!(life[d.loser], d.life);
            }
        }
        let left: Vec<usize> = (0..3).filter(|&p| life[p] > 0).collect();
        assert_eq!(left, vec![winner]);
        assert!(
            out.contains("wins after") || out.contains("You win after"),
            "{out}"
        );
    }

    #[test]
    fn the_same_seed_and_answers_give_the_same_game() {
        let s = setup(4, 1, 11);
        let (_, a) = run(&s, &stubborn(400));
        let (_, b) = run(&s, &stubborn(400));
        assert_eq!(a, b);
        let (_, c) = run(&setup(4, 1, 12), &stubborn(400));
        assert_ne!(a, c);
    }

    #[test]
    fn an_endless_line_is_refused_after_a_few_kilobytes() {
        // An infinite line of x: reading it whole would never end.
        let endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let mut out = Vec::new();
        let e = play(&setup(3, 0, 1), endless, "standard input", &mut out).unwrap_err();
        assert!(
            matches!(
                e,
                Error::LineTooLong {
                    limit: MAX_LINE,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e
            .to_string()
            .starts_with("standard input: a line longer than 4096 bytes"));
    }

    #[test]
    fn input_that_is_not_utf8_is_refused_naming_where_it_came_from() {
        let mut out = Vec::new();
        let e = play(
            &setup(3, 0, 1),
            &b"\xff\xfe\n"[..],
            "standard input",
            &mut out,
        )
        .unwrap_err();
        assert!(matches!(e, Error::NotText { .. }));
        assert_eq!(
            e.to_string(),
            "standard input: the input is not valid UTF-8 text (line 1)"
        );
        assert_eq!(e.kind(), crate::fault::ErrorKind::Input);
    }

    #[test]
    fn a_seat_off_the_table_is_refused() {
        let mut s = setup(3, 0, 1);
        s.seat = 3;
        let e = play(&s, &b""[..], "the script", &mut Vec::new()).unwrap_err();
        assert_eq!(e.to_string(), "seat 4: the seats are 1 to 3");
    }
}
