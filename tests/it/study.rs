//! The study toolkit against published tables, elimination and the solver.

use crate::toolbox::{self, json, json_lines, run};

use lightsout::Game;
use lightsout::{Generate, Grid, Method, Puzzle, Rule, Solver, Target, Topology, analyze, nullity_table};

fn no_progress() {}

#[test]
fn table_diagonal_matches_published_sequence_and_the_chase() {
    let table =
        nullity_table(1..=1000, 1..=1000, &Puzzle::new(1, 1).unwrap(), u64::MAX, &no_progress).unwrap();
    for (n, nullity) in toolbox::table("nxn_nullity.txt") {
        assert_eq!(table[n as usize - 1][n as usize - 1] as u64, nullity, "n = {n}");
    }
    // Past the published terms: the chase solver's own gcd (other
    // orientation, other code) for every n up to 1000, and symmetry.
    for n in (201..=1000).step_by(7) {
        let chase = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Chase, 0).unwrap();
        assert_eq!(table[n - 1][n - 1], chase.nullity(), "n = {n}");
    }
    for r in (0..1000).step_by(37) {
        for c in (0..1000).step_by(41) {
            assert_eq!(table[r][c], table[c][r]);
        }
    }
}

#[test]
fn table_matches_elimination_on_every_size_up_to_40() {
    let table = nullity_table(1..=40, 1..=40, &Puzzle::new(1, 1).unwrap(), u64::MAX, &no_progress).unwrap();
    for r in 1..=40 {
        for c in 1..=40 {
            let dense = Solver::new(&Puzzle::new(r, c).unwrap(), Method::Dense, 0).unwrap();
            assert_eq!(table[r - 1][c - 1], dense.nullity(), "{r}x{c}");
        }
    }
}

#[test]
fn torus_nullity_matches_published_sequence() {
    let torus = Puzzle::new(1, 1).unwrap().with_topology(Topology::Torus);
    let table = nullity_table(1..=30, 1..=30, &torus, u64::MAX, &no_progress).unwrap();
    for (n, nullity) in toolbox::table("torus_nxn_nullity.txt") {
        assert_eq!(table[n as usize - 1][n as usize - 1] as u64, nullity, "torus n = {n}");
    }
}

fn rules() -> Vec<(Topology, Rule)> {
    let mut rules = Vec::new();
    for topology in [Topology::Plane, Topology::Torus] {
        for rule in [Rule::plus(), Rule::neighbours(), Rule::king(), Rule::from_mask("010/101/111").unwrap()]
        {
            rules.push((topology, rule));
        }
    }
    rules
}

#[test]
fn check_agrees_with_solve_for_every_rule_and_target() {
    for (topology, rule) in rules() {
        for (rows, cols) in [(1, 1), (2, 2), (3, 3), (4, 5), (5, 5), (6, 4), (7, 7), (9, 3)] {
            let puzzle = Puzzle::new(rows, cols).unwrap().with_topology(topology).with_rule(rule.clone());
            let solver = Solver::new(&puzzle, Method::Auto, 20).unwrap();
            for seed in 0..8 {
                let board = Generate::Random { seed, density: 0.5 }.board(rows, cols);
                let goal =
                    Target::Board(Generate::Random { seed: seed + 100, density: 0.5 }.board(rows, cols));
                for target in [Target::White, Target::Black] {
                    let solved = solver.solve_for(&board, &target).unwrap();
                    assert_eq!(
                        solver.obstruction(&board, &target).unwrap().is_none(),
                        solved.is_some(),
                        "{puzzle:?}"
                    );
                }
                let solved = solver.solve_for(&board, &goal).unwrap();
                assert_eq!(solver.obstruction(&board, &goal).unwrap().is_none(), solved.is_some());
                if let Some(s) = solved {
                    assert_eq!(Target::Board(puzzle.apply(&board, &s.presses)), goal);
                }
                // An obstruction really is one: orthogonal to every press.
                for y in solver.obstructions() {
                    let a = puzzle.flip_matrix();
                    let yv = y.to_vector();
                    assert!(
                        (0..puzzle.cells()).all(|j| (0..puzzle.cells())
                            .filter(|&i| yv[i] && a.get(i, j))
                            .count()
                            % 2
                            == 0)
                    );
                }
            }
        }
    }
}

#[test]
fn the_neighbours_rule_loses_the_colour_symmetry() {
    // Without the self-flip, all black is not always solvable: 1x1 can
    // never change at all.
    let puzzle = Puzzle::new(1, 1).unwrap().with_rule(Rule::neighbours());
    let a = analyze(&puzzle, 32, u64::MAX).unwrap();
    assert_eq!(a.nullity, 1);
    assert!(!a.targets_interchangeable);
    assert!(a.gcd.is_none());
}

#[test]
fn analysis_is_consistent_with_its_parts() {
    for n in 1..=20 {
        let a = analyze(&Puzzle::new(n, n).unwrap(), 32, u64::MAX).unwrap();
        let (g, factors) = a.gcd.clone().unwrap();
        assert_eq!(g.degree().unwrap_or(0), a.nullity, "n = {n}");
        let product =
            factors.iter().fold(lightsout::gf2::Poly::one(), |p, (f, m)| (0..*m).fold(p, |p, _| &p * f));
        assert_eq!(product, g);
        assert!(a.targets_interchangeable);
        assert_eq!(a.rank() + a.nullity, n * n);
        if let Some((q, proven)) = &a.lightest_quiet {
            assert!(*proven && !q.is_zero());
            assert!(a.puzzle.apply(&Grid::zeros(n, n), q).is_zero());
            // No basis pattern is lighter than the lightest.
            assert!(a.quiet.iter().all(|b| b.count_ones() >= q.count_ones()));
        }
    }
}

/// `f_k(x + shift)` as a bit mask (bit i = coefficient of x^i), straight from
/// docs/math.md's recurrence `f_0 = 1`, `f_1 = x`, `f_(k+1) = x·f_k + f_(k−1)`:
/// degrees up to 40 fit a `u64`, so this shares no code with the crate.
fn f_mask(k: usize, shift: bool) -> u64 {
    let step = |p: u64| (p << 1) ^ if shift { p } else { 0 };
    let (mut previous, mut current) = (1u64, step(1));
    if k == 0 {
        return previous;
    }
    for _ in 1..k {
        let next = step(current) ^ previous;
        previous = std::mem::replace(&mut current, next);
    }
    current
}

fn gcd_mask(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        while a != 0 && 63 - a.leading_zeros() >= 63 - b.leading_zeros() {
            a ^= b << ((63 - a.leading_zeros()) - (63 - b.leading_zeros()));
        }
        std::mem::swap(&mut a, &mut b);
    }
    a
}

/// Printed as the crate prints polynomials: `x^3 + x^2 + x + 1`.
fn mask_text(p: u64) -> String {
    let terms: Vec<String> = (0..64)
        .rev()
        .filter(|&i| p >> i & 1 == 1)
        .map(|i| match i {
            0 => "1".to_string(),
            1 => "x".to_string(),
            _ => format!("x^{i}"),
        })
        .collect();
    if terms.is_empty() { "0".into() } else { terms.join(" + ") }
}

#[test]
fn regression_analyze_gcd_is_the_one_its_label_names_on_every_size_up_to_40() {
    // Bug: when rows < cols, `analyze` printed the gcd of the transposed size
    // (3x5 gave x^3 + x^2 + x + 1, the 5x3 value; the definition gives x^3),
    // because the chase works on the tall orientation. Fix: substitute x+1
    // for x in that case. Checked here against gcd(f_R(x), f_C(x+1)) computed
    // from the definition, for every size up to 40x40.
    assert_eq!(mask_text(gcd_mask(f_mask(3, false), f_mask(5, true))), "x^3");
    for rows in 1..=40 {
        for cols in 1..=40 {
            let expected = mask_text(gcd_mask(f_mask(rows, false), f_mask(cols, true)));
            let a = analyze(&Puzzle::new(rows, cols).unwrap(), 0, u64::MAX).unwrap();
            let (g, factors) = a.gcd.unwrap();
            assert_eq!(g.to_string(), expected, "{rows}x{cols}");
            assert_eq!(g.degree().unwrap_or(0), a.nullity, "{rows}x{cols}");
            let product =
                factors.iter().fold(lightsout::gf2::Poly::one(), |p, (f, m)| (0..*m).fold(p, |p, _| &p * f));
            assert_eq!(product, g, "{rows}x{cols}: factors");
        }
    }
}

/// Found by adversarial checks: `analyze --format json` bounded nothing:
/// 959x959 wrote 353 MB and peaked at 1.1 GB with `--max-memory 200M`
/// (2031x2031 reached 7.7 GB). JSON now lists what text lists, at most
/// about a million cells of quiet patterns, and says what it left out.
#[test]
fn regression_analyze_json_keeps_the_text_limits() {
    let (out, err, code) =
        run(&["analyze", "-r", "959", "-c", "959", "--format", "json", "--max-memory", "200M"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.len() < 4 << 20, "{} bytes of JSON", out.len());
    let v = json(&out);
    assert_eq!(v["nullity"], 382);
    assert_eq!(v["quiet_patterns"].as_array().unwrap().len(), 1);
    assert_eq!(v["quiet_patterns_omitted"]["count"], 381);
    assert!(v["quiet_patterns_omitted"]["why"].as_str().unwrap().contains("at most 64 patterns"));
    // Small sizes keep every pattern, and say nothing was left out.
    let v = &json_lines(&["analyze", "-r", "5", "-c", "5", "--format", "json"], "")[0];
    assert_eq!(
        (v["quiet_patterns"].as_array().unwrap().len(), &v["quiet_patterns_omitted"]),
        (2, &serde_json::Value::Null)
    );
}
