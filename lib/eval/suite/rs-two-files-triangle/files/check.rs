#[path = "shapes.rs"]
mod shapes;
#[path = "area.rs"]
mod area;

use shapes::Shape;

#[test]
fn triangle_area() {
    assert_eq!(area::area(&Shape::Triangle { base: 4.0, height: 3.0 }), 6.0);
}

#[test]
fn total_with_triangles() {
    let shapes = [
        Shape::Rect { width: 2.0, height: 5.0 },
        Shape::Triangle { base: 1.0, height: 1.0 },
    ];
    assert_eq!(area::total_area(&shapes), 10.5);
}

#[test]
fn circles_unchanged() {
    let a = area::area(&Shape::Circle { radius: 1.0 });
    assert!((a - std::f64::consts::PI).abs() < 1e-12);
}
