// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Finds queue items by what the queue panel shows of them: the title their tags gave, or their
/// file name. The name is searched in the URI itself (the query escaped as URIs escape it, both
/// compared without regard to ASCII case), so that 100,000 items take milliseconds, not a URL
/// parse each.
public struct QueueFilter: Sendable {
    private let query: String
    private let needle: [UInt8]

    /// Nil for a query of blanks only: nothing to filter by.
    public init?(_ query: String) {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return nil }
        self.query = query.lowercased()
        needle = Array(MediaFolder.escaped(self.query).utf8).map(Self.folded)
    }

    public func matches(_ item: QueueItem, title: String?) -> Bool {
        if let title, title.lowercased().contains(query) { return true }
        var uri = item.uri
        return uri.withUTF8 { bytes in
            // The last segment: the file name, escaped.
            var start = bytes.count
            while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
            return contains(bytes[start...])
        }
    }

    private func contains(_ haystack: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if Self.folded(haystack[index]) == first {
                var matched = 1
                while matched < needle.count, Self.folded(haystack[index + matched]) == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    private static func folded(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte + 32 : byte }
}
