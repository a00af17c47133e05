//! The integration tests but the browser's and the docs': one binary (one
//! link against the server's stack instead of one per file), one module a
//! subject. Their shared helpers are in `tests/toolbox/`; run one module
//! with `cargo test --release --test it MODULE::`.

#[path = "../toolbox/mod.rs"]
mod toolbox;

mod bfs_agreement;
mod both_games;
mod branch_fold;
mod chase;
mod cli;
mod corpus;
mod estimate;
mod families;
mod fuzz;
mod gf2_properties;
mod graph_pictures;
mod graphs;
mod hardest;
mod hardest_cli;
mod hardest_shard;
mod leader;
mod most_clicks_range;
mod most_clicks_table;
mod poly_properties;
mod search;
mod serve;
mod serve_hardest;
mod serve_limits;
mod settled;
mod solvers_agree;
mod states_bfs;
mod states_input;
mod states_search;
mod states_solver;
mod study;
mod symmetry;
mod terminal_typing;
mod tiny_images;
mod variants;
mod work_curve;
mod zk;
