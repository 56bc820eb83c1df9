// SPDX-License-Identifier: GPL-3.0-or-later
/// Every key of Reel's GSettings schema, with its type and what Reel accepts: the one table the
/// app's settings and Preferences read, and that SettingKeyTests checks the schema against.
public enum SettingKey: String, CaseIterable, Sendable {
    case skipInterval = "skip-interval", rate, volume, resumePlayback = "resume-playback"
    case repeatEach = "repeat-each", gap, continueAfterErrors = "continue-after-errors", nightMode = "night-mode"
    case recurseFolders = "recurse-folders"
    case lineLeadIn = "line-lead-in", lineLeadOut = "line-lead-out"
    case minimizeAction = "minimize-action", closeAction = "close-action"
    case windowWidth = "window-width", windowHeight = "window-height"

    /// The key's GVariant type.
    public var type: String {
        switch self {
        case .skipInterval, .repeatEach, .windowWidth, .windowHeight: return "i"
        case .rate, .volume, .gap, .lineLeadIn, .lineLeadOut: return "d"
        case .resumePlayback, .continueAfterErrors, .nightMode, .recurseFolders: return "b"
        case .minimizeAction, .closeAction: return "s"
        }
    }

    /// The values a number may take (the model's own limits where it has them).
    public var range: ClosedRange<Double>? {
        switch self {
        case .skipInterval: return 1...300
        case .rate: return PlayerModel.rateRange
        case .volume: return PlayerModel.volumeRange
        case .repeatEach: return Double(PlayerModel.repeatRange.lowerBound)...Double(PlayerModel.repeatRange.upperBound)
        case .gap: return PlayerModel.gapRange
        case .lineLeadIn, .lineLeadOut: return PlayerModel.lineMarginRange
        default: return nil
        }
    }

    /// The values a string may take.
    public var choices: [String]? {
        switch self {
        case .minimizeAction: return ["keep-playing", "pause"]
        case .closeAction: return ["quit", "keep-playing"]
        default: return nil
        }
    }
}
