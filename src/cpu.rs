//! Which vector instructions the hot loops run in, chosen once per process.
//!
//! Below both algebras: the Walsh–Hadamard blocks of the two-state minimum
//! (`solve/minimal/exhaustive.rs`), the K-state transform
//! (`solve/states/minimum/transform.rs`), the row operations of
//! elimination mod q (`zk/local/`) and branch and bound's merge and parity
//! checks (`solve/minimal/branch/`) each compile their loop once per
//! [`Isa`] (a `#[target_feature]` copy of one `#[inline(always)]` body) and
//! ask here which copy to call (the parity checks also need AVX-512 VBMI,
//! which they detect themselves). Keeping the choice in one place means one
//! answer for the whole process and one list of what a test must cover
//! ([`Isa::available`]).

use std::sync::OnceLock;

/// An instruction set a hot loop is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// AVX-512 with byte and word lanes and its 256- and 128-bit forms
    /// (`avx512f`, `avx512bw` and `avx512vl`: every CPU with BW has VL).
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The baseline of the target; every machine runs it.
    Portable,
}

impl Isa {
    /// The widest instruction set this CPU runs, detected on the first call.
    pub(crate) fn detect() -> Isa {
        static DETECTED: OnceLock<Isa> = OnceLock::new();
        *DETECTED.get_or_init(|| Isa::supported().last().copied().unwrap_or(Isa::Portable))
    }

    /// Every instruction set this CPU runs, the portable one first and
    /// always: the kernels' tests check each against it.
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Isa> {
        Isa::supported()
    }

    /// Narrowest first.
    fn supported() -> Vec<Isa> {
        #[allow(unused_mut)] // on other targets only the portable loop exists
        let mut isas = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                isas.push(Isa::Avx2);
            }
            // BW implies F and VL on every CPU made, but the kernels
            // enable them by name (branch and bound's merge uses VL).
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                isas.push(Isa::Avx512);
            }
        }
        isas
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detected_isa_is_the_widest_available() {
        let available = Isa::available();
        assert_eq!(available[0], Isa::Portable);
        assert_eq!(Some(&Isa::detect()), available.last());
    }
}
