//! Whole games checked event by event against an independent bookkeeping of the cards,
//! the life and the turn order; and the simulator's determinism across thread counts.

use std::collections::BTreeSet;
use tabula::fabfib::cards::{coins, hand_value, Card, DECK_SIZE, TOP};
use tabula::fabfib::events::Event;
use tabula::fabfib::replay::record;
use tabula::fabfib::rules::Rules;
use tabula::fabfib::simulate::{Report, Simulation};
use tabula::fabfib::strategy::parse_strategies;
use tabula::fabfib::tally::Tally;

fn sim(
    players: usize,
    strategies: &str,
    exact: bool,
    zero: bool,
    games: u64,
    seed: u64,
) -> Simulation {
    let rules = Rules {
        players,
        life: 12,
        exact,
        zero_discard: zero,
    };
    Simulation::new(rules, parse_strategies(strategies).unwrap(), games, seed).unwrap()
}

fn sorted(mut h: [Card; 3]) -> [Card; 3] {
    h.sort_unstable();
    h
}

/// Replays the events with its own bookkeeping and panics at the first inconsistency.
fn check_game(s: &Simulation, events: &[Event]) {
    let n = s.rules.players;
    let mut life = vec![s.rules.life; n];
    let mut draw: BTreeSet<Card> = (0..DECK_SIZE as Card).collect();
    let mut discard: BTreeSet<Card> = BTreeSet::new();
    let mut hand: Option<[Card; 3]> = None;
    let mut before_reshuffle: Option<BTreeSet<Card>> = None;
    let mut last_call: Option<u16> = None;
    let mut caller: Option<usize> = None;
    let mut rounds = 0;
    let mut expected_receiver: Option<usize> = None;
    let next_alive = |life: &[i16], from: usize| {
        let mut p = (from + 1) % n;
        while life[p] <= 0 {
            p = (p + 1) % n;
        }
        p
    };
    let take = |cards: &[Card], draw: &mut BTreeSet<Card>, before: &mut Option<BTreeSet<Card>>| {
        if let Some(old) = before.take() {
            assert!(
                old.iter().all(|c| cards.contains(c)),
                "the old pile was not used up first"
            );
        }
        for c in cards {
            assert!(draw.remove(c), "card {c} drawn but not in the draw pile");
        }
    };
    for e in events {
        match e {
            Event::RoundStart {
                starter, life: l, ..
            } => {
                rounds += 1;
                assert_eq!(l, &life);
                assert!(life[*starter] > 0, "a player who is out starts");
                assert!(hand.is_none());
                last_call = None;
                caller = None;
                expected_receiver = Some(*starter);
            }
            Event::Reshuffle { cards } => {
                assert_eq!(*cards, discard.len());
                before_reshuffle = Some(draw.clone());
                assert!(draw.len() < 3, "reshuffled with {} cards left", draw.len());
                draw.extend(discard.iter().copied());
                discard.clear();
            }
            Event::Call {
                player,
                hand: h,
                value,
                call,
                lie,
            } => {
                assert_eq!(Some(*player), expected_receiver, "the wrong player calls");
                if hand.is_none() {
                    take(h, &mut draw, &mut before_reshuffle);
                } else {
                    assert_eq!(hand.map(sorted), Some(sorted(*h)));
                }
                hand = Some(*h);
                assert_eq!(*value, hand_value(h));
                assert_eq!(*lie, !s.rules.call_is_true(*value, *call));
                assert!(last_call.is_none_or(|p| *call > p), "calls must rise");
                last_call = Some(*call);
                caller = Some(*player);
                expected_receiver = Some(next_alive(&life, *player));
            }
            Event::Accept { player, call } => {
                assert_eq!(Some(*player), expected_receiver);
                assert!(*call < TOP, "a call of 1000 must be doubted");
            }
            Event::Replace {
                player,
                received,
                discarded,
                drawn,
            } => {
                assert_eq!(Some(*player), expected_receiver);
                assert_eq!(Some(sorted(*received)), hand.map(sorted));
                assert_eq!(discarded.len(), drawn.len());
                let min = if s.rules.zero_discard { 0 } else { 1 };
                assert!((min..=3).contains(&discarded.len()));
                take(drawn, &mut draw, &mut before_reshuffle);
                let mut new: Vec<Card> = received
                    .iter()
                    .copied()
                    .filter(|c| !discarded.contains(c))
                    .collect();
                assert_eq!(
                    new.len() + discarded.len(),
                    3,
                    "discarded cards not in the hand"
                );
                new.extend(drawn);
                discard.extend(discarded.iter().copied());
                let mut h = [0; 3];
                h.copy_from_slice(&new);
                hand = Some(h);
            }
            Event::Doubt(tabula::fabfib::events::Showdown {
                doubter,
                caller: c,
                call,
                value,
                forced,
                call_true,
                loser,
                loss,
                life: l,
            }) => {
                assert_eq!(Some(*doubter), expected_receiver);
                assert_eq!(Some(*c), caller);
                assert_eq!(Some(*call), last_call);
                assert_eq!(*forced, *call == TOP);
                let h = hand.take().expect("a hand is on the table");
                assert_eq!(*value, hand_value(&h));
                assert_eq!(*call_true, s.rules.call_is_true(*value, *call));
                assert_eq!(*loser, if *call_true { *doubter } else { *c });
                let coins_shown: u8 = h.iter().map(|&x| coins(x)).sum();
                assert_eq!(*loss, coins_shown);
                assert!((3..=9).contains(loss));
                life[*loser] -= i16::from(*loss);
                assert_eq!(*l, life[*loser]);
                discard.extend(h);
            }
            Event::Out { player } => assert!(life[*player] <= 0),
            Event::GameOver { winner, rounds: r } => {
                assert_eq!(*r, rounds);
                let alive: Vec<usize> = (0..n).filter(|&p| life[p] > 0).collect();
                assert_eq!(alive, vec![*winner]);
            }
        }
        let in_hand = hand.map_or(0, |_| 3);
        assert!(draw.len() + discard.len() + in_hand <= DECK_SIZE);
    }
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
}

#[test]
fn every_game_keeps_the_cards_the_life_and_the_turn_order_straight() {
    let setups = [
        (2, "article", false, false),
        (3, "article", false, false),
        (3, "article,honest,odds", false, false),
        (
            4,
            "odds:0.3,article/best/article,honest/best/odds,article",
            true,
            false,
        ),
        (5, "article", false, true),
        (10, "honest", true, true),
        (2, "odds,honest/best/odds:0.6", false, true),
    ];
    for (players, strategies, exact, zero) in setups {
        let s = sim(players, strategies, exact, zero, 1, 42);
        for game in 0..60 {
            check_game(&s, &record(&s, game));
        }
    }
}

#[test]
fn the_simulators_counts_equal_the_replayed_games_counts() {
    let s = sim(3, "article,odds,honest", false, false, 300, 9);
    let stats = s.run(tabula::progress::Progress::SILENT);
    let (mut calls, mut lies, mut rounds, mut doubts) = (0u64, 0u64, 0u64, 0u64);
    let mut wins = [0u64; 3];
    for g in 0..300 {
        for e in record(&s, g) {
            match e {
                Event::Call { lie, .. } => {
                    calls += 1;
                    lies += u64::from(lie);
                }
                Event::RoundStart { .. } => rounds += 1,
                Event::Doubt(d) if !d.forced => doubts += 1,
                Event::GameOver { winner, .. } => wins[winner] += 1,
                _ => {}
            }
        }
    }
    let t = stats.total();
    assert_eq!(
        (t.calls, t.lies, stats.rounds, t.doubts),
        (calls, lies, rounds, doubts)
    );
    assert_eq!(
        [
            stats.seats[0].wins,
            stats.seats[1].wins,
            stats.seats[2].wins
        ],
        wins
    );
    assert_eq!(stats.games, 300);
}

fn run_in_pool(threads: usize, s: &Simulation) -> Tally {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| s.run(tabula::progress::Progress::SILENT))
}

#[test]
fn the_same_seed_gives_the_same_results_on_one_or_two_threads() {
    let s = sim(3, "article,odds,honest", false, false, 9_000, 5);
    let one = run_in_pool(1, &s);
    let two = run_in_pool(2, &s);
    assert_eq!(one, two);
    let a = serde_json::to_string(&Report::new(&s, &one)).unwrap();
    let b = serde_json::to_string(&Report::new(&s, &two)).unwrap();
    assert_eq!(a, b);
    let other = run_in_pool(2, &sim(3, "article,odds,honest", false, false, 9_000, 6));
    assert_ne!(one, other, "another seed should give other games");
}

#[test]
fn seats_with_the_same_strategy_win_alike_and_the_odds_doubter_beats_the_article_set() {
    // The first round's starter rotates with the game number, so identical strategies
    // share the wins; 30,000 games put each rate within a few points of 1/3.
    let s = sim(3, "article", false, false, 30_000, 1);
    let st = s.run(tabula::progress::Progress::SILENT);
    for seat in &st.seats[..3] {
        let r = seat.wins as f64 / 30_000.0;
        assert!((r - 1.0 / 3.0).abs() < 0.02, "{r}");
    }
    // Doubting by the exact odds wins more often than the article's doubt index.
    let s = sim(3, "odds,article,article", false, false, 30_000, 2);
    let st = s.run(tabula::progress::Progress::SILENT);
    assert!(
        st.seats[0].wins as f64 / 30_000.0 > 0.36,
        "{:?}",
        st.seats[0]
    );
}

/// Counts the value of the first call of each game: with honest callers it is the value
/// of a hand dealt from the full deck.
#[derive(Default)]
struct FirstCalls {
    fresh: bool,
    at_least_900: u64,
    at_least_800: u64,
    games: u64,
}

impl tabula::fabfib::events::Observer for FirstCalls {
    fn on_call(&mut self, _player: usize, call: u16, _lie: bool) {
        if self.fresh {
            self.at_least_900 += u64::from(call >= 900);
            self.at_least_800 += u64::from(call >= 800);
            self.games += 1;
            self.fresh = false;
        }
    }
}

#[test]
fn the_first_hand_of_a_game_follows_the_exact_fresh_hand_odds() {
    use tabula::fabfib::engine::Game;
    use tabula::fabfib::odds::{reach, Pool};
    let rules = Rules::new(3).unwrap();
    let strategies = parse_strategies("honest,honest,honest").unwrap();
    let seats: Vec<_> = strategies.iter().collect();
    let table = Game::new(&rules, &seats);
    let mut obs = FirstCalls::default();
    let n = 20_000u64;
    for g in 0..n {
        obs.fresh = true;
        table.play(0, &mut tabula::random::stream(77, g), &mut obs);
    }
    assert_eq!(obs.games, n);
    for (hits, target) in [(obs.at_least_900, 900), (obs.at_least_800, 800)] {
        let p = reach(&[], &Pool::full(), target, false).float();
        let observed = hits as f64 / n as f64;
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (observed - p).abs() < 4.0 * sd,
            "{target}: {observed} vs {p}"
        );
    }
}

#[test]
fn a_game_with_a_person_at_the_table_keeps_the_cards_and_the_life_straight() {
    use tabula::fabfib::session::{play, GameEnd, Setup};
    // A person who accepts and throws everything while the hand is low, otherwise doubts,
    // and calls 1000: the script answers each question, the refused lines are re-asked.
    let script = "a\nall\n1000\nd\n".repeat(300);
    for (players, seat, seed) in [(2, 0, 1), (3, 1, 4), (5, 4, 9)] {
        let s = sim(players, "article", false, false, 1, seed);
        let setup = Setup {
            rules: s.rules,
            seat,
            opponents: parse_strategies(&vec!["article"; players - 1].join(",")).unwrap(),
            seed,
        };
        let mut out = Vec::new();
        let played = play(&setup, script.as_bytes(), "the script", &mut out).unwrap();
        assert!(
            matches!(played.end, GameEnd::Finished { .. }),
            "{}",
            String::from_utf8_lossy(&out)
        );
        check_game(&s, &played.events);
    }
}
