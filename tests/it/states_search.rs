//! Long K-state searches as a user runs them (`--states K` with `--shard`,
//! `--checkpoint`, `--time-limit`), `merge` of their records, and the
//! forged records merge refuses; and the library's sliced search
//! (`SlicedCoset`, `StateSearchState`) stopped, saved and resumed.

use std::path::Path;
use std::process::Command as Process;
use std::time::Duration;

use lightsout::solve::states::minimum::{SlicedCoset, StateSearchState, merge_states, minimize};
use lightsout::solve::{Mask, Shard};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::toolbox::{binary, digit_rows, folder, read_json, reseal, run_in, solvable_board};

/// The slices `1/count … count/count` of `problem`, as files in `dir`.
fn shards(dir: &Path, problem: &[&str], count: u64, tag: &str) -> Vec<String> {
    (1..=count)
        .map(|i| {
            let shard = format!("{i}/{count}");
            let (out, err, code) = run_in(dir, &[problem, &["--shard", &shard]].concat());
            assert_eq!(code, 0, "{err}");
            assert!(out.starts_with("{\"lightsout\":\"search\",\"version\":2,"), "{out}");
            let name = format!("{tag}-{i}.json");
            std::fs::write(dir.join(&name), out).unwrap();
            name
        })
        .collect()
}

fn merged(dir: &Path, files: &[String], extra: &[&str]) -> (String, String, i32) {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

#[test]
fn k_state_shards_merge_into_the_unsharded_answer() {
    let dir = folder("shards");
    std::fs::write(dir.join("b5.txt"), digit_rows(&solvable_board(5, 5, 3, 1))).unwrap();
    std::fs::write(dir.join("b4.txt"), digit_rows(&solvable_board(4, 4, 4, 2))).unwrap();
    // The sliced search of a larger board is a property of both games
    // (both_games.rs).
    let problems: [&[&str]; 5] = [
        &["--states", "3", "b5.txt"],
        &["--states", "3", "b5.txt", "--target", "any"],
        &["--states", "4", "b4.txt", "--target", "0"],
        &["--states", "3", "--graph", "petersen", "--generate", "all-black"],
        &["--states", "5", "--graph", "cycle:10", "--generate", "random", "--seed", "4"],
    ];
    for problem in problems {
        let (whole, err, code) = run_in(&dir, &[problem, &["--format", "json"]].concat());
        assert_eq!(code, 0, "{problem:?}: {err}");
        for count in [1, 3, 7] {
            let parts = shards(&dir, problem, count, "p");
            let (out, err, code) = merged(&dir, &parts, &["--format", "json"]);
            assert_eq!((code, err.as_str()), (0, ""), "{problem:?} in {count}");
            assert_eq!(out, whole, "{problem:?} in {count}");
        }
    }
}

/// `merge --recheck` searches a share of each K-state slice's tasks again:
/// honest slices pass with a note on stderr (a forged heavier claim is
/// caught in the library's tests, `slices.rs`).
#[test]
fn merge_recheck_searches_k_state_tasks_again() {
    let dir = folder("recheck");
    std::fs::write(dir.join("b26.txt"), digit_rows(&solvable_board(26, 26, 3, 3))).unwrap();
    let problem: &[&str] = &["--states", "3", "b26.txt", "--target", "0"];
    let (whole, _, _) = run_in(&dir, problem);
    let parts = shards(&dir, problem, 3, "r");
    let (out, err, code) = merged(&dir, &parts, &["--recheck", "1"]);
    assert_eq!((code, out.as_str()), (0, whole.as_str()), "{err}");
    assert_eq!(err, "lightsout: note: searched 9 tasks again, none lighter than its slice claims\n");
}

#[test]
fn a_killed_k_state_search_resumes_to_the_same_answer() {
    let dir = folder("killed");
    // 17x27 over Z_4: 2^30 members, several seconds; stopped after one.
    std::fs::write(dir.join("b.txt"), digit_rows(&solvable_board(17, 27, 4, 6))).unwrap();
    let problem =
        ["--states", "4", "b.txt", "--target", "0", "--max-nullity", "30", "--checkpoint", "cp.json"];
    let child = Process::new(binary())
        .current_dir(&dir)
        .args(problem)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    assert!(Process::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let record: serde_json::Value = read_json(dir.join("cp.json"));
    let state = &record["searches"][0]["state"];
    let done = state["done"].as_u64().unwrap();
    assert!(done > 0 && done < state["slice_tasks"].as_u64().unwrap(), "{state}");
    let (resumed, err, code) = run_in(&dir, &problem);
    assert_eq!((code, err.as_str()), (0, ""));
    let (whole, _, _) = run_in(&dir, &problem[..7]);
    assert_eq!(resumed, whole);
}

/// An edit of a record's JSON.
type Edit<'a> = dyn Fn(&mut serde_json::Value) + 'a;

#[test]
fn merge_refuses_forged_k_state_records() {
    let dir = folder("forged");
    std::fs::write(dir.join("b.txt"), digit_rows(&solvable_board(26, 26, 3, 3))).unwrap();
    let problem = ["--states", "3", "b.txt", "--target", "0"];
    let parts = shards(&dir, &problem, 3, "p");
    let (whole, _, code) = merged(&dir, &parts, &[]);
    assert_eq!(code, 0);
    let read = |name: &str| -> serde_json::Value { read_json(dir.join(name)) };
    let holder = parts
        .iter()
        .position(|p| read(p)["searches"][0]["state"]["best"]["weight"].as_u64() == whole.trim().parse().ok())
        .expect("a slice holds the minimum");
    let forge = |tag: &str, edit: &dyn Fn(&mut serde_json::Value)| -> (String, i32) {
        let mut record = read(&parts[holder]);
        edit(&mut record);
        let name = format!("{tag}.json");
        std::fs::write(dir.join(&name), reseal(record)).unwrap();
        let mut files = parts.clone();
        files[holder] = name;
        let (_, err, code) = merged(&dir, &files, &[]);
        (err, code)
    };
    let (err, code) = forge("resealed", &|_| {});
    assert_eq!((err.as_str(), code), ("", 0));
    let other = read(&parts[(holder + 1) % 3])["searches"][0]["state"]["best"].clone();
    let cases: [(&str, &Edit<'_>, &str); 7] = [
        ("raised", &|r| r["searches"][0]["state"]["best"]["weight"] = 999.into(), "does not hold up"),
        ("moved", &|r| r["searches"][0]["state"]["best"] = other.clone(), "not in a task it searched"),
        ("nulled", &|r| r["searches"][0]["state"]["best"] = serde_json::Value::Null, "names no best"),
        ("kernel", &|r| r["searches"][0]["kernel_size"] = "81".into(), "disagrees with the problem"),
        ("states", &|r| r["problem"]["states"] = 5.into(), "problem hash does not match"),
        ("layout", &|r| r["searches"][0]["state"]["layout"]["tasks"] = 10.into(), "does not fit"),
        ("unfinished", &|r| r["searches"][0]["state"]["done"] = 0.into(), "stopped before its end"),
    ];
    for (tag, edit, expected) in cases {
        let (err, code) = forge(tag, edit);
        assert_eq!(code, 2, "{tag}: {err}");
        assert!(err.contains(expected) && err.lines().count() == 1, "{tag}: {err}");
    }
    // A damaged record, and a two-state record beside K-state ones.
    let mut text = std::fs::read_to_string(dir.join(&parts[0])).unwrap();
    text = text.replacen("\"milliseconds\":", "\"milliseconds\":1", 1);
    std::fs::write(dir.join("damaged.json"), text).unwrap();
    let (_, err, code) = merged(&dir, &["damaged.json".into(), parts[1].clone(), parts[2].clone()], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum does not match"), "{err}");
    let (two, _, _) = run_in(&dir, &["-g", "all-black", "-r", "5", "-c", "5", "--shard", "1/3"]);
    std::fs::write(dir.join("two.json"), two).unwrap();
    let (_, err, code) = merged(&dir, &[parts[0].clone(), parts[1].clone(), "two.json".into()], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("two.json is a two-state search record (version 1); this is a K-state search"),
        "{err}"
    );
}

#[test]
fn k_state_long_searches_refuse_what_they_cannot_do() {
    let dir = folder("refused");
    std::fs::write(dir.join("b.txt"), digit_rows(&solvable_board(15, 23, 4, 5))).unwrap();
    // 2^27 members, above --max-nullity 20.
    let (_, err, code) = run_in(&dir, &["--states", "4", "b.txt", "--shard", "1/2", "--max-nullity", "20"]);
    assert_eq!(code, 3, "a limit: {err}");
    assert!(
        err.contains("more than the 2^20 that --max-nullity 20 allows") && err.contains("--max-nullity 27"),
        "{err}"
    );
    std::fs::write(dir.join("two.txt"), "012\n120\n\n000\n000\n").unwrap();
    let (_, err, code) = run_in(&dir, &["--states", "3", "two.txt", "--shard", "1/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("search one board"), "{err}");
    // --output is refused up front with the long-search flags.
    std::fs::write(dir.join("one.txt"), "012\n120\n").unwrap();
    let (_, err, code) =
        run_in(&dir, &["--states", "3", "one.txt", "--time-limit", "5", "--output", "x.pgm"]);
    assert_eq!(code, 2);
    assert!(err.contains("--output, --png and --svg do not go with"), "{err}");
    assert!(!dir.join("x.pgm").exists());
}

/// Seals `record` again after editing its problem: the hash too.
fn rehash(mut record: serde_json::Value, version: u32) -> String {
    use sha2::{Digest, Sha256};
    let text = format!("lightsout-search/{version}/{}", record["problem"]);
    let digest = Sha256::digest(text.as_bytes());
    record["hash"] = digest.iter().map(|b| format!("{b:02x}")).collect::<String>().into();
    reseal(record)
}

#[test]
fn a_forged_problem_is_named_by_its_file_in_its_own_words() {
    let dir = folder("forged-problem");
    std::fs::write(dir.join("b.txt"), "012\n120\n").unwrap();
    let (k_state, _, code) = run_in(&dir, &["--states", "3", "b.txt", "--shard", "1/1"]);
    assert_eq!(code, 0);
    let (two, _, code) = run_in(&dir, &["-g", "all-black", "-r", "3", "-c", "3", "--shard", "1/1"]);
    assert_eq!(code, 0);
    let k_state: serde_json::Value = serde_json::from_str(&k_state).unwrap();
    let two: serde_json::Value = serde_json::from_str(&two).unwrap();
    let cases: [(&serde_json::Value, u32, &str, serde_json::Value, &str); 8] = [
        (&k_state, 2, "states", 1.into(), "x.json: its problem has 1 states"),
        (&k_state, 2, "rows", 0.into(), "x.json: its problem has 0 rows"),
        (&k_state, 2, "rule", "01/11".into(), "x.json: its problem has a bad rule"),
        (&k_state, 2, "graph", "~~~~".into(), "x.json: its problem has a bad graph"),
        (&two, 1, "cols", 0.into(), "x.json: its problem has 0 columns"),
        (&two, 1, "rule", "01/11".into(), "x.json: its problem has a bad rule"),
        (&two, 1, "graph", "~~~~".into(), "x.json: its problem has a bad graph"),
        (&two, 1, "board", serde_json::json!(["bw"]), "x.json: its problem has a board that does not fit"),
    ];
    for (record, version, field, value, expected) in cases {
        let mut record = record.clone();
        record["problem"][field] = value;
        std::fs::write(dir.join("x.json"), rehash(record, version)).unwrap();
        let (_, err, code) = merged(&dir, &["x.json".into()], &[]);
        assert_eq!(code, 2, "{field}: {err}");
        assert!(
            err.starts_with(&format!("lightsout: {expected}")) && err.lines().count() == 1,
            "{field}: {err}"
        );
        assert!(!err.contains("--") && !err.contains("record:"), "{field}: {err}");
    }
}

#[test]
fn records_of_the_other_kind_are_named_in_words() {
    let dir = folder("other-kind");
    std::fs::write(dir.join("b.txt"), "012\n120\n").unwrap();
    let (k_state, _, code) = run_in(&dir, &["--states", "3", "b.txt", "--shard", "1/1"]);
    assert_eq!(code, 0);
    std::fs::write(dir.join("k.json"), &k_state).unwrap();
    let (two, _, code) = run_in(&dir, &["-g", "all-black", "-r", "3", "-c", "3", "--shard", "1/1"]);
    assert_eq!(code, 0);
    std::fs::write(dir.join("two.json"), &two).unwrap();
    // Resumed as a checkpoint of the other kind, both ways.
    let (_, err, code) = run_in(&dir, &["-g", "all-black", "-r", "3", "-c", "3", "--checkpoint", "k.json"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("k.json is a K-state search record (version 2); this is a two-state search"),
        "{err}"
    );
    let (_, err, code) = run_in(&dir, &["--states", "3", "b.txt", "--checkpoint", "two.json"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("two.json is a two-state search record (version 1); this is a K-state search"),
        "{err}"
    );
    // A K-state record marked version 1, and either one damaged.
    let mut edited: serde_json::Value = serde_json::from_str(&k_state).unwrap();
    edited["version"] = 1.into();
    std::fs::write(dir.join("v1.json"), reseal(edited)).unwrap();
    let (_, err, code) = merged(&dir, &["v1.json".into()], &[]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("lightsout: v1.json: does not read as a two-state search record"), "{err}");
    assert!(err.contains("`states`") && err.contains("edited or damaged"), "{err}");
    std::fs::write(dir.join("cut.json"), k_state.replacen("\"milliseconds\":", "\"milliseconds\":1", 1))
        .unwrap();
    let (_, err, code) = merged(&dir, &["cut.json".into()], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("cut.json: checksum does not match: the record was edited or damaged"), "{err}");
}

/// Found by review: `merge` took no `-f` while solve and table do.
#[test]
fn merge_takes_the_short_format_flag() {
    let dir = folder("short-format");
    std::fs::write(dir.join("b.txt"), "012\n120\n").unwrap();
    let (record, _, code) = run_in(&dir, &["--states", "3", "b.txt", "--shard", "1/1"]);
    assert_eq!(code, 0);
    std::fs::write(dir.join("k.json"), record).unwrap();
    let long = merged(&dir, &["k.json".into()], &["--format", "text"]);
    assert_eq!(long.2, 0, "{}", long.1);
    assert_eq!(merged(&dir, &["k.json".into()], &["-f", "text"]), long);
}

/// A random coset over Z_k: `x0` and a generator of each order in
/// `orders` (each `r | k`: entries multiples of k/r, one of them k/r).
fn random_coset(rng: &mut ChaCha8Rng, k: u8, n: usize, orders: &[u8]) -> (Vec<u8>, Vec<(Vec<u8>, u32)>) {
    let x0 = (0..n).map(|_| rng.random_range(0..k)).collect();
    let gens = orders
        .iter()
        .map(|&r| {
            let mut g: Vec<u8> = (0..n).map(|_| rng.random_range(0..r) * (k / r)).collect();
            g[rng.random_range(0..n)] = k / r;
            (g, u32::from(r))
        })
        .collect();
    (x0, gens)
}

/// The least weight of `x0 + Σ c_i·g_i` over every coefficient tuple, by
/// enumeration (nothing of the library).
fn brute_force_weight(k: u8, x0: &[u8], gens: &[(Vec<u8>, u32)]) -> u64 {
    let total: u64 = gens.iter().map(|g| u64::from(g.1)).product();
    (0..total)
        .map(|mut index| {
            let mut x: Vec<u32> = x0.iter().map(|&v| u32::from(v)).collect();
            for (g, r) in gens {
                let c = (index % u64::from(*r)) as u32;
                index /= u64::from(*r);
                for (xc, &e) in x.iter_mut().zip(g) {
                    *xc = (*xc + c * u32::from(e)) % u32::from(k);
                }
            }
            x.iter().map(|&v| u64::from(v)).sum::<u64>()
        })
        .min()
        .unwrap()
}

/// The mask of member `index`: its coefficients in mixed radix over
/// `orders`, the first least significant.
fn mask_of(mut index: u64, orders: &[u32]) -> Mask {
    let digits: Vec<u32> = orders
        .iter()
        .map(|&r| {
            let digit = index % u64::from(r);
            index /= u64::from(r);
            digit as u32
        })
        .collect();
    Mask::from_digits(&digits, orders).unwrap()
}

/// A state through its JSON, as a checkpoint file holds it.
fn saved_and_loaded(state: &StateSearchState) -> StateSearchState {
    serde_json::from_str(&serde_json::to_string(state).unwrap()).unwrap()
}

/// Found by review: the library's slice test (`slices.rs`) "resumed"
/// slices that were already complete (every one of them finished in its
/// first batch), so a resume that lost or repeated tasks would have passed.
/// Here tasks are small and a batch is 8 of them (two threads), so each
/// slice is stopped after its first batch while unfinished, saved through
/// JSON and resumed, once, or after every batch; it ends in the state of
/// an unbroken run, and the slices merge to the whole search's member and
/// the brute-force weight.
#[test]
fn a_stopped_k_state_slice_resumes_to_the_unbroken_result() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    // 2^16 to 2^18 members each, so that there are tasks for many batches
    // (the engine's inner block, a task here, is up to a few thousand).
    let cosets: [(u8, usize, &[u8]); 5] = [
        (3, 20, &[3; 11]),
        (4, 16, &[4, 2, 4, 2, 4, 4, 2, 4, 4, 4]),
        (6, 14, &[6, 6, 3, 6, 2, 6, 6]),
        (5, 12, &[5; 7]),
        (2, 30, &[2; 17]),
    ];
    for (k, n, orders) in cosets {
        let (x0, gens) = random_coset(&mut rng, k, n, orders);
        let borrowed: Vec<(&[u8], u32)> = gens.iter().map(|(g, r)| (&g[..], *r)).collect();
        let brute = brute_force_weight(k, &x0, &gens);
        let whole = minimize(k, &x0, &borrowed, 40);
        assert_eq!(whole.total, brute, "K={k} orders {orders:?}");
        let coset = SlicedCoset::with_task_members(k, &x0, &borrowed, 1);
        let members = coset.members().unwrap();
        // The first lightest member by its mask, over every mask.
        let first_lightest = (0..members)
            .map(|index| mask_of(index, coset.orders()))
            .min_by_key(|&mask| (coset.weight_of(mask).unwrap(), mask))
            .unwrap();
        for count in [1, 3] {
            let what = format!("K={k} n={n} orders {orders:?}, {count} slices");
            let (stopped_once, stopped_always): (Vec<_>, Vec<_>) = pool.install(|| {
                (1..=count)
                    .map(|index| {
                        let shard = Shard { index, count };
                        let mut unbroken = StateSearchState::new(&coset, shard).unwrap();
                        unbroken.run(&coset, &mut |_| std::ops::ControlFlow::Continue(()));
                        assert!(unbroken.is_complete(), "{what}");

                        let mut state = StateSearchState::new(&coset, shard).unwrap();
                        state.run(&coset, &mut |_| std::ops::ControlFlow::Break(()));
                        assert!(!state.is_complete(), "{what}: slice {index} done in one batch");
                        assert_eq!(state.done, 8, "{what}");
                        assert!(state.members_searched() < u128::from(members));
                        let mut once = saved_and_loaded(&state);
                        assert!(once.fits(&coset) && once.verify(&coset).is_ok(), "{what}");
                        once.run(&coset, &mut |_| std::ops::ControlFlow::Continue(()));
                        assert_eq!(once, unbroken, "{what}: resumed once");

                        let mut always = StateSearchState::new(&coset, shard).unwrap();
                        let mut batches = 0;
                        while !always.is_complete() {
                            always.run(&coset, &mut |_| std::ops::ControlFlow::Break(()));
                            always = saved_and_loaded(&always);
                            batches += 1;
                        }
                        assert!(batches >= 3, "{what}: {batches} batches");
                        assert_eq!(always, unbroken, "{what}: resumed after every batch");
                        (once, always)
                    })
                    .unzip()
            });
            for states in [stopped_once, stopped_always] {
                let refs: Vec<&StateSearchState> = states.iter().collect();
                let best = merge_states(&coset, &refs).unwrap().unwrap();
                assert_eq!((best.weight, best.mask), (brute, first_lightest), "{what}");
                assert_eq!(coset.member(best.mask), Some(whole.presses.clone()), "{what}");
            }
        }
    }
}
