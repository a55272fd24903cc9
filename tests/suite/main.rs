//! The integration tests, one binary (one link, one shared NikoNiko build): each module is
//! the tests of one area, named for it.

mod common;
#[path = "../../src/scratch.rs"]
mod scratch;

mod architecture;

mod bearoff_analyse;
mod bearoff_cli;
mod bearoff_exact;
mod bearoff_out_of_core;
mod bingo_cli;
mod bingo_law;
mod bingo_players;
// Named to come early in libtest's order (by name): the longest test of the suite (a
// quarter of its run) starts among the first instead of the last on the two threads.
#[cfg(feature = "serve")]
mod browser;
mod fabfib_cli;
mod fabfib_engine;
mod fabfib_odds;
mod gammon_analyse;
mod gammon_cli;
mod gammon_gnubg;
mod gammon_match;
mod gammon_trainer;
mod gammon_xgid;
mod hardening;
mod mastermind;
mod nikoniko_cli;
mod nikoniko_inputs;
mod nikoniko_rules;
mod nikoniko_table;
mod numeron_cli;
mod numeron_exact;
mod numeron_inputs;
mod numeron_long;
mod numeron_plain;
mod poker;
mod poker_cli;
mod poker_parser;
mod poker_rules;
mod rank_props;
#[cfg(feature = "serve")]
mod serve_api;
mod table_cli;
