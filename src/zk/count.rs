//! Exact products of small numbers, in decimal: the size of a kernel can be
//! far past any machine integer (3^2000 for a board of 2000 columns).

/// `Π factors` in decimal.
pub(crate) fn product_decimal(factors: impl IntoIterator<Item = u32>) -> String {
    // Little-endian limbs of nine decimal digits each.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![1];
    for f in factors {
        let mut carry = 0u64;
        for limb in &mut limbs {
            let x = *limb * u64::from(f) + carry;
            *limb = x % BASE;
            carry = x / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut out = limbs.last().map(|l| l.to_string()).unwrap_or_default();
    for limb in limbs.iter().rev().skip(1) {
        out.push_str(&format!("{limb:09}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_exact() {
        assert_eq!(product_decimal([]), "1");
        assert_eq!(product_decimal([0, 5]), "0");
        assert_eq!(product_decimal([4, 4, 4]), "64");
        assert_eq!(product_decimal([1_000_000_000, 7]), "7000000000");
        assert_eq!(product_decimal(std::iter::repeat_n(2, 100)), (1u128 << 100).to_string());
        assert_eq!(product_decimal(std::iter::repeat_n(3, 40)), 3u128.pow(40).to_string());
    }
}
