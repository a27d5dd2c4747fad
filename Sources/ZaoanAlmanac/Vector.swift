/// A 3-vector of doubles, the shape ERFA passes positions and velocities in.
struct Vector {
    typealias Triple = (Double, Double, Double)
    var x, y, z: Double

    struct PositionVelocity {
        var position: Vector
        var velocity: Vector
    }

    init(_ triple: Triple) {
        (x, y, z) = triple
    }

    var triple: Triple { (x, y, z) }
    var length: Double { dot(self).squareRoot() }
    var unit: Vector { scaled(by: 1 / length) }

    func dot(_ other: Vector) -> Double { x * other.x + y * other.y + z * other.z }
    func scaled(by factor: Double) -> Vector { Vector((x * factor, y * factor, z * factor)) }

    static func + (lhs: Vector, rhs: Vector) -> Vector { Vector((lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z)) }
    static func - (lhs: Vector, rhs: Vector) -> Vector { Vector((lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)) }
}
