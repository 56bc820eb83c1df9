// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import Foundation
import ReelCore
import ReelGLib

/// Every failure the engine reports, put in plain words: a local file checked before GStreamer
/// sees it, a pipeline's error read from what its bus said, a file that never started, a codec
/// that is missing. Names are the item's display name, quoted.
enum ErrorWording {
    /// The common problems with a local file, found before GStreamer sees it.
    static func localFileProblem(_ uri: String) -> PlaybackError? {
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
        if MP4Index.isMissing(path: path) {
            return PlaybackError(kind: .notMedia, message: String(format: tr("“%@” could not be opened; it may be damaged or incomplete."), name))
        }
        return nil
    }

    /// What the user reads about `name` when it needs a plugin that is not installed (to play
    /// at all, or in part).
    static func missingPlugin(_ missing: PipelineReports.MissingPlugin, name: String) -> String {
        String(format: tr("“%@” needs the %@, which is missing; install %@."), name, missing.description, missing.package)
    }

    /// A pipeline's failure, from what its bus said about it (GstPlay's own error only carries
    /// GStreamer's text, re-wrapped in its domain; that text goes in `detail`).
    static func pipelineFailure(_ name: String, isNetwork: Bool, reports: PipelineReports, detail: String?) -> PlaybackError {
        if let missing = reports.firstMissingPlugin {
            return PlaybackError(kind: .missingCodec, message: missingPlugin(missing, name: name), detail: detail)
        }
        let origin = reports.firstError
        // Reading failed (refused, 404, cut off) rather than understanding what was read.
        if let origin, origin.domain == gst_resource_error_quark() || origin.fromSource {
            if isNetwork {
                return PlaybackError(kind: .network, message: String(format: tr("“%@” could not be loaded from the network."), name),
                                     detail: detail)
            }
            if origin.code == Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), origin.domain == gst_resource_error_quark() {
                return PlaybackError(kind: .notFound, message: String(format: tr("“%@” does not exist."), name), detail: detail)
            }
            return PlaybackError(kind: .notReadable, message: String(format: tr("“%@” could not be read."), name), detail: detail)
        }
        if let origin, origin.domain == gst_core_error_quark(), origin.code == Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue) {
            return PlaybackError(kind: .missingCodec,
                                 message: String(format: tr("A decoder needed for “%@” is missing; install gstreamer1.0-libav and gstreamer1.0-plugins-bad."), name),
                                 detail: detail)
        }
        return PlaybackError(kind: .notMedia, message: String(format: tr("“%@” is not a video Reel can read."), name), detail: detail)
    }
}
