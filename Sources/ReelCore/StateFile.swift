// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A small file of state that must survive crashes: written whole to a temporary file beside
/// it, flushed to disk, then renamed over the old one, so a reader finds the old or the new
/// contents and never a mix. A file that cannot be read back is set aside, never fatal.
public struct StateFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_STATE_HOME/reel/<name>` (`~/.local/state/reel/<name>` when unset).
    public static func named(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> StateFile {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.local/state")
        return StateFile(path: base + "/reel/" + name)
    }

    public enum Failure: Error, Equatable {
        case unreadable(String)
    }

    /// The file's contents, nil when it does not exist.
    public func read() -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// Replaces the file atomically and durably (temporary file, fsync, rename, fsync of the directory).
    public func write(_ data: Data) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = directory + "/." + (path as NSString).lastPathComponent + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += written
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }

    /// Moves a damaged file out of the way (`name.corrupt-<time>`) and returns where it went.
    @discardableResult
    public func setAside() -> String? {
        let destination = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        return rename(path, destination) == 0 ? destination : nil
    }
}
