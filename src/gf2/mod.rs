//! Linear algebra over GF(2), the two-element field where addition is XOR.
//!
//! This is the bottom layer of the crate: it knows nothing about boards or
//! presses. Vectors and matrices store their bits in machine words
//! ([`BitVector`] is `BitVec<u64, Lsb0>`), and every hot loop (row XOR, pivot
//! search, popcount) works on whole `u64` words through [`words`].

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

/// A vector of `len` zero bits.
pub fn zeros(len: usize) -> BitVector {
    BitVector::repeat(false, len)
}
