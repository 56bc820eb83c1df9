// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where the user left long files, and how they left any file (`FileChoices`: speed, tracks,
/// subtitles, loop, line mode), so they open again as they were. Kept in one small JSON file
/// (`$XDG_STATE_HOME/reel/positions.json`), keyed by a hash of the URI so the file does not
/// list what the user watched; written atomically.
@MainActor
public final class ResumePositions {
    /// Only files longer than this are worth resuming.
    public static let minimumDuration: Seconds = 180
    /// Positions this close to either end are not worth keeping.
    static let margin: Seconds = 10
    /// The oldest entries go beyond this many.
    static let capacity = 500

    private struct Entry: Codable, Equatable {
        /// nil when only the choices are kept (a short file, or one played to its end).
        var position: Seconds?
        var saved: Double
        var choices: FileChoices?

        var isEmpty: Bool { position == nil && (choices?.isEmpty ?? true) }
    }

    private let file: StateFile
    private var entries: [String: Entry] = [:]
    /// What went wrong reading the file at start-up, for the log; the file was set aside.
    public private(set) var loadProblem: String?

    public init(file: StateFile) {
        self.file = file
        guard let data = file.read() else { return }
        do {
            entries = try JSONDecoder().decode([String: Entry].self, from: data).compactMapValues { entry in
                var entry = entry
                if let position = entry.position, !(position.isFinite && position > 0) { entry.position = nil }
                return entry.isEmpty ? nil : entry
            }
        } catch {
            let movedTo = file.setAside()
            loadProblem = "resume positions in \(file.path) could not be read and were set aside"
                + (movedTo.map { " as \($0)" } ?? "") + ": \(error)"
        }
    }

    public func position(for uri: String) -> Seconds? {
        entries[Self.key(for: uri)]?.position
    }

    public func choices(for uri: String) -> FileChoices? {
        entries[Self.key(for: uri)]?.choices
    }

    /// Records `position` for a long file, or forgets it when it is near either end.
    public func update(uri: String, position: Seconds, duration: Seconds) {
        guard duration > Self.minimumDuration, position.isFinite else { return }
        if position < Self.margin || position > duration - Self.margin { return forget(uri: uri) }
        change(uri) { $0.position = position }
    }

    /// Records how the user left the file (nothing, when they changed nothing worth keeping).
    public func update(uri: String, choices: FileChoices) {
        change(uri) { $0.choices = choices.isEmpty ? nil : choices }
    }

    /// Forgets where the file was left (it was played to its end, or started over); its
    /// choices stay.
    public func forget(uri: String) {
        change(uri) { $0.position = nil }
    }

    private func change(_ uri: String, _ edit: (inout Entry) -> Void) {
        let key = Self.key(for: uri)
        var entry = entries[key] ?? Entry(saved: 0)
        let before = entries[key]
        edit(&entry)
        if entry.isEmpty {
            guard before != nil else { return }
            entries[key] = nil
        } else {
            var compared = entry
            compared.saved = before?.saved ?? 0
            guard compared != before else { return }
            entry.saved = Date().timeIntervalSince1970
            entries[key] = entry
            if entries.count > Self.capacity {
                let oldest = entries.min { $0.value.saved < $1.value.saved }!.key
                entries[oldest] = nil
            }
        }
        save()
    }

    private func save() {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try file.write(encoder.encode(entries))
        } catch {
            // Losing a resume position is not worth interrupting playback for.
            loadProblem = "resume positions could not be saved to \(file.path): \(error)"
        }
    }

    /// FNV-1a, 64 bits, as hex: stable across runs and platforms (Swift's hashValue is not).
    static func key(for uri: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uri.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Where long items were left (`ResumePositions`, when the app keeps them), saved whenever the
/// model asks and every few seconds of playback, so a crash loses at most that much.
@MainActor
final class ResumeKeeper {
    static let saveInterval: Seconds = 5
    private let positions: ResumePositions?
    private var sinceSave: Seconds = 0

    init(positions: ResumePositions?) { self.positions = positions }

    func position(for uri: String) -> Seconds? { positions?.position(for: uri) }
    func choices(for uri: String) -> FileChoices? { positions?.choices(for: uri) }
    func forget(uri: String) { positions?.forget(uri: uri) }
    func save(uri: String, choices: FileChoices) { positions?.update(uri: uri, choices: choices) }

    func save(uri: String, position: Seconds, duration: Seconds) {
        saved()
        positions?.update(uri: uri, position: position, duration: duration)
    }

    /// Nothing to save: the count starts again all the same.
    func saved() { sinceSave = 0 }

    /// Playback went on for `seconds`; whether a save is due.
    func played(_ seconds: Seconds) -> Bool {
        sinceSave += seconds
        return sinceSave >= Self.saveInterval
    }
}
