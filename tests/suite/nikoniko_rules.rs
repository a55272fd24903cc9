//! The rules of `spec/nikoniko.md`, one test (at least) a rule.

use crate::common::niko::{index, notation, parse_position, parse_roll, variant};
use tabula::gammon::moves::{win_points, Generator, Play};

fn plays(position: &str, roll: &str) -> Vec<Play> {
    let p = parse_position(position).unwrap();
    Generator::new(&variant()).plays(&p, parse_roll(roll).unwrap())
}

/// The points a winning play scores.
fn score(play: &Play) -> u32 {
    assert!(play.wins());
    win_points(&variant(), play.after.them())
}

/// The positions after each play, sorted.
fn results(position: &str, roll: &str) -> Vec<String> {
    let mut r: Vec<String> = plays(position, roll)
        .iter()
        .map(|p| notation(&p.after))
        .collect();
    r.sort();
    r
}

#[test]
fn a_zero_zero_roll_moves_nothing() {
    let ps = plays("8,8,5,2,2/8,8,5,2,2", "0-0");
    assert_eq!(ps.len(), 1);
    assert!(ps[0].is_pass());
    assert_eq!(notation(&ps[0].after), "8,8,5,2,2/8,8,5,2,2");
}

#[test]
fn a_checker_on_the_bar_facing_a_closed_board_passes() {
    // The opponent holds its points 1 and 2, our entry points 8 and 7.
    for roll in ["0-1", "0-2", "1-1", "1-2", "2-2"] {
        let ps = plays("bar,2,2,1,1/2,2,1,1,5", roll);
        assert_eq!(ps.len(), 1, "{roll}");
        assert!(ps[0].is_pass(), "{roll}");
    }
}

#[test]
fn the_bar_enters_before_any_other_checker_moves() {
    assert_eq!(
        results("bar,5/8,8", "1-2"),
        vec!["6,5/8,8", "7,4/8,8", "8,3/8,8"]
    );
    // Entering with a 1 lands on point 8, with a 2 on point 7.
    assert_eq!(results("bar,5/8,8", "0-1"), vec!["8,5/8,8"]);
    assert_eq!(results("bar,5/8,8", "0-2"), vec!["7,5/8,8"]);
}

#[test]
fn entering_on_a_blot_hits_it() {
    // The opponent's point 1 is our entry point 8.
    assert_eq!(results("bar,5/8,8,1", "0-1"), vec!["8,5/bar,8,8"]);
}

#[test]
fn a_hit_sends_the_blot_to_its_bar() {
    // Our 5 → 4 lands on the opponent's point 5, where its single checker stands.
    assert_eq!(results("5/5,1", "0-1"), vec!["4/bar,1"]);
}

#[test]
fn a_point_with_two_opposing_checkers_is_blocked() {
    // The opponent holds its point 5 (our 4): a 1 from our 5 cannot land there, and the
    // checker on 1 may not bear off while 5 is outside: the roll passes.
    let ps = plays("5,1/5,5,1", "0-1");
    assert_eq!(ps.len(), 1);
    assert!(ps[0].is_pass());
}

#[test]
fn no_checker_bears_off_while_one_is_outside_home() {
    assert_eq!(results("3,1/5,5", "0-1"), vec!["2,1/5,5"]);
}

#[test]
fn bearing_off_is_exact_or_with_a_larger_die_from_the_highest_point_only() {
    // Nothing on point 2: the checker on 1 may use a 2.
    assert_eq!(results("1,1/6", "0-2"), vec!["1/6"]);
    // A checker on 2: the 2 must bear that one off, not the one on 1.
    assert_eq!(results("2,1/6", "0-2"), vec!["1/6"]);
    // A 1 cannot bear off from point 2.
    assert_eq!(results("2,2/6", "0-1"), vec!["2,1/6"]);
}

#[test]
fn as_many_dice_as_possible_must_be_used() {
    // Our point 3 is blocked (the opponent's 6): 5/4 4/2 uses both dice, so neither
    // single-die play (5/4 alone) is allowed.
    assert_eq!(results("5/6,6,1", "1-2"), vec!["2/6,6,1"]);
}

#[test]
fn when_only_one_die_of_one_two_can_be_used_it_must_be_the_two() {
    // Our point 2 is blocked (the opponent's 7): 5/4 or 5/3, not both; the 2 wins.
    assert_eq!(results("5/7,7,1,1,1", "1-2"), vec!["3/7,7,1,1,1"]);
}

#[test]
fn the_smaller_die_is_played_when_the_larger_cannot_be() {
    // Our points 2 and 1 are held (their 7 and 8): 4/2 is blocked, 4/3 is open, and
    // after it 3/1 is blocked too, so the 1 alone is played.
    assert_eq!(results("4/8,8,7,7,1", "1-2"), vec!["3/8,8,7,7,1"]);
}

#[test]
fn doubles_are_played_four_times() {
    assert_eq!(results("8/8", "1-1"), vec!["4/8"]);
    // Four moves, each of a different checker or the same one.
    let ps = plays("8,6,5/8,8", "1-1");
    assert!(ps.len() > 3);
    assert!(ps.iter().all(|p| p.steps().len() == 4));
    assert!(ps.iter().all(|p| p.after.pips()[0] == 15));
    // From the opening, 8/7 and 2/1 are blocked: 5/4* 4/3 3/2 uses three 1s and no
    // fourth can be played.
    assert_eq!(
        results("8,8,5,2,2/8,8,5,2,2", "1-1"),
        vec!["8,8,2,2,2/bar,8,8,2,2"]
    );
}

#[test]
fn bearing_off_the_last_checker_ends_the_game_and_uses_all_dice() {
    let ps = plays("1/6", "1-1");
    assert_eq!(ps.len(), 1);
    assert!(ps[0].wins());
    assert_eq!(ps[0].steps().len(), 1);
    assert_eq!(notation(&ps[0].after), "/6");
}

#[test]
fn a_win_scores_single_gammon_or_backgammon() {
    // The loser has borne off a checker: 1 point.
    assert_eq!(score(&plays("1/6,6,6,6", "0-1")[0]), 1);
    // None borne off, all outside the winner's home: gammon.
    assert_eq!(score(&plays("1/6,6,6,6,6", "0-1")[0]), 2);
    // None borne off and one in the winner's home board (the loser's 7 or 8): backgammon.
    assert_eq!(score(&plays("1/7,6,6,6,6", "0-1")[0]), 3);
    // ... or on its bar.
    assert_eq!(score(&plays("1/bar,6,6,6,6", "0-1")[0]), 3);
}

#[test]
fn plays_are_distinct_positions() {
    let ps = plays("8,8,5,2,2/8,8,5,2,2", "2-2");
    for (i, a) in ps.iter().enumerate() {
        for b in &ps[i + 1..] {
            assert_ne!(a.after, b.after);
        }
    }
    assert!(ps.len() > 1);
}

#[test]
fn the_opening_one_two_has_these_plays() {
    // By hand: the opponent holds our 7 and 1 (its 2 and 8) and has a blot on our 4 (its
    // 5); nothing bears off while 8 and 5 are outside. 8/6 6/5, 8/6 5/4*, 5/3 3/2 and
    // 5/4* 4/2 are the distinct plays (8/7 and 2/1 are blocked).
    assert_eq!(
        results("8,8,5,2,2/8,8,5,2,2", "1-2"),
        vec![
            "8,5,5,2,2/8,8,5,2,2",
            "8,6,4,2,2/bar,8,8,2,2",
            "8,8,2,2,2/8,8,5,2,2",
            "8,8,2,2,2/bar,8,8,2,2",
        ]
    );
}

#[test]
fn the_pruned_search_finds_the_same_plays_in_the_same_order_as_trying_every_order() {
    let v = variant();
    let mut fast = Generator::new(&v);
    let mut slow = Generator::unpruned(&v);
    let mut checked = 0;
    for p in index().all_states().iter().step_by(11) {
        for &roll in &v.rolls().moving {
            assert_eq!(
                fast.plays(p, roll),
                slow.plays(p, roll),
                "{} {roll}",
                notation(p)
            );
        }
        checked += 1;
    }
    assert!(checked > 100_000);
}

#[test]
#[ignore = "exhaustive (every state tried by hand); .ci/run runs it"]
fn a_roll_passes_exactly_when_no_checker_can_move_by_either_die() {
    use tabula::gammon::moves::{play_statistics, step};
    let v = variant();
    let states = index().all_states();
    let can = |p: &tabula::gammon::Position, die: u8| {
        (1..=9).any(|from| step(&v, p, from, die).is_some())
    };
    let (mut no_one, mut no_two, mut neither) = (0u64, 0u64, 0u64);
    for p in &states {
        let (one, two) = (can(p, 1), can(p, 2));
        no_one += u64::from(!one);
        no_two += u64::from(!two);
        neither += u64::from(!one && !two);
    }
    let stats = play_statistics(&v, &states);
    // The rolls in order: 0-0, 0-1, 0-2, 1-1, 1-2, 2-2.
    let passes: Vec<u64> = stats.iter().map(|s| s.passes).collect();
    assert_eq!(
        passes,
        vec![states.len() as u64, no_one, no_two, no_one, neither, no_two]
    );
    assert_eq!(
        passes,
        vec![1_106_945, 69_385, 76_800, 69_385, 3_250, 76_800]
    );
}
