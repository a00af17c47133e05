//! A plain breadth-first-search Flip Game solver, one search per board, the
//! way POJ 1753 is usually solved. It exists only as the baseline that
//! `scripts/bench-cli.sh` measures `lightsout` against; it reads the same
//! stream of 4x4 boards and prints the same answers.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

fn solve(start: u16) -> Option<u32> {
    let masks: Vec<u16> = (0..16)
        .map(|i| {
            let (r, c) = (i / 4, i % 4);
            let mut m = 1u16 << i;
            if r > 0 {
                m |= 1 << (i - 4);
            }
            if r < 3 {
                m |= 1 << (i + 4);
            }
            if c > 0 {
                m |= 1 << (i - 1);
            }
            if c < 3 {
                m |= 1 << (i + 1);
            }
            m
        })
        .collect();
    let mut seen = vec![u8::MAX; 1 << 16];
    let mut queue = VecDeque::from([start]);
    seen[start as usize] = 0;
    while let Some(s) = queue.pop_front() {
        if s == 0 || s == u16::MAX {
            return Some(seen[s as usize] as u32);
        }
        for &m in &masks {
            let t = s ^ m;
            if seen[t as usize] == u8::MAX {
                seen[t as usize] = seen[s as usize] + 1;
                queue.push_back(t);
            }
        }
    }
    None
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut rows = Vec::new();
    for line in stdin.lock().lines() {
        let line = line.expect("readable input");
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        rows.push(line.to_string());
        if rows.len() == 4 {
            let state =
                rows.concat().bytes().enumerate().fold(0u16, |s, (i, b)| s | ((b == b'b') as u16) << i);
            match solve(state) {
                Some(k) => writeln!(out, "{k}").unwrap(),
                None => writeln!(out, "Impossible").unwrap(),
            }
            rows.clear();
        }
    }
}
