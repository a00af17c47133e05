//! The long-search properties that both games must hold, two states and K
//! states, each written once and run for both by `both_games!` (as
//! ripgrep's `rgtest!` runs a test with each of its engines): a search
//! split into slices merges to the unsplit answer, a search stopped before
//! its end resumes from its checkpoint to the unbroken answer, and every
//! answer, re-applied to the board with the tests' own arithmetic, reaches
//! its target.

use std::path::Path;

use serde_json::Value;

use crate::toolbox::{digit_rows, folder, json, press_plus, read_json, run_in, solvable_board};

/// Writes each property once as a module with a test for each game:
/// `NAME::two_states` and `NAME::k_states`.
macro_rules! both_games {
    ($($(#[$doc:meta])* fn $name:ident($game:ident: Game) $body:block)*) => {$(
        $(#[$doc])*
        mod $name {
            use super::*;

            fn property($game: Game) $body

            #[test]
            fn two_states() {
                property(Game::TwoStates)
            }

            #[test]
            fn k_states() {
                property(Game::KStates)
            }
        }
    )*};
}

/// The two kinds of game a long search runs on.
#[derive(Clone, Copy, Debug)]
enum Game {
    TwoStates,
    KStates,
}

/// One search's problem: the words that pose it (its board in
/// `board.txt`), and the board and target as numbers, to re-apply answers.
struct Problem {
    words: Vec<&'static str>,
    states: u32,
    board: Vec<Vec<u32>>,
    target: u32,
}

/// How much work a problem is.
#[derive(Clone, Copy)]
enum Size {
    /// Seconds of search, cut into slices that each hold work.
    Sliced,
    /// Enough that a time limit of a tenth of a second stops it unfinished.
    Stopped,
}

impl Game {
    /// This game's problem of `size`, its board written into `dir`.
    fn problem(self, dir: &Path, size: Size) -> Problem {
        let problem = match (self, size) {
            // 47x47 all black to white: nullity 30, 971 presses (A075464).
            (Game::TwoStates, Size::Sliced) => Problem::two_states(47),
            // 39x39: nullity 32, 561 presses.
            (Game::TwoStates, Size::Stopped) => Problem::two_states(39),
            // 26x26 over Z_3: 3^13 members in 9 tasks.
            (Game::KStates, Size::Sliced) => Problem::k_states((26, 26), ("3", 3), 3, &[]),
            // 15x23 over Z_4: 2^27 members in 512 tasks.
            (Game::KStates, Size::Stopped) => {
                Problem::k_states((15, 23), ("4", 4), 5, &["--max-nullity", "27"])
            }
        };
        let text = match self {
            Game::TwoStates => {
                let row =
                    |row: &Vec<u32>| row.iter().map(|&v| if v == 1 { 'b' } else { 'w' }).collect::<String>();
                problem.board.iter().map(|r| row(r) + "\n").collect()
            }
            Game::KStates => digit_rows(&problem.board),
        };
        std::fs::write(dir.join("board.txt"), text).unwrap();
        problem
    }

    /// Another problem's words, that must refuse this game's checkpoint.
    fn another(self) -> Vec<&'static str> {
        match self {
            Game::TwoStates => vec!["--generate", "all-black", "--rows", "39", "--cols", "40"],
            Game::KStates => vec!["--states", "4", "board.txt", "--target", "1"],
        }
    }

    /// The work a checkpoint of this game counts: (done, of the slice).
    fn progress(self, record: &Value) -> (u64, u64) {
        let state = &record["searches"][0]["state"];
        let total = match self {
            Game::TwoStates => &state["blocks"],
            Game::KStates => &state["slice_tasks"],
        };
        (state["done"].as_u64().unwrap(), total.as_u64().unwrap())
    }
}

impl Problem {
    /// The all-black `side`x`side` board to all white.
    fn two_states(side: usize) -> Problem {
        let words = vec!["board.txt", "--target", "white"];
        Problem { words, states: 2, board: vec![vec![1; side]; side], target: 0 }
    }

    /// A solvable board of `rows`x`cols` cells of `states` states (said in
    /// words and as a number), a third of its cells pressed from all 0 by
    /// `seed`, to all 0, with the words `more`.
    fn k_states(
        (rows, cols): (usize, usize),
        (states_word, states): (&'static str, u32),
        seed: u64,
        more: &[&'static str],
    ) -> Problem {
        let board = solvable_board(rows, cols, states, seed);
        let words = [&["--states", states_word, "board.txt", "--target", "0"][..], more].concat();
        Problem { words, states, board, target: 0 }
    }

    /// The words of this problem followed by `more`.
    fn with<'a>(&self, more: &[&'a str]) -> Vec<&'a str> {
        [&self.words[..], more].concat()
    }

    /// Checks the JSON answer `text`: its press set, re-applied to the
    /// board, reaches the target, in as many presses as it claims; returns
    /// that count.
    fn reapplied(&self, text: &str) -> u64 {
        let answer = json(text);
        let found = match self.states {
            2 => answer["white"].clone(),
            _ => answer["targets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["target"] == self.target)
                .unwrap()
                .clone(),
        };
        let presses: Vec<Vec<u32>> = found["solution"]
            .as_array()
            .unwrap_or_else(|| panic!("no press set: {text}"))
            .iter()
            .map(|row| {
                let cells = row.as_str().unwrap().chars();
                cells.map(|c| if c == 'x' { 1 } else { c.to_digit(10).unwrap_or(0) }).collect()
            })
            .collect();
        let reached = press_plus(&self.board, &presses, self.states);
        assert!(reached.iter().flatten().all(|&v| v == self.target), "the answer misses its target: {text}");
        let count: u64 = presses.iter().flatten().map(|&n| u64::from(n)).sum();
        assert_eq!(Some(count), found["presses"].as_u64(), "{text}");
        count
    }
}

both_games! {
    /// Split into 1, 3 and 7 slices, a search merges to the unsplit
    /// answer, which re-applies; each record names its slice, and the
    /// work is split for real (more than one slice holds a best member).
    fn slices_merge_into_the_unsliced_answer(game: Game) {
        let dir = folder("both-slices");
        let problem = game.problem(&dir, Size::Sliced);
        let (whole, err, code) = run_in(&dir, &problem.with(&["--format", "json"]));
        assert_eq!((code, err.as_str()), (0, ""));
        let presses = problem.reapplied(&whole);
        if let Game::TwoStates = game {
            assert_eq!(presses, 971);
        }
        for count in [1, 3, 7] {
            let parts: Vec<String> = (1..=count)
                .map(|index| {
                    let shard = format!("{index}/{count}");
                    let (out, err, code) = run_in(&dir, &problem.with(&["--shard", &shard]));
                    assert_eq!((code, err.as_str()), (0, ""), "slice {shard}");
                    assert_eq!(out.lines().count(), 1, "one JSON line");
                    let record = json(&out);
                    let state = &record["searches"][0]["state"];
                    assert_eq!(
                        (state["shard"]["index"].as_u64(), state["shard"]["count"].as_u64()),
                        (Some(index), Some(count))
                    );
                    assert_eq!(record["hash"].as_str().unwrap().len(), 64);
                    let name = format!("part-{index}-of-{count}.json");
                    std::fs::write(dir.join(&name), out).unwrap();
                    name
                })
                .collect();
            let mut merge = vec!["merge", "--format", "json"];
            merge.extend(parts.iter().map(String::as_str));
            assert_eq!(run_in(&dir, &merge), (whole.clone(), String::new(), 0), "{count} slices");
            if count == 3 {
                let best = |part: &String| read_json(dir.join(part))["searches"][0]["state"]["best"].clone();
                let holding = parts.iter().filter(|part| best(part)["weight"].is_u64()).count();
                assert!(holding > 1, "{holding} of 3 slices hold a best member");
            }
        }
    }

    /// Stopped by its time limit, a search is unfinished (its checkpoint
    /// holds some of the work, not all), another problem refuses the
    /// checkpoint and leaves it as it was, and the same command resumes it
    /// to the answer of an unbroken run, which re-applies.
    fn a_stopped_search_resumes_to_the_unbroken_answer(game: Game) {
        let dir = folder("both-resume");
        let problem = game.problem(&dir, Size::Stopped);
        let limited = problem.with(&["--checkpoint", "cp.json", "--time-limit", "0.1", "--format", "json"]);
        let (out, err, code) = run_in(&dir, &limited);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"proven_minimal\":false"), "{out}");
        assert!(err.contains("not proven minimal; the exhaustive search covered"), "{err}");
        let saved = std::fs::read_to_string(dir.join("cp.json")).unwrap();
        let (done, total) = game.progress(&json(&saved));
        assert!(done > 0 && done < total, "the stopped search did {done} of {total}");
        let another = [&game.another()[..], &["--checkpoint", "cp.json"]].concat();
        let (_, err, code) = run_in(&dir, &another);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("cp.json: checkpoint of another problem"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("cp.json")).unwrap(), saved);
        let resume = problem.with(&["--checkpoint", "cp.json", "--format", "json"]);
        let (resumed, err, code) = run_in(&dir, &resume);
        assert_eq!((code, err.as_str()), (0, ""));
        let (unbroken, _, code) = run_in(&dir, &problem.with(&["--format", "json"]));
        assert_eq!(code, 0);
        assert_eq!(resumed, unbroken);
        problem.reapplied(&resumed);
    }

    /// An empty checkpoint file (made for the run before its first save,
    /// by a shell or a script) is no checkpoint yet: the search runs as a
    /// fresh one and saves its record there. The distribution's slices
    /// always read it so; a search refused it ("not a lightsout search
    /// record") until both read checkpoints through one resume
    /// (`Checkpoints::resumed`).
    fn an_empty_checkpoint_is_none_yet(game: Game) {
        let dir = folder("both-empty");
        let problem = game.problem(&dir, Size::Stopped);
        std::fs::write(dir.join("cp.json"), "").unwrap();
        let (resumed, err, code) = run_in(&dir, &problem.with(&["--checkpoint", "cp.json", "--format", "json"]));
        assert_eq!((code, err.as_str()), (0, ""));
        let (done, total) = game.progress(&read_json(dir.join("cp.json")));
        assert_eq!(done, total, "the whole search is saved");
        let (unbroken, _, code) = run_in(&dir, &problem.with(&["--format", "json"]));
        assert_eq!(code, 0);
        assert_eq!(resumed, unbroken);
    }
}
