// The ncurses (wide-char) backend: reads keys and copies the view's grid onto the terminal,
// writing only the cells that changed. All calls stay on the main thread.

import BirdInspector
import CNcurses
import Foundation

/// What one read of the keyboard gave.
enum TerminalInput {
    case key(Key)
    case resize(Size)
    case mouse(x: Int, y: Int, kind: MouseKind)
    case none
}

/// The terminal, while the inspector owns it.
final class CursesTerminal {
    private var previous: Grid?
    private var colours = false
    private var ended = false

    /// Takes over the terminal (alternate screen, no echo, keypad, and colours unless `colours` is
    /// false: then no colour is ever set, `--theme mono` / `NO_COLOR`). Crash handlers and an
    /// `atexit` hook (Signals.swift) give it back on exits that skip `end()`. With `mouse`, clicks
    /// and the wheel are reported (`--no-mouse` leaves them to the terminal).
    init(colours wanted: Bool = true, mouse: Bool = true) {
        setlocale(LC_ALL, "")
        if let codeset = nl_langinfo(nl_item(CODESET)) {
            unicode = String(cString: codeset).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
        }
        prepareTerminalRestore()
        markTerminalTaken(true)
        initscr()
        cbreak()
        noecho()
        nonl()
        keypad(bird_stdscr(), true)
        bird_set_escdelay(25)
        curs_set(0)
        if mouse { bird_mouse_on(1) }
        if wanted && has_colors() {
            start_color()
            use_default_colors()
            colours = true
            for role in ColorRole.allCases {
                init_pair(Int16(role.rawValue + 1), Self.foreground(role), -1)
            }
        }
    }

    /// Whether the locale's character set is UTF-8 (else the timeline and sparklines use ASCII).
    private(set) var unicode = false

    /// The terminal size.
    var size: Size { Size(width: Int(bird_COLS()), height: Int(bird_LINES())) }

    /// Waits up to `milliseconds` for a key.
    func read(timeoutMilliseconds: Int32) -> TerminalInput {
        wtimeout(bird_stdscr(), timeoutMilliseconds)
        var ch: wint_t = 0
        let r = wget_wch(bird_stdscr(), &ch)
        if r == ERR { return .none }
        if r == KEY_CODE_YES {
            switch Int32(truncatingIfNeeded: ch) {
            case KEY_RESIZE:
                previous = nil
                return .resize(size)
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_BTAB: return .key(.backTab)
            case KEY_DC: return .key(.delete)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_ENTER: return .key(.enter)
            case KEY_MOUSE:
                var x: Int32 = 0
                var y: Int32 = 0
                switch bird_mouse_read(&x, &y) {
                case 1: return .mouse(x: Int(x), y: Int(y), kind: .click)
                case 2: return .mouse(x: Int(x), y: Int(y), kind: .wheelUp)
                case 3: return .mouse(x: Int(x), y: Int(y), kind: .wheelDown)
                default: return .none
                }
            default: return .none
            }
        }
        switch ch {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 1...26: return .key(.ctrl(Character(Unicode.Scalar(UInt8(ch) + 96))))
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)), DisplayWidth.of(scalar) > 0 else { return .none }
            return .key(.char(Character(scalar)))
        }
    }

    /// Copies the grid onto the screen, writing only changed cells; returns how many it wrote.
    @discardableResult
    func draw(_ grid: Grid) -> Int {
        guard let win = bird_stdscr() else { return 0 }
        var written = 0
        let old = previous.flatMap { $0.size == grid.size ? $0 : nil }
        if old == nil { werase(win) }
        for y in 0..<grid.size.height {
            for x in 0..<grid.size.width {
                let cell = grid[x, y]
                if cell.width == 0 { continue }
                if let old, old[x, y] == cell, cell.width == 1 || old[x + 1, y] == grid[x + 1, y] { continue }
                put(cell, x: x, y: y, in: win)
                written += 1
            }
        }
        wnoutrefresh(win)
        doupdate()
        previous = grid
        return written
    }

    /// Gives the terminal back.
    func end() {
        guard !ended else { return }
        ended = true
        bird_mouse_on(0)
        curs_set(1)
        endwin()
        markTerminalTaken(false)
    }

    // MARK: - Internals

    private func put(_ cell: Cell, x: Int, y: Int, in win: UnsafeMutablePointer<WINDOW>) {
        var attrs = bird_A_NORMAL()
        if cell.style.bold { attrs |= bird_A_BOLD() }
        if cell.style.reverse { attrs |= bird_A_REVERSE() }
        if cell.style.role == .dim { attrs |= bird_A_DIM() }
        let pair: Int16 = colours ? Int16(cell.style.role.rawValue + 1) : 0
        // Up to 4 scalars (a base and its combining marks), NUL-terminated, in a buffer on the
        // stack: a full-screen frame (the Timeline's toggle: ~3,900 cells) allocates nothing here.
        var wide: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &wide) { raw in
            let buffer = raw.bindMemory(to: wchar_t.self)
            for (i, scalar) in cell.text.unicodeScalars.prefix(4).enumerated() {
                buffer[i] = wchar_t(bitPattern: scalar.value)
            }
        }
        // Never let ncurses disagree with our width: if libc's wcwidth differs, draw placeholders.
        if wide.0 != 0, Int(bird_wcwidth(wide.0)) != cell.width {
            if cell.width == 2 {
                put(Cell(text: "?", width: 1, style: cell.style), x: x, y: y, in: win)
                put(Cell(text: " ", width: 1, style: cell.style), x: x + 1, y: y, in: win)
                return
            }
            wide = (wchar_t(bitPattern: UInt32(UInt8(ascii: "?"))), 0, 0, 0, 0)
        }
        var cc = cchar_t()
        withUnsafeMutableBytes(of: &wide) { raw in
            guard let text = raw.bindMemory(to: wchar_t.self).baseAddress else { return }
            setcchar(&cc, text, attrs, pair, nil)
        }
        mvwadd_wch(win, Int32(y), Int32(x), &cc)
    }

    private static func foreground(_ role: ColorRole) -> Int16 {
        switch role {
        case .normal, .dim: return -1
        case .border: return Int16(COLOR_BLUE)
        case .title: return -1
        case .accent, .selection: return Int16(COLOR_CYAN)
        case .good: return Int16(COLOR_GREEN)
        case .warn: return Int16(COLOR_YELLOW)
        case .bad: return Int16(COLOR_RED)
        case .info: return Int16(COLOR_BLUE)
        case .sent: return Int16(COLOR_MAGENTA)
        }
    }
}
