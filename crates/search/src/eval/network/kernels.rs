//! The two loops of an evaluation, over rows of `H` 16-bit values (the
//! network's hidden size, one of [`super::HIDDEN_SIZES`]): adding a
//! feature's row to the accumulator, and the clipped-ReLU dot product with
//! an output row. Written as plain loops over fixed-size arrays, which the
//! compiler turns into SIMD: SSE2 on the x86-64-v2 baseline, AVX2 and
//! AVX-512 (BW) in the copies compiled for them and chosen at run time (see
//! [`Kernels`]). The width is a const parameter rather than a run-time
//! length, so that each width's loops are compiled for their fixed trip
//! count, as the one width's were before there were two.

use super::QA;

/// One row of the hidden layer, `H` units, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row<const H: usize>(pub [i16; H]);

impl<const H: usize> Row<H> {
    pub const ZERO: Row<H> = Row([0; H]);
}

/// `acc += row`, lane by lane (the trainer keeps every sum in range).
#[inline(always)]
fn add_row<const H: usize>(acc: &mut Row<H>, row: &Row<H>) {
    for (a, r) in acc.0.iter_mut().zip(row.0.iter()) {
        *a = a.wrapping_add(*r);
    }
}

/// `sum over i of clamp(acc[i], 0, QA) * weights[i]`.
///
/// The sum wraps rather than panics: 256 units of at most `QA * i16::MAX`
/// cannot leave an `i32`, 512 can (the trainer halves its output weights'
/// limit there, so its networks do not), and a file made elsewhere should
/// give a wrong score, not a crash. In a release build this is the same
/// code as `+=`.
#[inline(always)]
fn crelu_dot<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i32 {
    let mut sum = 0i32;
    for (a, w) in acc.0.iter().zip(weights.0.iter()) {
        sum = sum.wrapping_add((*a).clamp(0, QA as i16) as i32 * *w as i32);
    }
    sum
}

/// `acc -= row`, lane by lane.
#[inline(always)]
fn sub_row<const H: usize>(acc: &mut Row<H>, row: &Row<H>) {
    for (a, r) in acc.0.iter_mut().zip(row.0.iter()) {
        *a = a.wrapping_sub(*r);
    }
}

/// The accumulator of `rows` over `bias`, and its dot product with `output`.
#[inline(always)]
fn forward<const H: usize>(bias: &Row<H>, rows: &[Row<H>], active: &[u16], output: &Row<H>) -> i32 {
    let mut acc = *bias;
    for &feature in active {
        add_row(&mut acc, &rows[feature as usize]);
    }
    crelu_dot(&acc, output)
}

/// `acc` moved from one set of features to another: the rows of `removed`
/// taken off, those of `added` put on.
#[inline(always)]
fn update<const H: usize>(acc: &mut Row<H>, rows: &[Row<H>], removed: &[u16], added: &[u16]) {
    for &feature in removed {
        sub_row(acc, &rows[feature as usize]);
    }
    for &feature in added {
        add_row(acc, &rows[feature as usize]);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2<const H: usize>(acc: &mut Row<H>, rows: &[Row<H>], removed: &[u16], added: &[u16]) {
    update(acc, rows, removed, added)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn crelu_dot_avx2<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i32 {
    crelu_dot(acc, weights)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn forward_avx2<const H: usize>(
    bias: &Row<H>,
    rows: &[Row<H>],
    active: &[u16],
    output: &Row<H>,
) -> i32 {
    forward(bias, rows, active, output)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn update_avx512<const H: usize>(
    acc: &mut Row<H>,
    rows: &[Row<H>],
    removed: &[u16],
    added: &[u16],
) {
    update(acc, rows, removed, added)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn crelu_dot_avx512<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i32 {
    crelu_dot(acc, weights)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn forward_avx512<const H: usize>(
    bias: &Row<H>,
    rows: &[Row<H>],
    active: &[u16],
    output: &Row<H>,
) -> i32 {
    forward(bias, rows, active, output)
}

/// Which compiled copy of the loops this CPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernels {
    /// The fastest copy this CPU can run.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                return Kernels::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernels::Avx2;
            }
        }
        Kernels::Baseline
    }

    /// Every copy this CPU can run, slowest first (the last is
    /// [`Kernels::detect`]'s).
    pub fn available() -> Vec<Kernels> {
        let mut all = vec![Kernels::Baseline];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Kernels::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                all.push(Kernels::Avx512);
            }
        }
        all
    }

    /// The hidden layer's sum for the `active` features and its dot product
    /// with `output`, before the output bias.
    #[inline]
    pub fn forward<const H: usize>(
        self,
        bias: &Row<H>,
        rows: &[Row<H>],
        active: &[u16],
        output: &Row<H>,
    ) -> i32 {
        match self {
            Kernels::Baseline => forward(bias, rows, active, output),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only made by `detect`, after the CPU said it
            // has AVX2, so the AVX2 copy runs on a CPU that can run it. A
            // whole evaluation takes about 200 ns with it against about
            // 740 ns with the baseline loops, which the compiler
            // vectorises for SSE2 only (criterion, `cargo bench --bench
            // eval`, `network` and `network_baseline_loops`).
            Kernels::Avx2 => unsafe { forward_avx2(bias, rows, active, output) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx512` is only made by `detect`, after the CPU said it
            // has AVX-512 F and BW.
            Kernels::Avx512 => unsafe { forward_avx512(bias, rows, active, output) },
        }
    }

    /// Moves `acc` from one set of features to another (an incremental
    /// update, measured against summing afresh in `benches/eval.rs`).
    #[inline]
    pub fn update<const H: usize>(
        self,
        acc: &mut Row<H>,
        rows: &[Row<H>],
        removed: &[u16],
        added: &[u16],
    ) {
        match self {
            Kernels::Baseline => update(acc, rows, removed, added),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `forward`, `Avx2` exists only on a CPU with AVX2.
            Kernels::Avx2 => unsafe { update_avx2(acc, rows, removed, added) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `forward`, `Avx512` exists only on a CPU with it.
            Kernels::Avx512 => unsafe { update_avx512(acc, rows, removed, added) },
        }
    }

    /// The clipped-ReLU dot product of `acc` with `output`.
    #[inline]
    pub fn output<const H: usize>(self, acc: &Row<H>, output: &Row<H>) -> i32 {
        match self {
            Kernels::Baseline => crelu_dot(acc, output),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `forward`, `Avx2` exists only on a CPU with AVX2.
            Kernels::Avx2 => unsafe { crelu_dot_avx2(acc, output) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `forward`, `Avx512` exists only on a CPU with it.
            Kernels::Avx512 => unsafe { crelu_dot_avx512(acc, output) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every copy this CPU runs gives the baseline loops' results at width
    /// `H`, and those are the sums written out without vectors.
    fn copies_agree<const H: usize>() {
        let mut rows = vec![Row::<H>::ZERO; 40];
        let mut state = 7u64;
        for row in &mut rows {
            for value in &mut row.0 {
                *value = (tuzdyk_rules::rng::next(&mut state) % 601) as i16 - 300;
            }
        }
        let (bias, output) = (rows[0], rows[1]);
        let active: Vec<u16> = (2..24).collect();
        let baseline = Kernels::Baseline.forward(&bias, &rows, &active, &output);
        assert_eq!(Kernels::available().last(), Some(&Kernels::detect()));
        for kernels in Kernels::available() {
            assert_eq!(
                kernels.forward(&bias, &rows, &active, &output),
                baseline,
                "{kernels:?} at {H}"
            );
            let mut acc = bias;
            kernels.update(&mut acc, &rows, &[], &active);
            assert_eq!(
                kernels.output(&acc, &output),
                baseline,
                "{kernels:?} at {H}"
            );
            kernels.update(&mut acc, &rows, &active, &[]);
            assert_eq!(acc, bias, "{kernels:?} at {H}");
        }
        // By hand: the same sums without vectors.
        let mut expected = 0i64;
        for i in 0..H {
            let sum: i32 = bias.0[i] as i32
                + active
                    .iter()
                    .map(|&f| rows[f as usize].0[i] as i32)
                    .sum::<i32>();
            expected += sum.clamp(0, QA) as i64 * output.0[i] as i64;
        }
        assert_eq!(baseline as i64, expected, "at {H}");
    }

    #[test]
    fn both_copies_agree() {
        copies_agree::<256>();
        copies_agree::<512>();
    }
}
