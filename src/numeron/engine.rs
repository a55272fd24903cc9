//! The engine: a space with its answer table, the strategies as players, and the decision
//! tree of a strategy over every secret.

use super::answer::{AnswerTable, Oracle};
use super::optimal::{Search, INF, MAX_SEARCH_SPACE};
use super::rules::{Rules, Space};
use super::strategy::{heuristic_guess, Strategy, MAX_HEURISTIC_SPACE};
use super::tree::{self, Node};
use super::{Error, Result};
use crate::progress::Progress;

/// Candidate spaces above this size need `long` for the exact strategies (four distinct
/// digits; Mastermind's 1,296 codes are quick).
pub const QUICK_SEARCH_SPACE: usize = 2000;

/// A candidate space and, when it fits and is asked for, its answer table.
pub struct Engine {
    /// The candidates.
    pub space: Space,
    /// Every answer, when built.
    pub table: Option<AnswerTable>,
}

impl Engine {
    /// Builds the space, and the answer table when `strategy` gains from it.
    pub fn new(rules: Rules, strategy: Strategy) -> Result<Engine> {
        let space = Space::new(rules)?;
        let table = if strategy == Strategy::First {
            None
        } else {
            AnswerTable::build(&space)
        };
        Ok(Engine { space, table })
    }

    /// Answers from the table if built, else on the fly.
    pub fn oracle(&self) -> Oracle<'_> {
        Oracle {
            space: &self.space,
            table: self.table.as_ref(),
        }
    }

    /// Checks that `strategy` is affordable on this space (`long` admits the exact search
    /// on spaces above [`QUICK_SEARCH_SPACE`], a search of minutes).
    pub fn check(&self, strategy: Strategy, long: bool) -> Result<()> {
        let len = self.space.len();
        let name = strategy.name();
        if strategy.is_exact() {
            if len > MAX_SEARCH_SPACE || self.table.is_none() {
                return Err(Error::TooLargeForExactSearch {
                    candidates: len,
                    max: MAX_SEARCH_SPACE,
                });
            }
            if len > QUICK_SEARCH_SPACE && !long {
                return Err(Error::SearchOfHours {
                    strategy: name,
                    candidates: len,
                });
            }
        } else if strategy != Strategy::First && len > MAX_HEURISTIC_SPACE {
            return Err(Error::TooLargeForHeuristic {
                strategy: name,
                candidates: len,
                max: MAX_HEURISTIC_SPACE,
            });
        }
        Ok(())
    }

    /// The decision tree of `strategy` over every secret.
    pub fn tree(&self, strategy: Strategy, hard: bool, long: bool) -> Result<Node> {
        self.tree_with_progress(strategy, hard, long, Progress::SILENT)
    }

    /// [`Engine::tree`], reporting to `progress` one stage of unknown length while the
    /// tree is built (it takes a minute for the exact strategies on four digits).
    pub fn tree_with_progress(
        &self,
        strategy: Strategy,
        hard: bool,
        long: bool,
        progress: Progress<'_>,
    ) -> Result<Node> {
        self.check(strategy, long)?;
        if !progress.is_silent() {
            progress.start(&format!("analyzing {strategy}"), None);
        }
        let root = self.build_tree(strategy, hard, long);
        progress.finish();
        root
    }

    fn build_tree(&self, strategy: Strategy, hard: bool, long: bool) -> Result<Node> {
        let all: Vec<u32> = (0..self.space.len() as u32).collect();
        let oracle = self.oracle();
        if strategy.is_exact() {
            let mut player = Player::new(self, strategy, hard, long)?;
            let cap = player.root_cap;
            let search = player.search.as_mut().expect("exact players search");
            if all.len() > QUICK_SEARCH_SPACE {
                // A long search starts from the best total a heuristic achieves within the
                // cap, so that it only explores what can beat it.
                let mut upper = INF;
                for h in [Strategy::Minimax, Strategy::Parts, Strategy::Entropy] {
                    let choose = |set: &[u32], history: &[u32]| -> Result<u32> {
                        Ok(heuristic_guess(h, &oracle, set, history, hard))
                    };
                    let a = tree::Analysis::of_tree(&tree::build(
                        &oracle,
                        all.clone(),
                        &mut Vec::new(),
                        &choose,
                    )?);
                    if a.max <= cap {
                        upper = upper.min(a.total as u32);
                    }
                }
                if upper < INF {
                    search.optimum_below(&all, &[], cap, upper)?;
                }
            }
            return search.tree(&all, &mut Vec::new(), cap);
        }
        let choose = |set: &[u32], history: &[u32]| -> Result<u32> {
            Ok(heuristic_guess(strategy, &oracle, set, history, hard))
        };
        tree::build(&oracle, all, &mut Vec::new(), &choose)
    }
}

/// A strategy ready to play step by step (the exact ones keep their memo between steps).
pub struct Player<'a> {
    engine: &'a Engine,
    strategy: Strategy,
    hard: bool,
    search: Option<Search<'a>>,
    /// Depth cap at the start: the least worst case for `optimal-worst`, unbounded else.
    root_cap: u32,
}

impl<'a> Player<'a> {
    /// A player of `strategy` on `engine`'s space.
    pub fn new(
        engine: &'a Engine,
        strategy: Strategy,
        hard: bool,
        long: bool,
    ) -> Result<Player<'a>> {
        engine.check(strategy, long)?;
        let n = engine.space.len() as u32;
        let mut player = Player {
            engine,
            strategy,
            hard,
            search: None,
            root_cap: n,
        };
        if strategy.is_exact() {
            let table = engine.table.as_ref().ok_or(Error::TooLargeForExactSearch {
                candidates: engine.space.len(),
                max: MAX_SEARCH_SPACE,
            })?;
            let search = Search::new(&engine.space, table, hard)?;
            if strategy == Strategy::OptimalWorst {
                let all: Vec<u32> = (0..n).collect();
                player.root_cap = search.min_worst(&all, &[])?;
            }
            player.search = Some(search);
        }
        Ok(player)
    }

    /// The strategy played.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The exact search, for its counters.
    pub fn search(&self) -> Option<&Search<'a>> {
        self.search.as_ref()
    }

    /// The next guess for the candidates `set` (ascending ranks) after `history`.
    pub fn next_guess(&mut self, set: &[u32], history: &[u32]) -> Result<u32> {
        if set.is_empty() {
            return Err(Error::NoCandidateLeft);
        }
        match self.search.as_mut() {
            None => Ok(heuristic_guess(
                self.strategy,
                &self.engine.oracle(),
                set,
                history,
                self.hard,
            )),
            Some(search) => {
                let used = history.len() as u32;
                let mut cap = self.root_cap.saturating_sub(used).max(1);
                if self.strategy == Strategy::OptimalWorst {
                    if search.optimum(set, history, cap)? >= INF {
                        cap = search.min_worst(set, history)?;
                    }
                } else {
                    cap = set.len() as u32;
                }
                search.best_guess(set, history, cap)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Event;
    use std::sync::Mutex;

    #[test]
    fn building_a_tree_reports_one_stage_and_a_refused_strategy_reports_none() {
        let log = Mutex::new(Vec::new());
        let record = |e: Event<'_>| {
            log.lock().unwrap().push(match e {
                Event::Start { stage, total } => format!("start {stage} {total:?}"),
                Event::Finish => "finish".to_string(),
                other => format!("{other:?}"),
            })
        };
        let engine = Engine::new(Rules::new(2), Strategy::Entropy).unwrap();
        let root = engine
            .tree_with_progress(Strategy::Entropy, false, false, Progress::new(&record))
            .unwrap();
        assert_eq!(root, engine.tree(Strategy::Entropy, false, false).unwrap());
        assert_eq!(
            *log.lock().unwrap(),
            ["start analyzing entropy None", "finish"]
        );
        log.lock().unwrap().clear();
        let big = Engine::new(Rules::new(4), Strategy::Optimal).unwrap();
        let e = big
            .tree_with_progress(Strategy::Optimal, false, false, Progress::new(&record))
            .unwrap_err();
        assert!(
            matches!(
                e,
                Error::SearchOfHours {
                    candidates: 5040,
                    ..
                }
            ),
            "{e}"
        );
        assert!(log.lock().unwrap().is_empty());
    }
}
