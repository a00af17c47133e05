//! graph6, nauty's format: the vertex count N(n), then the upper triangle
//! of the adjacency matrix, column by column, six bits a byte.

use super::{Graph, MAX_EDGES, MAX_VERTICES};

/// The smallest byte of graph6 text (`?`, the 6-bit group 0).
pub(super) const G6_MIN: u8 = 63;
/// The largest byte of graph6 text (`~`, which also marks the longer forms of N(n)).
pub(super) const G6_MAX: u8 = 126;
/// The optional header of a graph6 file.
const G6_HEADER: &[u8] = b">>graph6<<";

impl Graph {
    /// The graph as one line of graph6, without a header or line end:
    /// what [`parse`](Self::parse) reads back.
    ///
    /// # Complexity
    /// O(n²/6) bytes of output, O(n² / 6 + m) time.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// assert_eq!(Graph::named("complete:4")?.to_graph6(), "C~");
    /// assert_eq!(Graph::from_edges(0, [])?.to_graph6(), "?");
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn to_graph6(&self) -> String {
        let n = self.vertex_count();
        let mut out: Vec<u8> = graph6_size(n);
        let bits = n as u64 * n.saturating_sub(1) as u64 / 2;
        let start = out.len();
        out.resize(start + bits.div_ceil(6) as usize, 0);
        for (u, v) in self.edges() {
            // Column v of the upper triangle starts at bit v(v−1)/2.
            let bit = v as u64 * (v as u64 - 1) / 2 + u as u64;
            out[start + (bit / 6) as usize] |= 32 >> (bit % 6);
        }
        for b in &mut out[start..] {
            *b += G6_MIN;
        }
        // Every byte is in 63..=126, which is ASCII.
        out.into_iter().map(char::from).collect()
    }
}

/// N(n): the vertex count in graph6's one-, four- or eight-byte form.
fn graph6_size(n: usize) -> Vec<u8> {
    let groups =
        |value: u64, count: u32| (0..count).rev().map(move |k| (value >> (6 * k) & 63) as u8 + G6_MIN);
    match n {
        0..=62 => vec![n as u8 + G6_MIN],
        63..=258_047 => std::iter::once(G6_MAX).chain(groups(n as u64, 3)).collect(),
        _ => [G6_MAX, G6_MAX].into_iter().chain(groups(n as u64, 6)).collect(),
    }
}

/// Describes byte `b` for a message: the character when it is printable.
fn describe(b: u8) -> String {
    if b.is_ascii_graphic() { format!("'{}' (byte {b})", b as char) } else { format!("byte {b}") }
}

/// Reads the one graph of a graph6 file (leading white space skipped).
pub(super) fn read_graph6(input: &[u8]) -> Result<Graph, String> {
    let line = Line::of(input)?;
    let mut pos = line.header_len()?;
    let n = line.vertex_count(&mut pos)?;
    line.check_edge_bytes(pos, n)?;
    Ok(Graph::build(n, edges(&line.text[pos..], n)?))
}

/// The line holding the graph, without trailing white space, with where
/// it is for messages.
struct Line<'a> {
    text: &'a [u8],
    /// Its number (1-based).
    number: usize,
    /// Columns before its first byte (the white space it follows).
    indent: usize,
}

impl<'a> Line<'a> {
    /// The first line of `input` that is not white space; an error if
    /// anything but white space follows it (one graph per file).
    fn of(input: &'a [u8]) -> Result<Line<'a>, String> {
        let start = input.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(input.len());
        let number = 1 + input[..start].iter().filter(|&&b| b == b'\n').count();
        let line_start = input[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let end = memchr::memchr(b'\n', &input[start..]).map_or(input.len(), |p| start + p);
        let mut text = &input[start..end];
        while let Some((&last, rest)) = text.split_last() {
            if !matches!(last, b'\r' | b' ' | b'\t') {
                break;
            }
            text = rest;
        }
        if let Some(extra) = input[end..].iter().position(|b| !b.is_ascii_whitespace()) {
            let at = end + extra;
            let line = 1 + input[..at].iter().filter(|&&b| b == b'\n').count();
            return Err(format!("a graph6 file holds one graph, but line {line} has more"));
        }
        Ok(Line { text, number, indent: start - line_start })
    }

    /// The 1-based column of byte `pos` of the line.
    fn column(&self, pos: usize) -> usize {
        self.indent + pos + 1
    }

    /// The length of the optional header `>>graph6<<` the line starts with.
    fn header_len(&self) -> Result<usize, String> {
        if !self.text.starts_with(b">") {
            return Ok(0);
        }
        if !self.text.starts_with(G6_HEADER) {
            return Err(format!(
                "line {} starts with '>' but not with the graph6 header >>graph6<<",
                self.number
            ));
        }
        Ok(G6_HEADER.len())
    }

    /// Byte `pos` of the line as its 6-bit value, or the error naming it
    /// (`what` the line ends in if there is no such byte).
    fn value(&self, pos: usize, what: &str) -> Result<u64, String> {
        match self.text.get(pos) {
            Some(&b) if (G6_MIN..=G6_MAX).contains(&b) => Ok(u64::from(b - G6_MIN)),
            Some(&b) => Err(format!(
                "{} at line {}, column {} is outside the graph6 range 63..=126",
                describe(b),
                self.number,
                self.column(pos)
            )),
            None => Err(format!("the graph6 line {} ends in {what}", self.number)),
        }
    }

    /// N(n) at `pos`, in its one-, four- or eight-byte form; `pos` moves
    /// past it. An error past [`MAX_VERTICES`].
    fn vertex_count(&self, pos: &mut usize) -> Result<usize, String> {
        let n = match self.value(*pos, "the vertex count")? {
            63 => {
                let long = self.text.get(*pos + 1) == Some(&G6_MAX);
                let (skip, count) = if long { (2, 6) } else { (1, 3) };
                let mut n = 0u64;
                for k in 0..count {
                    n = n << 6 | self.value(*pos + skip + k, "the vertex count")?;
                }
                *pos += skip + count;
                n
            }
            small => {
                *pos += 1;
                small
            }
        };
        if n > MAX_VERTICES as u64 {
            return Err(format!("a graph of {n} vertices is more than the limit of {MAX_VERTICES}"));
        }
        Ok(n as usize)
    }

    /// That the bytes from `pos` on are graph6 text, as many as the upper
    /// triangle of `n` vertices takes.
    fn check_edge_bytes(&self, pos: usize, n: usize) -> Result<(), String> {
        let bits = n as u64 * n.saturating_sub(1) as u64 / 2;
        let needed = bits.div_ceil(6);
        let have = (self.text.len() - pos) as u64;
        let line_number = self.number;
        // Every byte is checked before the length, so that a stray byte (a
        // space, say) is named rather than counted.
        for p in pos..self.text.len() {
            self.value(p, "")?;
        }
        if have < needed {
            return Err(format!(
                "the graph6 line {line_number} is truncated: {n} vertices need {needed} bytes of edges, it has {have}"
            ));
        }
        if have > needed {
            return Err(format!(
                "the graph6 line {line_number} has extra bytes from column {}: {n} vertices need {needed} bytes of edges, it has {have}",
                self.column(pos + needed as usize)
            ));
        }
        Ok(())
    }
}

/// The edges of `n` vertices that `data` (checked graph6 bytes, enough for
/// the upper triangle) holds, walking the triangle column by column; the
/// padding bits of the last byte are ignored. An error past [`MAX_EDGES`].
fn edges(data: &[u8], n: usize) -> Result<Vec<(u32, u32)>, String> {
    let mut edges = Vec::new();
    let mut bit = 0u64;
    for v in 1..n as u32 {
        for u in 0..v {
            if (data[(bit / 6) as usize] - G6_MIN) & (32 >> (bit % 6)) != 0 {
                if edges.len() == MAX_EDGES {
                    return Err(format!("the graph has more than the limit of {MAX_EDGES} edges"));
                }
                edges.push((u, v));
            }
            bit += 1;
        }
    }
    Ok(edges)
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse;
    use super::*;

    #[test]
    fn sizes_in_all_three_forms_of_n() {
        assert_eq!(graph6_size(0), b"?");
        assert_eq!(graph6_size(62), b"}");
        assert_eq!(graph6_size(63), b"~??~");
        // nauty's own example: 12345 = 000011 000000 111001.
        assert_eq!(graph6_size(12345), b"~B?x");
        assert_eq!(graph6_size(258_047), b"~}~~");
        assert_eq!(graph6_size(258_048), b"~~???~??");
        assert_eq!(graph6_size(MAX_VERTICES), b"~~??C???");
        // The long forms are read back through the truncation message,
        // which states the count read (the edges would be gigabytes).
        for n in [63usize, 12345, 258_047, 258_048, MAX_VERTICES] {
            let mut line = graph6_size(n);
            line.push(b'?');
            let e = parse(std::str::from_utf8(&line).unwrap()).unwrap_err();
            assert!(e.contains(&format!("is truncated: {n} vertices need")), "{n}: {e}");
        }
        // The eight-byte form may hold a small count too.
        assert!(parse("~~?????~").unwrap_err().contains("truncated: 63 vertices"));
        assert!(parse("~~?@????").unwrap_err().contains("more than the limit of 1048576"));
    }

    #[test]
    fn graph6_round_trips_and_errors() {
        for name in ["petersen", "cube", "path:1", "cycle:63", "complete:64", "hypercube:7", "path:300"] {
            let g = Graph::named(name).unwrap();
            assert_eq!(parse(&g.to_graph6()), Ok(g.clone()), "{name}");
            assert_eq!(parse(&format!(">>graph6<<{}\r\n\n", g.to_graph6())), Ok(g.clone()), "{name}");
            assert_eq!(parse(&g.to_edge_list()), Ok(g.clone()), "{name}");
        }
        let errors = [
            ("Bw\nBw\n", "in: a graph6 file holds one graph, but line 2 has more"),
            ("Cr !\n", "in: byte 32 at line 1, column 3 is outside the graph6 range 63..=126"),
            (">>graph6<<D\x7fA\n", "in: byte 127 at line 1, column 12 is outside the graph6 range 63..=126"),
            ("D?", "in: the graph6 line 1 is truncated: 5 vertices need 2 bytes of edges, it has 1"),
            (
                "\n\nCrr",
                "in: the graph6 line 3 has extra bytes from column 3: 4 vertices need 1 bytes of edges, it has 2",
            ),
        ];
        for (text, error) in errors {
            assert_eq!(parse(text), Err(error.to_owned()), "{text:?}");
        }
        assert!(parse(">graph6<<Cr").unwrap_err().contains("header"));
        assert!(parse("~?").unwrap_err().contains("ends in the vertex count"));
        assert!(parse(":Fa@x^\n").unwrap_err().contains("sparse6"));
    }
}
