// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore

/// What the engine knows of the item it was last given: all of it starts afresh with each load.
struct EngineItem {
    let uri: String
    /// Handed to GstPlay and not yet confirmed by its "uri-loaded". Until then, what the
    /// adapter delivers (states, errors, the end of a stream) still belongs to an earlier
    /// item — queued on the main context before the load — and is dropped: a client loading
    /// thousands of items a second otherwise saw errors and ends of old items land on new ones.
    var awaitingLoad = false
    /// Kept from GstPlay (missing, unreadable, a playlist): there is nothing to play, and
    /// GstPlay must not play its previous item instead.
    var keptFromGstPlay = false
    /// Asked to play (rather than pause) while kept from GstPlay: done once it is handed over.
    var playsOnceHanded = false
    var warnedAboutMissingCodec = false
    var lastMediaInfo: MediaInfo?
    /// Joined to the last item by playbin (`GaplessJoin`): GstPlay's media info still
    /// describes the item it loaded, and is not passed on.
    var joined = false

    /// The item's name as messages give it.
    var name: String { QueueItem(id: 0, uri: uri).displayName }
    var isNetwork: Bool { !QueueItem(id: 0, uri: uri).isLocalFile }
}
