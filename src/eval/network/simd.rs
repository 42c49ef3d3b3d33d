//! The network's arithmetic, twice: with AVX2 through `std::arch` where the processor has it (detected at run
//! time), and a portable path that computes the same integers and the same floating-point operations in the same
//! order, so both give bit-identical results (the tests compare them). The per-point part is integer: a point's
//! sums `h` are 16-bit (wrapping arithmetic, as the vector instructions wrap), its clipped value `clamp(h, 0, ONE)`
//! is added into 32-bit pools. The head multiplies and adds in single precision, never fused, output by output
//! and input after input.

/// Features per point and view (a multiple of 16: the vector path works in rows of 16). 32 in a build with the
/// `wide-network` feature (issue 74's trial: the embedded networks have 16 and do not load there).
#[cfg(not(feature = "wide-network"))]
pub const F: usize = 16;
/// Features per point and view: the `wide-network` trial's 32.
#[cfg(feature = "wide-network")]
pub const F: usize = 32;
/// The clipped ceiling of a point's feature (1.0 in the float model): tables hold their values times 512. (Four
/// table values of at most ±15.9 fit the 16-bit sums, and a move's changes, at most 33 points of ±512, fit the
/// 16-bit delta.)
pub const ONE: i16 = 512;

/// One row of a table, or a point's sums.
pub type Row = [i16; F];
/// The pooled features of one view.
pub type Pool = [i32; F];

/// Whether the vector path is used (AVX2 present); the detection is cached by the standard library.
#[inline(always)]
#[must_use]
pub fn vector() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

// The kernels take the path as a constant `V` (true: AVX2). Their AVX2 bodies are inlined into the caller, so a
// caller compiled for AVX2 (a `#[target_feature(enable = "avx2")]` function, entered only where AVX2 was
// detected: see `Accumulator` and `Network::logit_with`) runs them without a call per row.

/// `h += add - sub`, and `delta` takes the change of the clipped value: `delta += clamp(h') - clamp(h)` (16-bit: the
/// changes of one move, at most 33 points of ±ONE, are added to the pool once, see [`widen_into`]).
///
/// `V` must only be true where AVX2 was detected (see [`vector`]).
#[inline(always)]
pub fn update<const V: bool>(h: &mut Row, sub: &Row, add: &Row, delta: &mut Row) {
    let old = *h;
    shift::<V>(h, sub, add);
    clip_change::<V>(delta, &old, h);
}

/// `delta += clamp(new) - clamp(old)` in 16 bits.
#[inline(always)]
pub fn clip_change<const V: bool>(delta: &mut Row, old: &Row, new: &Row) {
    #[cfg(target_arch = "x86_64")]
    if V {
        // SAFETY: `V` is only true where AVX2 was detected.
        unsafe { avx2::clip_change(delta, old, new) };
        return;
    }
    for i in 0..F {
        delta[i] = delta[i].wrapping_add(new[i].clamp(0, ONE) - old[i].clamp(0, ONE));
    }
}

/// `pool += delta`, widened to 32 bits.
#[inline(always)]
pub fn widen_into<const V: bool>(pool: &mut Pool, delta: &Row) {
    #[cfg(target_arch = "x86_64")]
    if V {
        // SAFETY: `V` is only true where AVX2 was detected.
        unsafe { avx2::widen_into(pool, delta) };
        return;
    }
    for i in 0..F {
        pool[i] += i32::from(delta[i]);
    }
}

/// `h += add - sub` alone (a point whose other lines change too; its pool is settled afterwards).
#[inline(always)]
pub fn shift<const V: bool>(h: &mut Row, sub: &Row, add: &Row) {
    #[cfg(target_arch = "x86_64")]
    if V {
        // SAFETY: `V` is only true where AVX2 was detected.
        unsafe { avx2::shift(h, sub, add) };
        return;
    }
    for i in 0..F {
        h[i] = h[i].wrapping_sub(sub[i]).wrapping_add(add[i]);
    }
}

/// `pool += clamp(new) - clamp(old)`.
#[inline(always)]
pub fn pool_change<const V: bool>(pool: &mut Pool, old: &Row, new: &Row) {
    let mut delta = [0; F];
    clip_change::<V>(&mut delta, old, new);
    widen_into::<V>(pool, &delta);
}

/// One dense layer of `N` outputs on inputs `x`, weights input-major (`w[i]` the weights of input `i`): `b + Σ x[i]
/// · w[i]`, added input after input, then clipped to `[0, 1]` when `clip`.
#[inline(always)]
#[must_use]
pub fn layer<const V: bool, const N: usize>(x: &[f32], w: &[[f32; N]], b: &[f32; N], clip: bool) -> [f32; N] {
    #[cfg(target_arch = "x86_64")]
    if V && N % 8 == 0 {
        // SAFETY: as in `shift`; N is a multiple of the eight lanes.
        return unsafe { avx2::layer(x, w, b, clip) };
    }
    let mut z = *b;
    for (xi, wi) in x.iter().zip(w) {
        for j in 0..N {
            z[j] += xi * wi[j];
        }
    }
    if clip {
        for v in &mut z {
            // Maximum, then minimum, as the vector instructions do (`f32::clamp` keeps a negative zero where
            // they give a positive one).
            #[allow(clippy::manual_clamp)]
            let clipped = v.max(0.0).min(1.0);
            *v = clipped;
        }
    }
    z
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{F, ONE, Pool, Row};

    // F is a multiple of 16: whole 256-bit vectors of 16-bit values.
    const _: () = assert!(F % 16 == 0);
    use std::arch::x86_64::*;

    #[inline(always)]
    pub unsafe fn shift(h: &mut Row, sub: &Row, add: &Row) {
        // SAFETY: the rows hold F values: F / 16 256-bit vectors each, read and written unaligned.
        unsafe {
            for half in 0..F / 16 {
                let hp = h.as_mut_ptr().add(16 * half).cast::<__m256i>();
                let s = _mm256_loadu_si256(sub.as_ptr().add(16 * half).cast());
                let a = _mm256_loadu_si256(add.as_ptr().add(16 * half).cast());
                let v = _mm256_add_epi16(_mm256_sub_epi16(_mm256_loadu_si256(hp), s), a);
                _mm256_storeu_si256(hp, v);
            }
        }
    }

    #[inline(always)]
    pub unsafe fn clip_change(delta: &mut Row, old: &Row, new: &Row) {
        // SAFETY: the rows hold F values: F / 16 256-bit vectors each.
        unsafe {
            let zero = _mm256_setzero_si256();
            let one = _mm256_set1_epi16(ONE);
            for half in 0..F / 16 {
                let o = _mm256_loadu_si256(old.as_ptr().add(16 * half).cast());
                let n = _mm256_loadu_si256(new.as_ptr().add(16 * half).cast());
                let go = _mm256_min_epi16(_mm256_max_epi16(o, zero), one);
                let gn = _mm256_min_epi16(_mm256_max_epi16(n, zero), one);
                let dp = delta.as_mut_ptr().add(16 * half).cast::<__m256i>();
                _mm256_storeu_si256(dp, _mm256_add_epi16(_mm256_loadu_si256(dp), _mm256_sub_epi16(gn, go)));
            }
        }
    }

    #[inline(always)]
    pub unsafe fn widen_into(pool: &mut Pool, delta: &Row) {
        // SAFETY: the row holds F values, the pool F: F / 8 256-bit vectors of 32-bit values.
        unsafe {
            for quarter in 0..F / 8 {
                let part = _mm_loadu_si128(delta.as_ptr().add(8 * quarter).cast());
                let pp = pool.as_mut_ptr().add(8 * quarter).cast::<__m256i>();
                _mm256_storeu_si256(pp, _mm256_add_epi32(_mm256_loadu_si256(pp), _mm256_cvtepi16_epi32(part)));
            }
        }
    }

    #[inline(always)]
    pub unsafe fn layer<const N: usize>(x: &[f32], w: &[[f32; N]], b: &[f32; N], clip: bool) -> [f32; N] {
        let mut z = *b;
        // SAFETY: N is a multiple of 8 (checked by the caller); every access stays inside `z` and `w[i]`.
        unsafe {
            let mut j = 0;
            // Four blocks of eight outputs at a time, so that four additions are in flight (each output still
            // adds its inputs in order).
            while j + 32 <= N {
                let mut acc = [0, 8, 16, 24].map(|k| _mm256_loadu_ps(z.as_ptr().add(j + k)));
                for (xi, wi) in x.iter().zip(w) {
                    let xv = _mm256_set1_ps(*xi);
                    for (k, a) in acc.iter_mut().enumerate() {
                        *a = _mm256_add_ps(*a, _mm256_mul_ps(xv, _mm256_loadu_ps(wi.as_ptr().add(j + 8 * k))));
                    }
                }
                for (k, a) in acc.iter().enumerate() {
                    let v = if clip {
                        _mm256_min_ps(_mm256_max_ps(*a, _mm256_setzero_ps()), _mm256_set1_ps(1.0))
                    } else {
                        *a
                    };
                    _mm256_storeu_ps(z.as_mut_ptr().add(j + 8 * k), v);
                }
                j += 32;
            }
            while j < N {
                let mut acc = _mm256_loadu_ps(z.as_ptr().add(j));
                for (xi, wi) in x.iter().zip(w) {
                    let prod = _mm256_mul_ps(_mm256_set1_ps(*xi), _mm256_loadu_ps(wi.as_ptr().add(j)));
                    acc = _mm256_add_ps(acc, prod);
                }
                if clip {
                    acc = _mm256_min_ps(_mm256_max_ps(acc, _mm256_setzero_ps()), _mm256_set1_ps(1.0));
                }
                _mm256_storeu_ps(z.as_mut_ptr().add(j), acc);
                j += 8;
            }
        }
        z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn the_vector_and_portable_paths_agree_bit_for_bit() {
        if !vector() {
            eprintln!("no AVX2 here: only the portable path runs");
        }
        let mut s = 7u64;
        for round in 0..500 {
            let mut row = || std::array::from_fn::<i16, F, _>(|_| (lcg(&mut s) % 1200) as i16 - 600);
            let (h0, sub, add) = (row(), row(), row());
            let pool0: Pool = std::array::from_fn(|i| i as i32 * 37 - 500);
            let (mut h1, mut p1, mut h2, mut p2) = (h0, pool0, h0, pool0);
            let (mut d1, mut d2) = ([5i16; F], [5i16; F]);
            update::<false>(&mut h1, &sub, &add, &mut d1);
            widen_into::<false>(&mut p1, &d1);
            pool_change::<false>(&mut p1, &h0, &sub);
            if vector() {
                update::<true>(&mut h2, &sub, &add, &mut d2);
                widen_into::<true>(&mut p2, &d2);
                pool_change::<true>(&mut p2, &h0, &sub);
            } else {
                update::<false>(&mut h2, &sub, &add, &mut d2);
                widen_into::<false>(&mut p2, &d2);
                pool_change::<false>(&mut p2, &h0, &sub);
            }
            assert_eq!((h1, p1, d1), (h2, p2, d2), "round {round}");
            // Large sums wrap the same way on both paths.
            let big = [i16::MAX - 3; F];
            let (mut h5, mut h6) = (big, big);
            shift::<false>(&mut h5, &sub, &add);
            if vector() {
                shift::<true>(&mut h6, &sub, &add);
            } else {
                shift::<false>(&mut h6, &sub, &add);
            }
            assert_eq!(h5, h6);
            let mut f = || (lcg(&mut s) % 20_000) as f32 / 7_000.0 - 1.3;
            let x: Vec<f32> = (0..75).map(|_| f()).collect();
            let w: Vec<[f32; 32]> = (0..75).map(|_| std::array::from_fn(|_| f())).collect();
            let b: [f32; 32] = std::array::from_fn(|_| f());
            for clip in [false, true] {
                let a = layer::<false, 32>(&x, &w, &b, clip);
                let v = if vector() { layer::<true, 32>(&x, &w, &b, clip) } else { a };
                assert_eq!(a.map(f32::to_bits), v.map(f32::to_bits), "round {round}");
            }
        }
    }

    #[test]
    fn the_delta_takes_the_clipped_change() {
        let mut h = [0i16; F];
        (h[0], h[1], h[2]) = (100, ONE + 44, -50);
        let mut delta = [0; F];
        let mut add = [0i16; F];
        (add[0], add[1], add[2]) = (ONE, -100, 20);
        update::<false>(&mut h, &[0; F], &add, &mut delta);
        // Clipped: 100 -> ONE, ONE -> ONE - 56, 0 -> 0.
        assert_eq!(&delta[..3], &[ONE - 100, -56, 0]);
        assert_eq!(&h[..3], &[ONE + 100, ONE - 56, -30]);
    }
}
