// The inspector's own cell buffer: the pure view renders into it; a backend (ncurses in the
// executable, text in tests) only copies it out.

/// A semantic colour; the backend maps each to a terminal colour pair.
public enum ColorRole: Int, Sendable, CaseIterable {
    case normal, dim, border, title, accent, good, warn, bad, info, sent, selection
}

/// How one cell is drawn.
public struct CellStyle: Hashable, Sendable {
    /// The colour role.
    public var role: ColorRole
    /// Bold text.
    public var bold: Bool
    /// Reverse video (used for the selection and the footer keys).
    public var reverse: Bool

    /// A style from a role and attributes.
    public init(_ role: ColorRole = .normal, bold: Bool = false, reverse: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
    }

    /// Plain text.
    public static let plain = CellStyle()
}

/// One terminal cell: the text drawn there (a spacing scalar plus any zero-width scalars that
/// follow it) and its style. The right half of a wide character is a continuation cell with
/// empty text and `width == 0`.
public struct Cell: Hashable, Sendable {
    /// What the cell shows; empty for the continuation half of a wide character.
    public var text: String
    /// 1 for a normal cell, 2 for the first half of a wide character, 0 for its second half.
    public var width: Int
    /// The style.
    public var style: CellStyle

    /// A cell.
    public init(text: String, width: Int, style: CellStyle) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// A blank cell.
    public static let blank = Cell(text: " ", width: 1, style: .plain)
}

/// A width × height size in terminal cells.
public struct Size: Hashable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle shrunk by one cell on every side (the inside of a border).
    public var inner: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }
}

/// A grid of cells with display-width-aware text writing.
public struct Grid: Sendable, Equatable {
    /// The size.
    public let size: Size
    /// Cells, row-major.
    public private(set) var cells: [Cell]

    /// A blank grid.
    public init(size: Size) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: .blank, count: self.size.width * self.size.height)
    }

    /// The cell at a column and row (a blank cell outside the grid).
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
        return cells[y * size.width + x]
    }

    /// Writes `text` at (x, y) in `style`, using at most `maxWidth` columns (default: to the right
    /// edge). Zero-width scalars join the preceding cell; a wide character that would not fit is
    /// replaced by a space rather than cut in half; control characters show as `·`.
    /// Returns the number of columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: CellStyle = .plain) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let limit = min(size.width, x + (maxWidth ?? size.width))
        var col = x
        var lastCell: Int? = nil
        for scalar in text.unicodeScalars {
            var w = DisplayWidth.of(scalar)
            var shown = String(scalar)
            if w < 0 {
                w = 1
                shown = "·"
            }
            if w == 0 {
                if let last = lastCell { cells[last].text.unicodeScalars.append(scalar) }
                continue
            }
            if col + w > limit {
                if w == 2 && col < limit && col >= 0 { set(col, y, Cell(text: " ", width: 1, style: style)) }
                break
            }
            if col >= 0 {
                set(col, y, Cell(text: shown, width: w, style: style))
                lastCell = y * size.width + col
                if w == 2 { set(col + 1, y, Cell(text: "", width: 0, style: style)) }
            } else {
                lastCell = nil
            }
            col += w
        }
        return col - x
    }

    /// Fills a rectangle with spaces in `style`.
    public mutating func fill(_ rect: Rect, style: CellStyle = .plain) {
        for row in rect.y..<(rect.y + rect.height) {
            for col in rect.x..<(rect.x + rect.width) {
                set(col, row, Cell(text: " ", width: 1, style: style))
            }
        }
    }

    /// Restyles the cells of a rectangle without changing their text.
    public mutating func restyle(_ rect: Rect, style: CellStyle) {
        for row in rect.y..<(rect.y + rect.height) {
            for col in rect.x..<(rect.x + rect.width) where inside(col, row) {
                cells[row * size.width + col].style = style
            }
        }
    }

    /// The grid as lines of text (continuation cells omitted), for tests and text captures.
    public var lines: [String] {
        (0..<size.height).map { row in
            var line = ""
            for col in 0..<size.width {
                let cell = cells[row * size.width + col]
                if cell.width != 0 { line += cell.text }
            }
            return line
        }
    }

    /// The grid as one string, lines joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    // MARK: - Internals

    private func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < size.width && y < size.height }

    private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard inside(x, y) else { return }
        let index = y * size.width + x
        // Overwriting half of a wide character blanks its other half.
        let old = cells[index]
        if old.width == 2, x + 1 < size.width { cells[index + 1] = Cell(text: " ", width: 1, style: old.style) }
        if old.width == 0, x > 0, cells[index - 1].width == 2 {
            cells[index - 1] = Cell(text: " ", width: 1, style: cells[index - 1].style)
        }
        cells[index] = cell
    }
}

extension Grid: CustomStringConvertible {
    /// The grid's text (so test failures print the screen, not the cells).
    public var description: String { "\n" + text }
}
