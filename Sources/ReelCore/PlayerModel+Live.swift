// SPDX-License-Identifier: GPL-3.0-or-later
/// Live streams (internet radio, a live HLS stream): no seeking, no speed but 1×, a resume that
/// goes back to the live edge, and a stream the server dropped reconnected without being asked.
extension PlayerModel {
    /// The pauses before each attempt to reconnect, the last repeated for as long as it takes.
    static let reconnectDelays: [Seconds] = [1, 2, 4, 8, 15, 30]

    public var isLive: Bool { media?.isLive ?? false }
    /// Waiting to reconnect a live stream, or connecting again.
    public var isReconnecting: Bool { loaded.reconnectAttempt != nil }

    /// The station: the stream's own name (`icy-name`), or the name its playlist gave it.
    public var station: String? {
        guard isLive else { return nil }
        return media?.album ?? currentItem?.title
    }

    /// The media turned out live: it plays at 1× whatever speed the user set for the rest.
    func liveMediaArrived() {
        // Not told as a change of rate: the user's stays theirs (and in the settings).
        guard isLive else { return }
        engine.setRate(1)
    }

    /// A live stream that ended or failed on the way is the server dropping it: connect again
    /// after a pause that grows with each attempt. False when it is no live stream to keep.
    func reconnectIfLive() -> Bool {
        guard let item = currentItem, isLive || isReconnecting, choices.wantsToPlay else { return false }
        let attempt = (loaded.reconnectAttempt ?? -1) + 1
        loaded.reconnectAttempt = attempt
        let delay = Self.reconnectDelays[min(attempt, Self.reconnectDelays.count - 1)]
        setStatus(.loading)
        notify(.stallRecovery(.reconnect, at: position))
        skipAfterError = scheduler.schedule(after: delay) { [weak self] in
            guard let self, self.currentItem?.id == item.id, self.isReconnecting else { return }
            self.skipAfterError = nil
            // A new connection: the stream's time starts again.
            self.loaded.position = 0
            self.notify(.position)
            self.load(item, at: nil, playing: true)
        }
        return true
    }

    /// Playing again: the next drop starts the pauses over.
    func liveStreamPlays() { loaded.reconnectAttempt = nil }
}
