use crate::shapes::Shape;

/// The area of `shape`.
pub fn area(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle { radius } => std::f64::consts::PI * radius * radius,
        Shape::Rect { width, height } => width * height,
    }
}

/// The total area of `shapes`.
pub fn total_area(shapes: &[Shape]) -> f64 {
    shapes.iter().map(area).sum()
}
