//! The two loops the two-sided solve spends its time in, over plain `f64` slices: keep the
//! larger of two rows, and add a weighted row. They are written once and compiled twice:
//! for the processor the program was built for, and with AVX2 (four values an
//! instruction), used when the processor running it has AVX2.

/// `best[i] = max(best[i], row[i])` (the larger; `row[i]` only when strictly larger).
#[inline]
pub fn max_into(best: &mut [f64], row: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the only feature the function is compiled for.
        unsafe { max_into_avx2(best, row) };
        return;
    }
    max_into_plain(best, row);
}

/// `acc[i] += w * x[i]`.
#[inline]
pub fn add_into(acc: &mut [f64], x: &[f64], w: f64) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the only feature the function is compiled for.
        unsafe { add_into_avx2(acc, x, w) };
        return;
    }
    add_into_plain(acc, x, w);
}

#[inline(always)]
fn max_into_plain(best: &mut [f64], row: &[f64]) {
    // `f64::max`, not a comparison: a select the compiler may turn into a masked store,
    // which some processors make very slow. The values are never NaN.
    for (b, &x) in best.iter_mut().zip(row) {
        *b = b.max(x);
    }
}

#[inline(always)]
fn add_into_plain(acc: &mut [f64], x: &[f64], w: f64) {
    for (a, &v) in acc.iter_mut().zip(x) {
        *a += w * v;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn max_into_avx2(best: &mut [f64], row: &[f64]) {
    max_into_plain(best, row);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn add_into_avx2(acc: &mut [f64], x: &[f64], w: f64) {
    add_into_plain(acc, x, w);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_loops_give_the_plain_results() {
        let mut best: Vec<f64> = (0..37).map(|i| (i % 5) as f64).collect();
        let row: Vec<f64> = (0..37).map(|i| (i % 3) as f64 + 0.5).collect();
        let mut plain = best.clone();
        max_into(&mut best, &row);
        max_into_plain(&mut plain, &row);
        assert_eq!(best, plain);
        add_into(&mut best, &row, 2.0);
        add_into_plain(&mut plain, &row, 2.0);
        assert_eq!(best, plain);
        assert_eq!(best[1], f64::max(1.0, 1.5) + 3.0);
    }
}
