// OSC 52: how a terminal program puts text on the clipboard (the terminal, or tmux, does the rest).

import Foundation

/// The bytes that ask the terminal to copy text (`ESC ] 52 ; c ; <base64> BEL`).
public enum Clipboard {
    /// The largest text `y` copies (terminals cap OSC 52; larger entries go to a file with `w`).
    public static let maxBytes = 100 * 1024

    /// The OSC 52 sequence that sets the clipboard to `text`.
    public static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }

    /// `sequence` in tmux's passthrough (`ESC Ptmux; … ESC \`, every ESC inside doubled), which
    /// tmux hands to the outer terminal when `allow-passthrough` is on.
    public static func tmuxPassthrough(_ sequence: String) -> String {
        "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }

    /// What the driver writes to the terminal to copy `text`: the plain sequence, and inside tmux
    /// (`$TMUX` set) also the passthrough form — tmux takes the plain one into a paste buffer (and
    /// on to the outer terminal) with `set-clipboard on`, the wrapped one with `allow-passthrough`.
    public static func bytes(copying text: String, insideTmux: Bool) -> [UInt8] {
        let plain = osc52(text)
        return Array((insideTmux ? plain + tmuxPassthrough(plain) : plain).utf8)
    }
}
