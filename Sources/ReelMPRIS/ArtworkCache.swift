// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore

/// Writes cover images where MPRIS clients can read them: `$XDG_CACHE_HOME/reel/art`, a private
/// folder (0700) of private files (0600) named by a hash of their bytes, so a name is unique per
/// image, cannot be steered by tags, and an image already written is not written again.
public final class ArtworkCache {
    public let directory: URL
    private let maximumFiles = 32

    public init(directory: URL? = nil) {
        if let directory {
            self.directory = directory
        } else {
            let env = ProcessInfo.processInfo.environment
            let cache = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? (NSHomeDirectory() + "/.cache")
            self.directory = URL(fileURLWithPath: cache).appendingPathComponent("reel/art")
        }
    }

    /// A `file://` URI for `bytes`, written if needed; nil when the cache cannot be written.
    public func uri(for bytes: [UInt8], fileExtension: String) -> String? {
        let safeExtension = fileExtension.allSatisfy { $0.isLetter } ? fileExtension : "img"
        let file = directory.appendingPathComponent("\(Self.hash(bytes)).\(safeExtension)")
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            if !fm.fileExists(atPath: file.path) {
                let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
                guard fm.createFile(atPath: temporary.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                    return nil
                }
                try fm.moveItem(at: temporary, to: file)
                prune()
            }
            return file.absoluteString
        } catch {
            return nil
        }
    }

    /// Keeps the folder small: the newest files stay.
    private func prune() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path), names.count > maximumFiles else { return }
        let dated = names.compactMap { name -> (String, Date)? in
            let path = directory.appendingPathComponent(name).path
            guard let date = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
            return (path, date)
        }.sorted { $0.1 > $1.1 }
        for (path, _) in dated.dropFirst(maximumFiles) { try? fm.removeItem(atPath: path) }
    }

    /// 64-bit FNV-1a: a stable name for the content (not a security boundary; the folder is).
    static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-\(bytes.count)"
    }
}
