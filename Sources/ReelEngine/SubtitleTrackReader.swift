// SPDX-License-Identifier: GPL-3.0-or-later
import CShims
import ReelCore
import ReelGLib

/// Reads an embedded subtitle track whole, ahead of playback (the second subtitle track needs
/// every line, and GStreamer hands the playing track's lines over only as their time comes).
/// The file is demuxed, not decoded, on a thread of its own (`subtitle_reader.c`).
enum SubtitleTrackReader {
    private final class Request: @unchecked Sendable {
        let completion: @MainActor ([SubtitleLine]) -> Void
        init(_ completion: @escaping @MainActor ([SubtitleLine]) -> Void) { self.completion = completion }
    }

    /// Hands the lines of `uri`'s text track `track` to `completion`, on the main loop.
    static func read(uri: String, track: Int, completion: @escaping @MainActor ([SubtitleLine]) -> Void) {
        let request = Unmanaged.passRetained(Request(completion)).toOpaque()
        reel_read_subtitle_track(uri, guint(track), { texts, starts, ends, count, markup, data in
            let request = Unmanaged<Request>.fromOpaque(data!).takeRetainedValue()
            var lines: [SubtitleLine] = []
            for index in 0..<Int(count) {
                guard let text = texts?[index].map({ String(cString: $0) }), let start = starts?[index] else { continue }
                let end = ends?[index] ?? -1
                lines.append(SubtitleLine(text: text, isMarkup: markup != 0, start: Seconds(start) / GStreamer.nanosecondsPerSecond,
                                          end: end < 0 ? nil : Seconds(end) / GStreamer.nanosecondsPerSecond))
            }
            let result = lines
            runSoon { request.completion(result) }
        }, request)
    }
}
