//! Numeron's exact figures, each checked against a second, independent method: the seed's
//! own trace, a naive replay of every secret, naive heuristics scoring every guess
//! with no symmetry, and a brute-force optimum with neither bounds nor symmetry.

use std::collections::{BTreeMap, HashMap};
use tabula::numeron::optimal::{Search, INF};
use tabula::numeron::root::{solve_root, Objective, RootReport};
use tabula::numeron::session::trace;
use tabula::numeron::{Analysis, AnswerTable, Engine, Node, Player, Rules, Space, Strategy};
use tabula::progress::Progress;

/// EAT and BITE position by position, as the seed counts them.
pub(crate) fn naive_answer(g: &[u8], s: &[u8]) -> (usize, usize) {
    let eat = g.iter().zip(s).filter(|(a, b)| a == b).count();
    let common: usize = (0..10u8)
        .map(|d| {
            let cg = g.iter().filter(|&&x| x == d).count();
            let cs = s.iter().filter(|&&x| x == d).count();
            cg.min(cs)
        })
        .sum();
    (eat, common - eat)
}

/// The library's fewest secrets at its least worst case, searched to the end.
pub(crate) fn fewest_at_worst(engine: &Engine) -> RootReport {
    solve_root(
        engine,
        false,
        Objective::FewestAtWorst,
        None,
        Progress::SILENT,
    )
    .unwrap()
}

/// Every code of the rules, in ascending numeric order, built without the rankers.
pub(crate) fn naive_codes(rules: Rules) -> Vec<Vec<u8>> {
    let a = rules.alphabet as u64;
    let n = rules.digits;
    (0..a.pow(n as u32))
        .map(|mut x| {
            let mut v = vec![0u8; n];
            for slot in v.iter_mut().rev() {
                *slot = (x % a) as u8;
                x /= a;
            }
            v
        })
        .filter(|v| rules.repeats || (0..n).all(|i| !v[..i].contains(&v[i])))
        .collect()
}

/// The seed's T2' played against every secret: guess the first code left, keep the codes
/// that give the same reply. The secrets that got the same replies so far share the codes
/// left, so they are replayed together (the codes split by each reply), in the order
/// given: the same guesses as one secret at a time, without the ranks or the answer table.
fn naive_first_histogram(rules: Rules) -> BTreeMap<u32, u64> {
    fn replay(codes: &[Vec<u8>], left: Vec<usize>, count: u32, h: &mut BTreeMap<u32, u64>) {
        let guess = &codes[left[0]];
        let mut by_reply: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for c in left {
            by_reply
                .entry(naive_answer(guess, &codes[c]))
                .or_default()
                .push(c);
        }
        for (reply, secrets) in by_reply {
            if reply.0 == guess.len() {
                *h.entry(count).or_insert(0) += secrets.len() as u64;
            } else {
                replay(codes, secrets, count + 1, h);
            }
        }
    }
    let codes = naive_codes(rules);
    let mut h = BTreeMap::new();
    replay(&codes, (0..codes.len()).collect(), 1, &mut h);
    h
}

/// A heuristic with no symmetry and no table: every allowed guess scored from scratch.
fn naive_heuristic(strategy: Strategy, codes: &[Vec<u8>], set: &[usize], hard: bool) -> usize {
    if set.len() <= 2 {
        return set[0];
    }
    let pool: Vec<usize> = if hard {
        set.to_vec()
    } else {
        (0..codes.len()).collect()
    };
    let n = codes[0].len();
    let mut scored = Vec::new();
    for g in pool {
        let mut classes: HashMap<(usize, usize), u32> = HashMap::new();
        for &s in set {
            *classes
                .entry(naive_answer(&codes[g], &codes[s]))
                .or_insert(0) += 1;
        }
        let consistent = set.contains(&g);
        let score = match strategy {
            Strategy::Minimax => -f64::from(
                classes
                    .iter()
                    .filter(|(a, _)| a.0 != n)
                    .map(|(_, &c)| c)
                    .max()
                    .unwrap_or(0),
            ),
            Strategy::Parts => classes.len() as f64,
            _ => {
                let total = set.len() as f64;
                -classes
                    .values()
                    .map(|&c| {
                        let p = f64::from(c) / total;
                        p * p.ln()
                    })
                    .sum::<f64>()
            }
        };
        scored.push((score, consistent, g));
    }
    let best = scored.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
    let eps = if strategy == Strategy::Entropy {
        1e-9
    } else {
        0.0
    };
    scored
        .iter()
        .filter(|x| x.0 >= best - eps)
        .min_by_key(|x| (!x.1, x.2))
        .unwrap()
        .2
}

fn naive_tree_histogram(strategy: Strategy, rules: Rules, hard: bool) -> BTreeMap<u32, u64> {
    let codes = naive_codes(rules);
    let mut h = BTreeMap::new();
    fn walk(
        strategy: Strategy,
        codes: &[Vec<u8>],
        set: Vec<usize>,
        depth: u32,
        hard: bool,
        h: &mut BTreeMap<u32, u64>,
    ) {
        let g = naive_heuristic(strategy, codes, &set, hard);
        let mut classes: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for s in set {
            classes
                .entry(naive_answer(&codes[g], &codes[s]))
                .or_default()
                .push(s);
        }
        for (a, class) in classes {
            if a.0 == codes[0].len() {
                *h.entry(depth).or_insert(0) += 1;
            } else {
                walk(strategy, codes, class, depth + 1, hard, h);
            }
        }
    }
    walk(
        strategy,
        &codes,
        (0..codes.len()).collect(),
        1,
        hard,
        &mut h,
    );
    h
}

fn analysis(rules: Rules, strategy: Strategy, hard: bool) -> Analysis {
    let engine = Engine::new(rules, strategy).unwrap();
    Analysis::of_tree(&engine.tree(strategy, hard, false).unwrap())
}

#[test]
fn the_seed_trace_for_719_is_reproduced_guess_by_guess() {
    let engine = Engine::new(Rules::new(3), Strategy::First).unwrap();
    let oracle = engine.oracle();
    let secret = engine.space.parse("719").unwrap();
    let steps = trace(&oracle, secret, |set, _| Ok(set[0])).unwrap();
    let guesses: Vec<String> = steps.iter().map(|s| engine.space.format(s.guess)).collect();
    assert_eq!(guesses, ["012", "034", "516", "572", "718", "719"]);
    let left: Vec<usize> = steps.iter().map(|s| s.left).collect();
    assert_eq!(left, [126, 40, 9, 4, 1, 1]);
    let answers: Vec<String> = steps.iter().map(|s| s.answer.to_string()).collect();
    assert_eq!(answers, ["1E0B", "0E0B", "1E0B", "0E1B", "2E0B", "3E0B"]);
}

#[test]
fn the_first_strategy_tree_matches_a_naive_replay_of_every_secret() {
    for rules in [
        Rules::new(1),
        Rules::new(2),
        Rules::new(3),
        Rules::new(4),
        Rules::new(3).with_repeats(true),
    ] {
        let a = analysis(rules, Strategy::First, false);
        assert_eq!(a.histogram, naive_first_histogram(rules), "{rules:?}");
    }
    let a = analysis(Rules::new(3), Strategy::First, false);
    assert_eq!((a.secrets, a.total, a.max), (720, 3792, 9));
    assert_eq!(a.mean(), num_rational::Ratio::new(79, 15));
}

#[test]
fn heuristics_scored_per_orbit_agree_with_scoring_every_guess_naively() {
    for strategy in [Strategy::Minimax, Strategy::Parts, Strategy::Entropy] {
        for hard in [false, true] {
            // With repeats, guesses whose dead colours differ are scored once.
            for rules in [
                Rules::new(3),
                Rules::new(3).with_alphabet(6),
                Rules::mastermind(3, 5),
            ] {
                let a = analysis(rules, strategy, hard);
                assert_eq!(
                    a.histogram,
                    naive_tree_histogram(strategy, rules, hard),
                    "{strategy} hard={hard} {rules:?}"
                );
            }
        }
    }
}

/// The least total number of guesses by plain recursion over every guess, memoised on the
/// exact set only: no bounds, no symmetry, no partition deduplication.
fn brute_total(
    codes: &[Vec<u8>],
    set: Vec<usize>,
    depth: u32,
    hard: bool,
    memo: &mut HashMap<(Vec<usize>, u32), u32>,
) -> u32 {
    if set.len() == 1 {
        return if depth >= 1 { 1 } else { INF };
    }
    if depth == 0 {
        return INF;
    }
    if let Some(&v) = memo.get(&(set.clone(), depth)) {
        return v;
    }
    let n = codes[0].len();
    let pool: Vec<usize> = if hard {
        set.clone()
    } else {
        (0..codes.len()).collect()
    };
    let mut best = INF;
    for g in pool {
        let mut classes: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for &s in &set {
            classes
                .entry(naive_answer(&codes[g], &codes[s]))
                .or_default()
                .push(s);
        }
        if classes.len() == 1 && !set.contains(&g) {
            continue;
        }
        let mut total = set.len() as u32;
        for (a, class) in classes {
            if a.0 != n {
                total = total.saturating_add(brute_total(codes, class, depth - 1, hard, memo));
            }
        }
        best = best.min(total.min(INF));
    }
    memo.insert((set, depth), best);
    best
}

#[test]
#[ignore = "exhaustive (brute force on eight rule sets); .ci/run runs it"]
fn the_exact_search_agrees_with_brute_force_on_small_alphabets() {
    let cases = [
        Rules::new(2).with_alphabet(4),
        Rules::new(2).with_alphabet(5),
        Rules::new(3).with_alphabet(4),
        Rules::new(3).with_alphabet(5),
        Rules::new(2).with_alphabet(3).with_repeats(true),
        Rules::new(2).with_alphabet(4).with_repeats(true),
        Rules::new(2).with_alphabet(6),
        Rules::new(3).with_alphabet(4).with_repeats(true),
        Rules::mastermind(2, 4),
        Rules::mastermind(3, 3),
    ];
    for rules in cases {
        check_against_brute_force(rules);
    }
}

/// 120 codes: about four minutes of brute force (least total, least worst case, fewest
/// secrets at the worst case), so only on demand (`-- --ignored`).
#[test]
#[ignore]
fn the_exact_search_agrees_with_brute_force_on_three_of_six_digits() {
    check_against_brute_force(Rules::new(3).with_alphabet(6));
}

fn check_against_brute_force(rules: Rules) {
    {
        let codes = naive_codes(rules);
        let space = Space::new(rules).unwrap();
        let table = AnswerTable::build(&space).unwrap();
        let all: Vec<u32> = (0..space.len() as u32).collect();
        for hard in [false, true] {
            let mut memo = HashMap::new();
            let unlimited = codes.len() as u32;
            let brute = brute_total(
                &codes,
                (0..codes.len()).collect(),
                unlimited,
                hard,
                &mut memo,
            );
            let search = Search::new(&space, &table, hard).unwrap();
            assert_eq!(
                search.optimum(&all, &[], unlimited).unwrap(),
                brute,
                "{rules:?} hard={hard}"
            );
            let worst = search.min_worst(&all, &[]).unwrap();
            let brute_worst = (1..=unlimited)
                .find(|&d| {
                    brute_total(&codes, (0..codes.len()).collect(), d, hard, &mut memo) < INF
                })
                .unwrap();
            assert_eq!(worst, brute_worst, "{rules:?} hard={hard}");
            assert_eq!(
                search.optimum(&all, &[], worst).unwrap(),
                brute_total(&codes, (0..codes.len()).collect(), worst, hard, &mut memo),
                "{rules:?} hard={hard} capped"
            );
            if !hard {
                let mut last = HashMap::new();
                assert_eq!(
                    search.fewest_last(&all, &[], worst).unwrap(),
                    brute_last(&codes, (0..codes.len()).collect(), worst, &mut last),
                    "{rules:?} fewest at the worst case"
                );
            }
        }
    }
}

/// The fewest secrets that must wait for the `depth`-th guess when every secret is found
/// within `depth` guesses, by plain recursion over every guess ([`INF`] when impossible),
/// memoised on the exact set only.
fn brute_last(
    codes: &[Vec<u8>],
    set: Vec<usize>,
    depth: u32,
    memo: &mut HashMap<(Vec<usize>, u32), u32>,
) -> u32 {
    if set.is_empty() {
        return 0;
    }
    if depth == 0 {
        return INF;
    }
    if depth == 1 {
        return if set.len() == 1 { 1 } else { INF };
    }
    if let Some(&v) = memo.get(&(set.clone(), depth)) {
        return v;
    }
    let n = codes[0].len();
    let mut best = INF;
    for g in 0..codes.len() {
        let mut classes: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for &s in &set {
            classes
                .entry(naive_answer(&codes[g], &codes[s]))
                .or_default()
                .push(s);
        }
        if classes.len() == 1 && !set.contains(&g) {
            continue;
        }
        let mut total = 0u32;
        for (a, class) in classes {
            if a.0 != n {
                total = total.saturating_add(brute_last(codes, class, depth - 1, memo));
            }
        }
        best = best.min(total.min(INF));
    }
    memo.insert((set, depth), best);
    best
}

#[test]
fn the_fewest_secrets_at_the_least_worst_case_agree_with_brute_force() {
    for rules in [
        Rules::new(2).with_alphabet(4),
        Rules::new(2).with_alphabet(5),
        Rules::new(3).with_alphabet(4),
        Rules::mastermind(2, 3),
        Rules::mastermind(2, 4),
        Rules::mastermind(3, 3),
    ] {
        let codes = naive_codes(rules);
        let space = Space::new(rules).unwrap();
        let table = AnswerTable::build(&space).unwrap();
        let all: Vec<u32> = (0..space.len() as u32).collect();
        let search = Search::new(&space, &table, false).unwrap();
        let worst = search.min_worst(&all, &[]).unwrap();
        let mut memo = HashMap::new();
        let brute = brute_last(&codes, (0..codes.len()).collect(), worst, &mut memo);
        assert!(brute > 0 && brute < INF, "{rules:?}");
        // One fewer guess cannot find them all.
        assert_eq!(
            brute_last(&codes, (0..codes.len()).collect(), worst - 1, &mut memo),
            INF
        );
        assert_eq!(
            search.fewest_last(&all, &[], worst).unwrap(),
            brute,
            "{rules:?}"
        );
        // The greedy strategy is achievable, so never below.
        let greedy = search.last_greedy(&all, &[], worst).unwrap().unwrap();
        assert!(greedy >= brute, "{rules:?}");
        // Class by class below the best first guess, as the command reports it.
        let engine = Engine::new(rules, Strategy::Optimal).unwrap();
        let r = fewest_at_worst(&engine);
        assert_eq!(
            (r.worst, r.lower, r.upper),
            (Some(worst), u64::from(brute), u64::from(brute))
        );
    }
}

/// The published figures of classic Bulls and Cows (5,040 secrets), about half a minute.
#[test]
#[ignore = "about half a minute: the 4-digit optimum; .ci/run runs it"]
fn four_distinct_digits_take_26274_guesses_at_best_and_seven_at_worst() {
    let engine = Engine::new(Rules::new(4), Strategy::Optimal).unwrap();
    let total = solve_root(&engine, false, Objective::Total, None, Progress::SILENT).unwrap();
    assert!(total.exact);
    assert_eq!((total.lower, total.upper), (26274, 26274));
    assert_eq!(engine.space.format(total.first_guess), "0123");
    let worst = solve_root(&engine, false, Objective::Worst, None, Progress::SILENT).unwrap();
    assert_eq!((worst.lower, worst.upper), (7, 7));
    // Only the classes 0E1B (1,440) and 0E2B (1,260) of 0123 need a seventh guess.
    let seven: Vec<usize> = worst
        .per_class
        .iter()
        .filter(|c| c.lower == 6)
        .map(|c| c.size)
        .collect();
    assert_eq!(seven, [1260, 1440]);
}

/// The moonshot of issue 29: among the strategies that find every 4-digit secret within
/// seven guesses, the fewest secrets that need the seventh. The best strategy published
/// has 50; the search proves that none has fewer (4 below 0123's class 0E2B, 46 below
/// 0E1B). About a minute and a half of processor time.
#[test]
#[ignore = "a minute and a half: the fewest 4-digit secrets at the seventh guess; .ci/run skips it \
            for time, run it with --ignored"]
fn at_most_seven_guesses_leave_at_least_50_secrets_to_the_seventh_and_50_is_reached() {
    let engine = Engine::new(Rules::new(4), Strategy::Optimal).unwrap();
    let r = fewest_at_worst(&engine);
    assert!(r.exact);
    assert_eq!((r.worst, r.lower, r.upper), (Some(7), 50, 50));
    let at_seventh: Vec<_> = r
        .per_class
        .iter()
        .filter(|c| c.upper > 0)
        .map(|c| (c.size, c.lower, c.upper))
        .collect();
    assert_eq!(at_seventh, [(1260, 4, 4), (1440, 46, 46)]);
}

/// Mastermind with seven colours (2,401 secrets): 11,228 guesses at best, ten seconds.
#[test]
#[ignore = "ten seconds: four pegs of seven colours; .ci/run runs it"]
fn four_pegs_of_seven_colours_take_11228_guesses_at_best() {
    let engine = Engine::new(Rules::mastermind(4, 7), Strategy::Optimal).unwrap();
    let total = solve_root(&engine, false, Objective::Total, None, Progress::SILENT).unwrap();
    assert_eq!((total.lower, total.upper), (11228, 11228));
    assert_eq!(engine.space.format(total.first_guess), "1123");
}

/// Plays each secret down the tree with naive answers; returns the histogram.
fn replay(space: &Space, root: &Node) -> BTreeMap<u32, u64> {
    let mut h = BTreeMap::new();
    for secret in 0..space.len() as u32 {
        let s = space.digits_of(secret);
        let mut node = root;
        let mut depth = 1;
        loop {
            let (eat, bite) = naive_answer(&space.digits_of(node.guess), &s);
            if eat == space.digits() {
                break;
            }
            let code = (eat * (space.digits() + 1) + bite) as u8;
            node = &node.branches.iter().find(|(a, _)| *a == code).unwrap().1;
            depth += 1;
        }
        *h.entry(depth).or_insert(0) += 1;
    }
    h
}

#[test]
fn numeron_optimum_is_3575_guesses_and_its_tree_finds_every_secret() {
    let engine = Engine::new(Rules::new(3), Strategy::Optimal).unwrap();
    let tree = engine.tree(Strategy::Optimal, false, false).unwrap();
    let a = Analysis::of_tree(&tree);
    assert_eq!(replay(&engine.space, &tree), a.histogram);
    assert_eq!((a.secrets, a.total, a.max), (720, 3575, 7));
    assert_eq!(a.mean(), num_rational::Ratio::new(715, 144));
    for s in [
        Strategy::First,
        Strategy::Minimax,
        Strategy::Parts,
        Strategy::Entropy,
    ] {
        assert!(analysis(Rules::new(3), s, false).total > a.total, "{s}");
    }
    let worst = engine.tree(Strategy::OptimalWorst, false, false).unwrap();
    let w = Analysis::of_tree(&worst);
    assert_eq!(replay(&engine.space, &worst), w.histogram);
    assert_eq!((w.total, w.max), (3576, 6));
    // Knuth's minimax already reaches the least worst case of 6 here.
    assert_eq!(analysis(Rules::new(3), Strategy::Minimax, false).max, 6);
}

#[test]
fn one_digit_takes_on_average_five_and_a_half_guesses_whatever_the_strategy() {
    for s in Strategy::ALL {
        let a = analysis(Rules::new(1), s, false);
        assert_eq!((a.total, a.max), (55, 10), "{s}");
    }
}

#[test]
fn an_exact_player_follows_its_own_tree_in_a_trace() {
    let engine = Engine::new(Rules::new(3), Strategy::OptimalWorst).unwrap();
    let tree = engine.tree(Strategy::OptimalWorst, false, false).unwrap();
    let mut player = Player::new(&engine, Strategy::OptimalWorst, false, false).unwrap();
    let oracle = engine.oracle();
    for secret in [0u32, 311, 719] {
        let steps = trace(&oracle, secret, |set, h| player.next_guess(set, h)).unwrap();
        let mut node = &tree;
        for step in &steps {
            assert_eq!(step.guess, node.guess);
            if let Some((_, next)) = node
                .branches
                .iter()
                .find(|(a, _)| *a == step.answer.code(3))
            {
                node = next;
            }
        }
        assert!(steps.len() <= 6);
    }
}

#[test]
fn trees_are_identical_with_one_or_two_threads() {
    let build = |threads: usize, strategy: Strategy| -> Node {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let engine = Engine::new(Rules::new(3), strategy).unwrap();
            engine.tree(strategy, false, false).unwrap()
        })
    };
    for s in [Strategy::Entropy, Strategy::Minimax, Strategy::Optimal] {
        assert_eq!(build(1, s), build(2, s), "{s}");
    }
}
