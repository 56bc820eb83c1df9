// SPDX-License-Identifier: GPL-3.0-or-later
/// The sleep timer, for listening in bed or to a lecture: pause after a while, or at the end of
/// the item playing, the sound fading out over the last `sleepFade` seconds. Sleeping is pausing
/// (MPRIS says Paused); play goes on from there, at the volume set.
extension PlayerModel {
    public enum Sleep: Equatable, Sendable { case after(Seconds), endOfItem }

    /// The timer running: what it waits for, the time left, its next second.
    struct SleepTimer {
        var sleep: Sleep
        var remaining: Seconds?
        var tick: ScheduledAction?
    }

    static let sleepFade: Seconds = 10
    /// How long one may ask for: up to a day.
    nonisolated public static let sleepRange: ClosedRange<Seconds> = 1...86_400

    public var sleep: Sleep? { choices.sleep?.sleep }
    /// The time left before sleeping after a while (nil at the end of the item, or off).
    public var sleepRemaining: Seconds? { choices.sleep?.remaining }

    /// Sets the timer, or cancels it with nil; a fade under way is undone.
    public func setSleep(_ sleep: Sleep?) {
        if case .after(let seconds)? = sleep, !(seconds.isFinite && Self.sleepRange.contains(seconds)) { return }
        choices.sleep = nil
        engine.setVolume(volume)
        if let sleep {
            if case .after(let seconds) = sleep {
                choices.sleep = SleepTimer(sleep: sleep, remaining: seconds)
                scheduleSleepTick()
            } else {
                choices.sleep = SleepTimer(sleep: sleep)
            }
        }
        notify(.sleep)
    }

    /// The timer counts the time that passes, playing or not, as a clock does.
    private func scheduleSleepTick() {
        choices.sleep?.tick = scheduler.schedule(after: 1) { [weak self] in self?.sleepTick() }
    }

    private func sleepTick() {
        guard let remaining = choices.sleep?.remaining else { return }
        let left = remaining - 1
        guard left > 0 else {
            choices.sleep = nil
            notify(.sleep)
            return fallAsleep()
        }
        choices.sleep?.remaining = left
        fadeForSleep(left: left)
        scheduleSleepTick()
        notify(.sleep)
    }

    /// Whether the sound is being faded (or is silent) for the timer: the engine's reports of
    /// the volume are then the fade's.
    var isFadingForSleep: Bool {
        if choices.fadedOut { return true }
        switch sleep {
        case .after?: return (sleepRemaining ?? .infinity) < Self.sleepFade
        case .endOfItem?: return duration.map { $0 - position < Self.sleepFade } ?? false
        case nil: return false
        }
    }

    /// The sound lowered in step with the time left, over the fade's seconds.
    func fadeForSleep(left: Seconds) {
        guard left < Self.sleepFade, status.isPlaying else { return }
        engine.setVolume(volume * max(0, left) / Self.sleepFade)
    }

    /// Silent, then paused; the volume comes back with the next play (at once, it would be
    /// heard in the moment the pause takes to take hold).
    private func fallAsleep() {
        engine.setVolume(0)
        choices.fadedOut = true
        pause()
    }

    /// Playing again after sleeping: at the volume set.
    func wakeFromSleep() {
        guard choices.fadedOut else { return }
        choices.fadedOut = false
        engine.setVolume(volume)
    }

    /// The item playing ended with the timer set for its end: the next waits, paused, at its start.
    /// True when it did.
    func sleepAtEndOfItem() -> Bool {
        guard sleep == .endOfItem else { return false }
        choices.sleep = nil
        notify(.sleep)
        engine.setVolume(volume)
        if let index = queue.nextIndex, let next = queue.moveTo(index: index) {
            start(next, playing: false)
        } else {
            choices.wantsToPlay = false
            setStatus(.ended)
        }
        return true
    }
}
