// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Messages for whoever reads the terminal or the journal. User-facing errors go to the window;
/// these carry the technical detail.
public enum Log {
    public static func warning(_ message: String) {
        writeLine("reel: \(message)")
    }

    /// One write(2) per line, so lines from several threads never interleave.
    private static func writeLine(_ line: String) {
        var text = line
        text += "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
