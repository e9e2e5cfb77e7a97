/// The marker shapes of the timeline and the legend, as SVG elements centred on (x, y). Shape
/// carries the meaning as much as colour does, so the picture reads in grey print too.
enum SVGShapes {
    /// How a marker is drawn.
    enum Shape {
        case triangleDown, triangleUp, square, circle, cross, diamond, star, bar
    }

    static func element(_ shape: Shape, x: Double, y: Double, size s: Double, className: String, extra: String = "")
        -> String
    {
        let c = ReportFormat.coordinate
        let attributes = "class=\"\(className)\"\(extra)"
        switch shape {
        case .triangleDown:
            return "<path \(attributes) d=\"M\(c(x - s)) \(c(y - s))L\(c(x + s)) \(c(y - s))L\(c(x)) \(c(y + s))Z\">"
        case .triangleUp:
            return "<path \(attributes) d=\"M\(c(x - s)) \(c(y + s))L\(c(x + s)) \(c(y + s))L\(c(x)) \(c(y - s))Z\">"
        case .square:
            return
                "<rect \(attributes) x=\"\(c(x - s))\" y=\"\(c(y - s))\" width=\"\(c(2 * s))\" height=\"\(c(2 * s))\">"
        case .circle:
            return "<circle \(attributes) cx=\"\(c(x))\" cy=\"\(c(y))\" r=\"\(c(s))\">"
        case .cross:
            return
                "<path \(attributes) d=\"M\(c(x - s)) \(c(y - s))L\(c(x + s)) \(c(y + s))M\(c(x - s)) \(c(y + s))L\(c(x + s)) \(c(y - s))\">"
        case .diamond:
            return
                "<path \(attributes) d=\"M\(c(x)) \(c(y - s))L\(c(x + s)) \(c(y))L\(c(x)) \(c(y + s))L\(c(x - s)) \(c(y))Z\">"
        case .star:
            let t = s * 0.35
            return
                "<path \(attributes) d=\"M\(c(x)) \(c(y - s))L\(c(x + t)) \(c(y - t))L\(c(x + s)) \(c(y))L\(c(x + t)) \(c(y + t))L\(c(x)) \(c(y + s))L\(c(x - t)) \(c(y + t))L\(c(x - s)) \(c(y))L\(c(x - t)) \(c(y - t))Z\">"
        case .bar:
            return
                "<rect \(attributes) x=\"\(c(x - s * 0.3))\" y=\"\(c(y - s))\" width=\"\(c(s * 0.6))\" height=\"\(c(2 * s))\">"
        }
    }

    /// The closing tag of `element`'s shape.
    static func close(_ shape: Shape) -> String {
        switch shape {
        case .triangleDown, .triangleUp, .cross, .diamond, .star: return "</path>"
        case .square, .bar: return "</rect>"
        case .circle: return "</circle>"
        }
    }

    /// A complete marker with a tooltip title.
    static func marker(
        _ shape: Shape, x: Double, y: Double, size: Double, className: String, title: String, data: String = ""
    ) -> String {
        element(shape, x: x, y: y, size: size, className: className, extra: data) + "<title>\(title)</title>"
            + close(shape)
    }
}
