// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Playlists: an item that the engine finds to be a playlist (M3U, PLS, XSPF…) gives way to
/// its entries in the queue, whichever way it came in (opened, queued, in a folder, restored).
extension PlayerModel {
    /// The entries take the current item's place and the first plays; the ones that are missing
    /// are named in a warning. With nothing to play, the item fails and says why.
    func playlistRead(_ contents: PlaylistContents) {
        guard let item = currentItem, item.uri == contents.uri else { return }
        guard !contents.entries.isEmpty else {
            let reason = contents.problem
                ?? (contents.missing.isEmpty ? tr("it lists nothing.")
                                             : String(format: tr("the files it lists are not there: %@."), Self.names(contents.missing)))
            return fail(with: PlaybackError(kind: .notMedia, message: String(format: tr("This playlist has nothing Reel can play: %@"), reason)))
        }
        guard let added = queue.replace(id: item.id, with: contents.entries), let first = added.first else { return }
        notify(.queue)
        start(first, playing: choices.wantsToPlay)
        if !contents.missing.isEmpty {
            let message = String(format: trn("%d entry of “%@” is not there and was left out: %@.",
                                              "%d entries of “%@” are not there and were left out: %@.", contents.missing.count),
                                 contents.missing.count, item.displayName, Self.names(contents.missing))
            notify(.warning(first, PlaybackError(kind: .notFound, message: message)))
        }
    }

    /// "a.mp4, b.mp4, c.mp4 and 4 more".
    private static func names(_ names: [String]) -> String {
        let shown = names.prefix(3).joined(separator: ", ")
        return names.count <= 3 ? shown : String(format: trn("%@ and %d more", "%@ and %d more", names.count - 3), shown, names.count - 3)
    }
}
