import Foundation
import ReelCore
import ReelGLib

/// Checks a local file before GStreamer sees it, so the common problems get plain words.
enum LocalFileCheck {
    static func problem(with uri: String) -> PlaybackError? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let path = url.path
        let name = url.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return PlaybackError(kind: .notFound, message: String(format: tr("“%@” does not exist."), name))
        }
        if isDirectory.boolValue {
            return PlaybackError(kind: .notMedia, message: String(format: tr("“%@” is a folder with no video Reel can play."), name))
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return PlaybackError(kind: .notReadable, message: String(format: tr("Reel is not allowed to read “%@”."), name))
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue == 0 {
            return PlaybackError(kind: .notMedia, message: String(format: tr("“%@” is empty."), name))
        }
        return nil
    }
}
