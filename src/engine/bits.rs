//! Candidate sets: fixed-width bitsets over digits 0..n (bit d = digit d+1).
//!
//! The width is chosen from n at the API boundary (the solver's engine) so the hot
//! code is monomorphised: `u16` up to 16 digits, `u32` up to 32, `u64` up to
//! 64, then `[u64; W]` for W = 2, 4, 7 (up to 128, 256 and 448 digits).

use std::fmt::Debug;

/// A set of digits stored inline (no heap), generic over its width.
pub trait Bits: Copy + Eq + Debug + Send + Sync + 'static {
    /// Most digits this width can hold.
    const CAPACITY: usize;
    /// The set {0, …, n-1}.
    fn full(n: usize) -> Self;
    /// The set {d}.
    fn single(d: usize) -> Self;
    /// Whether d is in the set.
    fn has(&self, d: usize) -> bool;
    /// Add d.
    fn insert(&mut self, d: usize);
    /// Remove d.
    fn remove(&mut self, d: usize);
    /// Number of digits in the set.
    fn count(&self) -> u32;
    /// Whether the set is empty.
    fn is_empty(&self) -> bool;
    /// Smallest digit, if any.
    fn first(&self) -> Option<usize>;
    /// Intersection.
    fn and(&self, other: &Self) -> Self;
    /// Digits of self not in other.
    fn and_not(&self, other: &Self) -> Self;
    /// Whether exactly one digit is set.
    #[inline]
    fn is_single(&self) -> bool {
        self.count() == 1
    }
    /// The digits in increasing order.
    #[inline]
    fn iter(&self) -> BitIter<Self> {
        BitIter { rest: *self }
    }
}

/// Iterator over the digits of a [`Bits`] set, smallest first.
#[derive(Debug, Clone)]
pub struct BitIter<B> {
    rest: B,
}

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let d = self.rest.first()?;
        self.rest.remove(d);
        Some(d)
    }
}

macro_rules! prim_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            #[inline]
            fn full(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    <$t>::MAX
                } else {
                    ((1 as $t) << n) - 1
                }
            }
            #[inline]
            fn single(d: usize) -> Self {
                (1 as $t) << d
            }
            #[inline]
            fn has(&self, d: usize) -> bool {
                (*self >> d) & 1 != 0
            }
            #[inline]
            fn insert(&mut self, d: usize) {
                *self |= (1 as $t) << d;
            }
            #[inline]
            fn remove(&mut self, d: usize) {
                *self &= !((1 as $t) << d);
            }
            #[inline]
            fn count(&self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn is_empty(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn first(&self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    Some(self.trailing_zeros() as usize)
                }
            }
            #[inline]
            fn and(&self, o: &Self) -> Self {
                *self & *o
            }
            #[inline]
            fn and_not(&self, o: &Self) -> Self {
                *self & !*o
            }
            #[inline]
            fn is_single(&self) -> bool {
                *self != 0 && *self & self.wrapping_sub(1) == 0
            }
        }
    };
}

prim_bits!(u16);
prim_bits!(u32);
prim_bits!(u64);

/// A wide set of `64 * W` digits in `W` words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn full(n: usize) -> Self {
        let mut w = [0u64; W];
        for (i, word) in w.iter_mut().enumerate() {
            let lo = i * 64;
            if n >= lo + 64 {
                *word = u64::MAX;
            } else if n > lo {
                *word = (1u64 << (n - lo)) - 1;
            }
        }
        Wide(w)
    }
    #[inline]
    fn single(d: usize) -> Self {
        let mut w = [0u64; W];
        w[d / 64] = 1u64 << (d % 64);
        Wide(w)
    }
    #[inline]
    fn has(&self, d: usize) -> bool {
        (self.0[d / 64] >> (d % 64)) & 1 != 0
    }
    #[inline]
    fn insert(&mut self, d: usize) {
        self.0[d / 64] |= 1u64 << (d % 64);
    }
    #[inline]
    fn remove(&mut self, d: usize) {
        self.0[d / 64] &= !(1u64 << (d % 64));
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
    #[inline]
    fn and(&self, o: &Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0.iter()) {
            *a &= *b;
        }
        Wide(w)
    }
    #[inline]
    fn and_not(&self, o: &Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0.iter()) {
            *a &= !*b;
        }
        Wide(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>(n: usize) {
        let full = B::full(n);
        assert_eq!(full.count() as usize, n);
        assert_eq!(full.iter().collect::<Vec<_>>(), (0..n).collect::<Vec<_>>());
        let mut s = B::full(0);
        assert!(s.is_empty());
        assert_eq!(s.first(), None);
        s.insert(n - 1);
        s.insert(0);
        assert!(s.has(0) && s.has(n - 1) && !s.has(1));
        assert_eq!(s.count(), 2);
        assert!(!s.is_single());
        s.remove(0);
        assert!(s.is_single());
        assert_eq!(s.first(), Some(n - 1));
        assert_eq!(full.and_not(&s).count() as usize, n - 1);
        assert_eq!(full.and(&s), s);
        let mut two = B::single(3);
        two.insert(1);
        assert_eq!(two.iter().collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn every_width_behaves() {
        exercise::<u16>(9);
        exercise::<u16>(16);
        exercise::<u32>(25);
        exercise::<u32>(32);
        exercise::<u64>(64);
        exercise::<Wide<2>>(100);
        exercise::<Wide<2>>(128);
        exercise::<Wide<4>>(225);
        exercise::<Wide<7>>(400);
    }
}
