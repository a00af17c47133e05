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

    /// Whether this is the classic plus-shaped rule, which light chasing and
    /// the word-parallel press code serve.
    pub fn is_plus(&self) -> bool {
        *self == Rule::plus()
    }
}

/// `plus`, `neighbours`, `king`, or the mask.
impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = if *self == Rule::plus() {
            "plus".to_string()
        } else if *self == Rule::neighbours() {
            "neighbours".to_string()
        } else if *self == Rule::king() {
            "king".to_string()
        } else {
            self.mask()
        };
        f.write_str(&name)
    }
}
