/// The mean of `xs`, or `None` when `xs` is empty.
pub fn average(xs: &[i64]) -> Option<f64> {
    let sum: i64 = xs.iter().sum();
    Some(sum as f64 / xs.len() as f64)
}

/// The largest value minus the smallest, or `None` when `xs` is empty.
pub fn spread(xs: &[i64]) -> Option<i64> {
    Some(xs.iter().max()? - xs.iter().min()?)
}
