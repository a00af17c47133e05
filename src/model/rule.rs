//! What a press reaches: the [`Rule`] (offsets from the pressed cell) and
//! the [`Topology`] (whether the edges wrap).

/// How the edges of the board connect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Cells on an edge simply have fewer neighbours.
    Plane,
    /// Rows and columns wrap around.
    Torus,
}

/// The cells a press flips, as offsets from the pressed cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    offsets: Vec<(isize, isize)>,
}

/// A rule known by name: the one list of names that `--rule`, the
/// server's requests, the page's rule menu and [`Rule`]'s `Display` read,
/// so that a rule added here is offered everywhere.
#[derive(Clone, Copy, Debug)]
pub struct NamedRule {
    /// Its name, as `--rule` and the API take it and `Display` prints it.
    pub name: &'static str,
    /// Other spellings read as the same rule.
    pub aliases: &'static [&'static str],
    /// What a press flips on a grid, in a few words.
    pub words: &'static str,
    /// What a press flips on a graph, for the two rules a graph takes
    /// ([`Puzzle::on_graph`](crate::Puzzle::on_graph): the vertex and its
    /// neighbours, or its neighbours only); `None` for the others.
    pub graph_words: Option<&'static str>,
    make: fn() -> Rule,
}

impl NamedRule {
    /// The rule itself.
    pub fn rule(&self) -> Rule {
        (self.make)()
    }
}

/// Every rule with a name, the default (`plus`) first.
///
/// # Example
/// ```
/// use lightsout::Rule;
/// use lightsout::model::NAMED_RULES;
///
/// let names: Vec<&str> = NAMED_RULES.iter().map(|named| named.name).collect();
/// assert_eq!(names, ["plus", "neighbours", "king"]);
/// assert_eq!(Rule::named("neighbors"), Some(Rule::neighbours()));
/// assert_eq!(Rule::king().name(), Some("king"));
/// ```
pub const NAMED_RULES: &[NamedRule] = &[
    NamedRule {
        name: "plus",
        aliases: &[],
        words: "the cell and its 4 neighbours",
        graph_words: Some("a vertex and its neighbours"),
        make: Rule::plus,
    },
    NamedRule {
        name: "neighbours",
        aliases: &["neighbors"],
        words: "the 4 neighbours only",
        graph_words: Some("its neighbours only"),
        make: Rule::neighbours,
    },
    NamedRule { name: "king", aliases: &[], words: "the 3×3 block", graph_words: None, make: Rule::king },
];

impl Rule {
    /// The classic rule: the cell and its four orthogonal neighbours.
    pub fn plus() -> Self {
        Rule::from_offsets([(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)])
    }

    /// A rule from (row, column) offsets; duplicates are ignored.
    pub fn from_offsets(offsets: impl IntoIterator<Item = (isize, isize)>) -> Self {
        let mut offsets: Vec<_> = offsets.into_iter().collect();
        offsets.sort_unstable();
        offsets.dedup();
        Rule { offsets }
    }

    /// The four orthogonal neighbours, without the cell itself.
    pub fn neighbours() -> Self {
        Rule::from_offsets([(-1, 0), (1, 0), (0, -1), (0, 1)])
    }

    /// The 3×3 block around the cell (a king's moves and the cell).
    pub fn king() -> Self {
        Rule::from_offsets((-1..=1).flat_map(|dr| (-1..=1).map(move |dc| (dr, dc))))
    }

    /// A rule from a mask of rows of `0`/`1` separated by `/` or `,`, with
    /// odd sides; the centre is the pressed cell: `010/111/010` is
    /// [`plus`](Self::plus).
    ///
    /// # Errors
    /// A message saying what is wrong with the mask.
    pub fn from_mask(mask: &str) -> Result<Self, String> {
        let rows: Vec<&str> = mask.split(['/', ',']).collect();
        let width = rows[0].len();
        if rows.len().is_multiple_of(2) || width.is_multiple_of(2) || rows.iter().any(|r| r.len() != width) {
            return Err(format!(
                "a rule mask has rows of equal, odd length and an odd number of rows, got '{mask}'"
            ));
        }
        if rows.len() > 63 || width > 63 {
            return Err(format!("a rule mask is at most 63x63, got {}x{width}", rows.len()));
        }
        let (cr, cc) = ((rows.len() / 2) as isize, (width / 2) as isize);
        let mut offsets = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '1' => offsets.push((r as isize - cr, c as isize - cc)),
                    '0' => {}
                    _ => return Err(format!("a rule mask has only 0 and 1, got '{ch}' in '{mask}'")),
                }
            }
        }
        if offsets.is_empty() {
            return Err(format!("a rule mask must flip at least one cell, got '{mask}'"));
        }
        Ok(Rule::from_offsets(offsets))
    }

    /// The smallest centred mask of the rule, as [`from_mask`](Self::from_mask) reads.
    pub fn mask(&self) -> String {
        let reach = self.offsets.iter().map(|&(r, c)| r.abs().max(c.abs())).max().unwrap_or(0);
        (-reach..=reach)
            .map(|r| {
                (-reach..=reach)
                    .map(|c| if self.offsets.contains(&(r, c)) { '1' } else { '0' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The offsets, sorted.
    pub fn offsets(&self) -> &[(isize, isize)] {
        &self.offsets
    }

    /// The rule of this name or alias in [`NAMED_RULES`] (`None` for any
    /// other word).
    pub fn named(word: &str) -> Option<Rule> {
        NAMED_RULES
            .iter()
            .find(|named| named.name == word || named.aliases.contains(&word))
            .map(NamedRule::rule)
    }

    /// Its name in [`NAMED_RULES`], if it has one.
    pub fn name(&self) -> Option<&'static str> {
        NAMED_RULES.iter().find(|named| named.rule() == *self).map(|named| named.name)
    }

    /// Whether this is the classic plus-shaped rule, which light chasing and
    /// the word-parallel press code serve.
    pub fn is_plus(&self) -> bool {
        *self == Rule::plus()
    }
}

/// Its name in [`NAMED_RULES`] (`plus`, `neighbours`, `king`), or the mask.
impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => f.write_str(&self.mask()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list is the one source of the names: each name and alias reads
    /// back as its rule, each rule prints as its name, no two share a
    /// name or a rule, and no name reads as a mask.
    #[test]
    fn every_named_rule_reads_and_prints_as_its_name() {
        for (i, named) in NAMED_RULES.iter().enumerate() {
            let rule = named.rule();
            assert_eq!(Rule::named(named.name), Some(rule.clone()), "{}", named.name);
            assert_eq!(rule.to_string(), named.name);
            for alias in named.aliases {
                assert_eq!(Rule::named(alias), Some(rule.clone()), "{alias}");
            }
            assert!(Rule::from_mask(named.name).is_err(), "{}", named.name);
            for other in &NAMED_RULES[i + 1..] {
                assert_ne!(other.name, named.name);
                assert_ne!(other.rule(), rule, "{} and {}", named.name, other.name);
            }
        }
        assert_eq!(NAMED_RULES[0].rule(), Rule::plus(), "the default first");
        assert_eq!(Rule::named("cross"), None);
        assert_eq!(Rule::from_offsets([(0, 0), (1, 1)]).name(), None);
    }
}
