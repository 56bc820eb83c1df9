// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The command line's playback options, checked before anything starts so a nonsense value
/// is refused with a clear message and a non-zero exit status, not quietly clamped.
public struct CommandLineOptions: Equatable, Sendable {
    public var enqueue = false
    public var repeatEach: Int?
    public var gap: Seconds?
    public var rate: Double?
    /// `--ab-loop=A-B`: the stretch to loop in the first item opened.
    public var abLoop: ABLoop?
    /// `--sub-delay=SECONDS`: subtitles shown this much later (earlier when negative).
    public var subtitleDelay: Seconds?
    /// `--audio-delay=SECONDS`: the sound this much later than the picture (earlier when negative).
    public var audioDelay: Seconds?
    /// `--loop-lines`, `--pause-after-lines`: the learner's line by line and shadowing.
    public var loopLines = false
    public var pauseAfterLines = false
    /// `--sleep=MINUTES`: pause after that long, the sound fading out (`+Sleep`).
    public var sleepMinutes: Double?

    public init(enqueue: Bool = false, repeatEach: Int? = nil, gap: Seconds? = nil, rate: Double? = nil, abLoop: ABLoop? = nil) {
        self.enqueue = enqueue
        self.repeatEach = repeatEach
        self.gap = gap
        self.rate = rate
        self.abLoop = abLoop
    }

    /// Reads the options' text as typed (GLib's own number options cannot tell `--gap=0` from no
    /// option at all); a value that is not a number is a problem, reported by `problem`.
    public init(enqueue: Bool, repeatEach: String?, gap: String?, rate: String?, abLoop: String? = nil, subtitleDelay: String? = nil,
                audioDelay: String? = nil, sleep: String? = nil) {
        self.enqueue = enqueue
        func number(_ text: String?, _ option: String) -> Double? {
            guard let text else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                unreadable = unreadable ?? String(format: tr("%@ needs a number, not “%@”."), option, text)
                return nil
            }
            return value
        }
        if let value = number(repeatEach, "--repeat-each") {
            if value.rounded() == value, let whole = Int(exactly: value) { self.repeatEach = whole } else {
                unreadable = unreadable ?? String(format: tr("%@ needs a whole number, not “%@”."), "--repeat-each", repeatEach ?? "")
            }
        }
        self.gap = number(gap, "--gap")
        self.rate = number(rate, "--rate")
        self.subtitleDelay = number(subtitleDelay, "--sub-delay")
        self.audioDelay = number(audioDelay, "--audio-delay")
        self.sleepMinutes = number(sleep, "--sleep")
        if let abLoop {
            let ends = abLoop.split(separator: "-", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if ends.count == 2, let start = ends[0], let end = ends[1] {
                self.abLoop = ABLoop(start: start, end: end)
            } else {
                unreadable = unreadable ?? String(format: tr("--ab-loop needs a start and an end in seconds, such as 12.5-15, not “%@”."), abLoop)
            }
        }
    }

    /// An option whose text was not a number.
    private var unreadable: String?

    /// The first problem with the values, in words, or nil when all are usable.
    public var problem: String? {
        if let unreadable { return unreadable }
        if let repeatEach, !PlayerModel.repeatRange.contains(repeatEach) {
            return String(format: tr("--repeat-each must be a whole number from %d to %d (got %d)."),
                          PlayerModel.repeatRange.lowerBound, PlayerModel.repeatRange.upperBound, repeatEach)
        }
        if let gap, !(gap.isFinite && PlayerModel.gapRange.contains(gap)) {
            return String(format: tr("--gap must be a number of seconds from %g to %g (got %@)."),
                          PlayerModel.gapRange.lowerBound, PlayerModel.gapRange.upperBound, "\(gap)")
        }
        if let rate, !(rate.isFinite && PlayerModel.rateRange.contains(rate)) {
            return String(format: tr("--rate must be a speed from %g to %g (got %@)."),
                          PlayerModel.rateRange.lowerBound, PlayerModel.rateRange.upperBound, "\(rate)")
        }
        if let subtitleDelay, !(subtitleDelay.isFinite && PlayerModel.subtitleDelayRange.contains(subtitleDelay)) {
            return String(format: tr("--sub-delay must be a number of seconds from %g to %g (got %@)."),
                          PlayerModel.subtitleDelayRange.lowerBound, PlayerModel.subtitleDelayRange.upperBound, "\(subtitleDelay)")
        }
        if let audioDelay, !(audioDelay.isFinite && PlayerModel.audioDelayRange.contains(audioDelay)) {
            return String(format: tr("--audio-delay must be a number of seconds from %g to %g (got %@)."),
                          PlayerModel.audioDelayRange.lowerBound, PlayerModel.audioDelayRange.upperBound, "\(audioDelay)")
        }
        if let sleepMinutes, !(sleepMinutes.isFinite && PlayerModel.sleepRange.contains(sleepMinutes * 60)) {
            return String(format: tr("--sleep must be a number of minutes from %g to %g (got %@)."),
                          PlayerModel.sleepRange.lowerBound / 60, PlayerModel.sleepRange.upperBound / 60, "\(sleepMinutes)")
        }
        if let abLoop, let end = abLoop.end,
           !(abLoop.start.isFinite && end.isFinite && abLoop.start >= 0 && end - abLoop.start >= PlayerModel.minimumStretch) {
            return String(format: tr("--ab-loop must end at least %g s after it starts (got %@)."),
                          PlayerModel.minimumStretch, "\(abLoop.start)-\(end)")
        }
        return nil
    }

    /// Applies the options to the model (for this run; `--rate` is remembered like any speed change).
    @MainActor
    public func apply(to model: PlayerModel) {
        if let repeatEach { model.setRepeatEach(repeatEach) }
        if let gap { model.setGap(gap) }
        if let rate { model.setRate(rate) }
        if let subtitleDelay { model.setSubtitleDelay(subtitleDelay) }
        if let audioDelay { model.setAudioDelay(audioDelay) }
        if loopLines { model.setLoopsLines(true) }
        if pauseAfterLines { model.setPausesAfterLines(true) }
        if let sleepMinutes { model.setSleep(.after(sleepMinutes * 60)) }
    }
}
