// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CGstPbutils
import CShims
import ReelCore
import ReelGLib

/// What the pipeline's bus says about an item, kept so a failure can be put in words:
/// missing-plugin messages (to name the codec and the Debian package that provides it, instead
/// of "Your GStreamer installation is missing a plug-in"), and where the first error came from.
/// GstPlay hands errors on re-wrapped in its own domain, so their origin is read here, from the
/// bus. Messages arrive on streaming threads (sync emission), hence the lock.
final class PipelineReports: Sendable {
    struct MissingPlugin: Sendable {
        let description: String
        let package: String
    }

    /// The first error's GError domain and code, and whether a source element (reading the
    /// file or the network) raised it rather than a demuxer or decoder.
    struct ErrorOrigin: Sendable {
        let domain: GQuark
        let code: Int32
        let fromSource: Bool
    }

    private struct Reports {
        var missing: [MissingPlugin] = []
        var firstError: ErrorOrigin?
    }

    private let reports = Locked(Reports())

    var firstMissingPlugin: MissingPlugin? { reports.withLock { $0.missing.first } }
    var firstError: ErrorOrigin? { reports.withLock { $0.firstError } }
    func reset() { reports.withLock { $0 = Reports() } }

    func watch(_ pipeline: UnsafeMutablePointer<GstElement>) {
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(gpointer(bus)) }
        gst_bus_enable_sync_message_emission(bus)
        connectSignal(UnsafeMutableRawPointer(bus), "sync-message::element") { [weak self] args in
            guard let self, let message = args.pointer(1)?.assumingMemoryBound(to: GstMessage.self),
                  gst_is_missing_plugin_message(message) != 0 else { return }
            let description = takeString(gst_missing_plugin_message_get_description(message)) ?? tr("codec")
            let detail = takeString(gst_missing_plugin_message_get_installer_detail(message)) ?? ""
            let entry = MissingPlugin(description: description, package: Self.debianPackage(forInstallerDetail: detail))
            self.reports.withLock { $0.missing.append(entry) }
        }
        connectSignal(UnsafeMutableRawPointer(bus), "sync-message::error") { [weak self] args in
            guard let self, let message = args.pointer(1)?.assumingMemoryBound(to: GstMessage.self) else { return }
            var error: UnsafeMutablePointer<GError>?
            gst_message_parse_error(message, &error, nil)
            guard let error else { return }
            defer { g_error_free(error) }
            let origin = ErrorOrigin(domain: error.pointee.domain, code: error.pointee.code,
                                     fromSource: reel_is_base_src(message.pointee.src) != 0)
            self.reports.withLock { if $0.firstError == nil { $0.firstError = origin } }
        }
    }

    /// The Debian 12 package that provides a decoder for the caps named in an installer detail
    /// string ("gstreamer|1.0|app|H.265 decoder|decoder-video/x-h265, …").
    static func debianPackage(forInstallerDetail detail: String) -> String {
        let libav = ["x-h265", "x-h264", "mpeg", "x-aac", "x-ac3", "x-eac3", "x-wmv", "x-wma", "x-msmpeg",
                     "x-divx", "x-prores", "x-dts", "x-alac", "x-av1"]
        if libav.contains(where: detail.contains) { return "gstreamer1.0-libav" }
        if detail.contains("x-vp") || detail.contains("x-theora") || detail.contains("x-vorbis") ||
            detail.contains("x-opus") || detail.contains("x-flac") {
            return "gstreamer1.0-plugins-good gstreamer1.0-plugins-base"
        }
        return "gstreamer1.0-plugins-bad"
    }
}
