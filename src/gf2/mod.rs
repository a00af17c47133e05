//! Linear algebra over GF(2), the two-element field where addition is XOR.
//!
//! This is the bottom layer of the crate: it knows nothing about boards or
//! presses. Bits are bitvec's: [`BitVector`] owns them, [`Bits`] borrows
//! them, and a [`BitMatrix`] hands out its rows as `Bits`, so bit access,
//! `iter_ones`, copies and comparisons are bitvec's own. A few loops run on
//! raw `u64` words instead ([`words`]: row XOR, dot product, the plus press,
//! counting), each because it measured faster than bitvec's equivalent.

mod eliminate;
mod factor;
mod matrix;
mod poly;
pub mod words;

pub use eliminate::Echelon;
pub use matrix::BitMatrix;
pub use poly::Poly;

/// The one bit-vector type of the crate.
///
/// A single store type and bit order everywhere keeps bitvec's operators on
/// their word-at-a-time paths and lets the hot loops use the raw words.
pub type BitVector = bitvec::vec::BitVec<u64, bitvec::order::Lsb0>;

/// Borrowed bits: what a [`BitVector`] derefs to and what a [`BitMatrix`]
/// row is.
pub type Bits = bitvec::slice::BitSlice<u64, bitvec::order::Lsb0>;

/// A vector of `len` zero bits.
pub fn zeros(len: usize) -> BitVector {
    BitVector::repeat(false, len)
}
