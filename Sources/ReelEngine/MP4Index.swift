// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Whether an MP4 (or QuickTime, 3GP, M4A) file lacks its index, the `moov` box: a recording or
/// download cut off before its end, when the index is written last. Workaround (GStreamer 1.22's
/// playbin; goes when BadMediaTests' truncated file is reported at once without it): its playbin
/// sometimes loses qtdemux's "no playable streams" error about such a file (a race: a second
/// pipeline in a process hung in half the tries, none with logging on), and the item then waits
/// out the model's start timeout; read here, the user hears at once.
enum MP4Index {
    /// true when the file is ISO-BMFF (its first box is `ftyp`) and its top-level boxes end, or
    /// run past the end of the file, before any `moov`; false otherwise or when it cannot tell.
    static func isMissing(path: String) -> Bool {
        // A regular file only: opening a pipe would wait for its writer.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let size = try? file.seekToEnd() else { return false }
        var offset: UInt64 = 0
        var first = true
        while offset + 8 <= size {
            guard (try? file.seek(toOffset: offset)) != nil, let header = try? file.read(upToCount: 16),
                  header.count >= 8 else { return false }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if first, type != "ftyp" { return false }
            first = false
            if type == "moov" { return false }
            var length = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if length == 1 {  // a 64-bit size follows the type
                guard header.count >= 16 else { return true }
                length = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            // 0: the box runs to the end of the file. Shorter than a header: not a box at all.
            if length == 0 { return true }
            if length < 8 { return false }
            offset += length
        }
        return !first
    }
}
