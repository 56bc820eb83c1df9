// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The lines of a subtitle file (SubRip or WebVTT), read whole and ahead of playback: line
/// navigation needs the next line before its time, and GStreamer hands each line over only as
/// its time comes. Other formats (ASS, MicroDVD) give no lines here.
public enum SubtitleCues {
    /// The file's lines in time order; none when it cannot be read or is not SubRip or WebVTT.
    public static func read(uri: String) -> [SubtitleLine] {
        guard let url = URL(string: uri), url.isFileURL, ["srt", "vtt"].contains(url.pathExtension.lowercased()),
              let data = try? Data(contentsOf: url, options: .mappedIfSafe), data.count < 10_000_000 else { return [] }
        let text = String(data: data, encoding: .utf8) ?? String(decoding: data, as: UTF8.self)
        return parse(text)
    }

    /// Cues are blocks separated by blank lines; a cue's timing line holds "-->", its text follows.
    public static func parse(_ text: String) -> [SubtitleLine] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        var cues: [SubtitleLine] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            let parts = lines[index].components(separatedBy: "-->")
            guard parts.count == 2, let start = time(parts[0]),
                  let end = time(parts[1].split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) ?? ""),
                  end > start else { continue }
            var body: [Substring] = []
            while index + 1 < lines.count, !lines[index + 1].trimmingCharacters(in: .whitespaces).isEmpty {
                index += 1
                body.append(lines[index])
            }
            let text = body.joined(separator: "\n")
            if !text.isEmpty { cues.append(SubtitleLine(text: text, isMarkup: true, start: start, end: end)) }
        }
        return cues.sorted { ($0.start ?? 0) < ($1.start ?? 0) }
    }

    /// "01:02:03,450", "01:02:03.450" or "02:03.450" in seconds.
    static func time(_ text: String) -> Seconds? {
        let fields = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard (2...3).contains(fields.count) else { return nil }
        var seconds: Seconds = 0
        for (position, field) in fields.enumerated() {
            guard field.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(field) else { return nil }
            let isLast = position == fields.count - 1
            guard isLast || value.rounded() == value else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }
}
