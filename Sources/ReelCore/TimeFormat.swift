// SPDX-License-Identifier: GPL-3.0-or-later
/// Formats media times for labels: "0:07", "12:34", "1:02:03"; "--:--" while unknown.
public enum TimeFormat {
    public static let unknown = "--:--"

    public static func string(_ seconds: Seconds?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return unknown }
        let total = Int(seconds.rounded(.down))
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// "-1:23" for a remaining-time label.
    public static func remaining(position: Seconds, duration: Seconds?) -> String {
        guard let duration, duration.isFinite else { return unknown }
        return "-" + string(max(0, duration - position))
    }
}
