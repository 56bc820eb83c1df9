// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import ReelCore
import ReelGLib

/// What MPRIS needs from the application beyond the player model.
@MainActor
public protocol MPRISHost: AnyObject {
    func raise()
    func quit()
    var isFullscreen: Bool { get }
    func setFullscreen(_ fullscreen: Bool)
    /// A picture of the frame on screen (PNG), for video without cover art.
    func currentFramePNG() -> [UInt8]?
}

/// The MPRIS 2.2 server: the desktop's media controls (GNOME Shell, KDE Plasma, playerctl, media
/// keys) read and drive the player model through it. It observes the model, never the window.
///
/// Changes go out as PropertiesChanged carrying values, and only for properties whose value
/// really changed: after every model change the exported properties are recomputed and compared
/// with what was last sent. Position is never pushed; Seeked reports every finished seek.
@MainActor
public final class MPRISServer: DBusObjectHandler {
    public static let busName = "org.mpris.MediaPlayer2.Reel"
    public static let supportedSchemes = MediaLocation.supportedSchemes

    private let model: PlayerModel
    private weak var host: MPRISHost?
    private let connection: OpaquePointer
    /// The root interface's fixed facts: DesktopEntry and SupportedMimeTypes.
    private let identity: (desktopEntry: String, mimeTypes: [String])
    private let artwork: ArtworkCache
    private var object: DBusObject?
    private var observation: PlayerModel.Observation?
    private var nameOwnerID: guint = 0
    /// What clients were last told, to send only what changed.
    private var sent: (player: [String: Variant], root: [String: Variant], trackIDs: [Int]) = ([:], [:], [])
    /// A frame grabbed as stand-in cover art, per queue entry.
    private var grabbedArt: (itemID: Int, uri: String)?
    private var grabTimer: guint = 0
    public private(set) var ownedName: String?

    public init(connection: OpaquePointer, model: PlayerModel, host: MPRISHost, desktopEntry: String,
                mimeTypes: [String], artwork: ArtworkCache = ArtworkCache()) throws(DBusError) {
        self.connection = connection
        self.model = model
        self.host = host
        identity = (desktopEntry, mimeTypes)
        self.artwork = artwork
        object = try DBusObject(connection: connection, path: MPRISInterfaces.objectPath,
                                introspectionXML: MPRISInterfaces.xml, handler: self)
        sent = (playerProperties(), rootProperties(), trackWindow.map(\.id))
        observation = model.observe { [weak self] change in self?.modelChanged(change) }
        ownName(Self.busName, fallback: true)
    }

    isolated deinit {
        if nameOwnerID != 0 { g_bus_unown_name(nameOwnerID) }
        if grabTimer != 0 { g_source_remove(grabTimer) }
    }

    /// Owns the well-known name; when another Reel has it, `…Reel.instance<pid>` as the spec asks.
    private func ownName(_ name: String, fallback: Bool) {
        nameOwnerID = g_bus_own_name_on_connection(
            connection, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
            { _, name, data in
                let owned = String(cString: name!)
                MainActor.assumeIsolated { ValueBox<NameOwner>.value(data).server?.ownedName = owned }
            },
            { _, _, data in
                MainActor.assumeIsolated {
                    let owner = ValueBox<NameOwner>.value(data)
                    guard let server = owner.server, owner.fallback, server.ownedName == nil else { return }
                    g_bus_unown_name(server.nameOwnerID)
                    server.ownName("\(MPRISServer.busName).instance\(getpid())", fallback: false)
                }
            },
            ValueBox(NameOwner(server: self, fallback: fallback)).retained(), CallbackBox.release)
    }

    /// The host's own state changed (fullscreen).
    public func hostChanged() { publishChanges() }

    // MARK: Model → D-Bus

    private func modelChanged(_ change: PlayerModel.Change) {
        switch change {
        case .position:
            return  // read on demand, never pushed
        case .seeked(let position):
            object?.emitSignal(interface: MPRISInterfaces.player, name: "Seeked", [.int64(Self.micro(position))])
        case .media:
            scheduleFrameGrab()
        case .queue:
            publishTrackListChanges()
        case .item:
            scheduleFrameGrab()
            publishTrackListChanges()
        default:
            break
        }
        publishChanges()
    }

    private func publishChanges() {
        let player = playerProperties()
        let changed = player.keys.sorted().filter { sent.player[$0] != player[$0] }.map { ($0, player[$0]!) }
        sent.player = player
        object?.emitPropertiesChanged(interface: MPRISInterfaces.player, changed)
        let root = rootProperties()
        let rootChanged = root.keys.sorted().filter { sent.root[$0] != root[$0] }.map { ($0, root[$0]!) }
        sent.root = root
        object?.emitPropertiesChanged(interface: MPRISInterfaces.root, rootChanged)
    }

    /// The tracks clients see: the queue around its current item, 51 items at most.
    /// The specification lets a player show a part of a long list; a library of 100,000 would
    /// otherwise cost every client (GNOME Shell, playerctl) the whole list at each change.
    static let trackWindowSize = (before: 10, after: 40)
    /// The most tracks added and removed that are told one by one rather than as a new list.
    static let trackChangesTold = 10

    private var trackWindow: ArraySlice<QueueItem> {
        let items = model.queue.items, length = Self.trackWindowSize.before + 1 + Self.trackWindowSize.after
        let current = model.queue.currentIndex ?? 0
        let start = max(0, min(current - Self.trackWindowSize.before, items.count - length))
        return items[start..<min(items.count, start + length)]
    }

    /// What changed in the window, as clients can best follow it: a few tracks removed or added
    /// (an edit, the next track coming into view) one by one; anything else (the window moved
    /// far, the order changed) as the whole new window, once.
    private func publishTrackListChanges() {
        let window = trackWindow
        let ids = window.map(\.id)
        defer { sent.trackIDs = ids }
        guard ids != sent.trackIDs else { return }
        let old = Set(sent.trackIDs), new = Set(ids)
        let removed = sent.trackIDs.filter { !new.contains($0) }, addedCount = ids.count - (old.count - removed.count)
        if sent.trackIDs.filter(new.contains) == ids.filter(old.contains), removed.count + addedCount <= Self.trackChangesTold {
            for id in removed {
                object?.emitSignal(interface: MPRISInterfaces.trackList, name: "TrackRemoved", [.objectPath(Self.trackPath(id))])
            }
            for (index, id) in ids.enumerated() where !old.contains(id) {
                let after = index == 0 ? MPRISInterfaces.noTrack : Self.trackPath(ids[index - 1])
                object?.emitSignal(interface: MPRISInterfaces.trackList, name: "TrackAdded",
                                   [.dictionary(metadata(for: window[window.startIndex + index])), .objectPath(after)])
            }
        } else {
            object?.emitSignal(interface: MPRISInterfaces.trackList, name: "TrackListReplaced",
                               [.objectPaths(ids.map(Self.trackPath)), .objectPath(currentTrackPath)])
        }
    }

    // MARK: Property values

    static func micro(_ seconds: Seconds) -> Int64 { Int64((seconds * 1_000_000).rounded()) }
    static func trackPath(_ id: Int) -> String { MPRISInterfaces.trackPathPrefix + String(id) }

    private var currentTrackPath: String {
        model.currentItem.map { Self.trackPath($0.id) } ?? MPRISInterfaces.noTrack
    }

    private var playbackStatus: String {
        switch model.status {
        case .playing, .buffering, .loading: return "Playing"
        case .paused: return "Paused"
        case .idle, .stopped, .ended, .failed: return "Stopped"
        }
    }

    private var loopStatus: String {
        switch model.queue.loopMode {
        case .none: return "None"
        case .item: return "Track"
        case .queue: return "Playlist"
        }
    }

    private func rootProperties() -> [String: Variant] {
        [
            "CanQuit": .bool(true),
            "CanRaise": .bool(true),
            "CanSetFullscreen": .bool(true),
            "Fullscreen": .bool(host?.isFullscreen ?? false),
            "HasTrackList": .bool(true),
            "Identity": .string("Reel"),
            "DesktopEntry": .string(identity.desktopEntry),
            "SupportedUriSchemes": .strings(Self.supportedSchemes),
            "SupportedMimeTypes": .strings(identity.mimeTypes),
        ]
    }

    private func playerProperties() -> [String: Variant] {
        return [
            "PlaybackStatus": .string(playbackStatus),
            "LoopStatus": .string(loopStatus),
            "Rate": .double(model.rate),
            "Shuffle": .bool(model.queue.shuffle),
            "Metadata": .dictionary(model.currentItem.map { metadata(for: $0) } ?? []),
            "Volume": .double(model.isMuted ? 0 : model.volume),
            // A live stream plays at 1× only, and says so as the specification asks.
            "MinimumRate": .double(model.isLive ? 1 : PlayerModel.rateRange.lowerBound),
            "MaximumRate": .double(model.isLive ? 1 : PlayerModel.rateRange.upperBound),
            "CanGoNext": .bool(model.hasNext),
            "CanGoPrevious": .bool(model.hasPrevious),
            "CanPlay": .bool(model.canControlTransport),
            "CanPause": .bool(model.canControlTransport),
            "CanSeek": .bool(model.canSeek),
        ]
    }

    /// The metadata of a queue entry; the current one carries what the loaded media told.
    func metadata(for item: QueueItem) -> [(String, Variant)] {
        var entries: [(String, Variant)] = [("mpris:trackid", .objectPath(Self.trackPath(item.id)))]
        let isCurrent = item.id == model.currentItem?.id
        if isCurrent, let duration = model.duration { entries.append(("mpris:length", .int64(Self.micro(duration)))) }
        entries.append(("xesam:title", .string(isCurrent ? Self.title(model.title, chapter: model.currentChapter) : item.fallbackTitle)))
        if isCurrent, let media = model.media {
            if let album = model.station ?? media.album { entries.append(("xesam:album", .string(album))) }
            if !media.artists.isEmpty {
                entries.append(("xesam:artist", .strings(media.artists)))
            } else if let station = model.station {
                entries.append(("xesam:artist", .strings([station])))
            } else if let source = item.source {
                // Untagged media (most videos): where it comes from, as browsers give a page's
                // site, rather than the "Unknown artist" desktops' media controls show otherwise.
                entries.append(("xesam:artist", .strings([source])))
            }
            if let art = media.coverArt, let uri = artwork.uri(for: art.bytes, fileExtension: art.fileExtension) {
                entries.append(("mpris:artUrl", .string(uri)))
            } else if let grabbed = grabbedArt, grabbed.itemID == item.id {
                entries.append(("mpris:artUrl", .string(grabbed.uri)))
            }
        }
        entries.append(("xesam:url", .string(item.uri)))
        return entries
    }

    /// The chapter playing, then the item's title: the desktops' media controls show one line
    /// of title and cut it short (GNOME Shell after about 20 characters), and the chapter is
    /// what changes while the user knows what they are watching.
    static func title(_ title: String, chapter: Chapter?) -> String {
        guard let chapter, !chapter.title.isEmpty else { return title }
        return "\(chapter.title) — \(title)"
    }

    /// Video without cover art gets a frame from the screen as its picture, once it shows one.
    private func scheduleFrameGrab() {
        guard let item = model.currentItem, grabbedArt?.itemID != item.id, grabTimer == 0 else { return }
        grabTimer = addTimeout(milliseconds: 1000) { [weak self] in
            guard let self else { return false }
            guard let item = self.model.currentItem, let media = self.model.media, self.grabbedArt?.itemID != item.id else {
                self.grabTimer = 0
                return false
            }
            if media.coverArt != nil || !media.hasVideo { self.grabTimer = 0; return false }
            guard let png = self.host?.currentFramePNG(), let uri = self.artwork.uri(for: png, fileExtension: "png") else {
                return true  // no frame yet: try again in a second
            }
            self.grabTimer = 0
            self.grabbedArt = (item.id, uri)
            self.publishChanges()
            return false
        }
    }

    // MARK: D-Bus → model

    public func call(interface: String, method: String, parameters: OpaquePointer) throws(DBusError) -> [Variant] {
        switch (interface, method) {
        case (MPRISInterfaces.root, "Raise"): host?.raise()
        case (MPRISInterfaces.root, "Quit"): host?.quit()
        case (MPRISInterfaces.player, "Next"): model.next()
        case (MPRISInterfaces.player, "Previous"): model.previous()
        case (MPRISInterfaces.player, "Pause"): model.pause()
        case (MPRISInterfaces.player, "PlayPause"): model.togglePlayPause()
        case (MPRISInterfaces.player, "Stop"): model.stop()
        case (MPRISInterfaces.player, "Play"): model.play()
        case (MPRISInterfaces.player, "Seek"):
            let offset = GVariantReader.int64(parameters, 0)
            guard model.canSeek else { return [] }
            model.skip(by: Double(offset) / 1_000_000)
        case (MPRISInterfaces.player, "SetPosition"):
            let track = GVariantReader.string(parameters, 0)
            let position = Double(GVariantReader.int64(parameters, 1)) / 1_000_000
            // The spec: ignore a stale track id, a negative position, or one past the end.
            guard track == currentTrackPath, position >= 0, let duration = model.duration, position <= duration else {
                return []
            }
            model.seek(to: position)
        case (MPRISInterfaces.player, "OpenUri"):
            let uri = GVariantReader.string(parameters, 0)
            guard MediaLocation.isSupported(uri) else {
                throw .invalidArgs("Reel opens only \(Self.supportedSchemes.joined(separator: ", ")) URIs, not “\(uri)”")
            }
            model.open([uri])
        case (MPRISInterfaces.trackList, "GetTracksMetadata"):
            let requested = GVariantReader.strings(parameters, 0)
            let items = requested.compactMap(item(forTrack:))
            return [.dictionaries(items.map { metadata(for: $0) })]
        case (MPRISInterfaces.trackList, "AddTrack"):
            let uri = GVariantReader.string(parameters, 0)
            let after = GVariantReader.string(parameters, 1)
            let play = GVariantReader.bool(parameters, 2)
            guard MediaLocation.isSupported(uri) else { throw .invalidArgs("Unsupported URI “\(uri)”") }
            if after == MPRISInterfaces.noTrack {
                _ = model.insert([uri], after: nil, atStart: true, play: play)
            } else if let item = item(forTrack: after) {
                _ = model.insert([uri], after: item.id, play: play)
            } else {
                throw .invalidArgs("No track \(after)")
            }
        case (MPRISInterfaces.trackList, "RemoveTrack"):
            let path = GVariantReader.string(parameters, 0)
            guard let item = item(forTrack: path) else { throw .invalidArgs("No track \(path)") }
            model.removeItem(id: item.id)
        case (MPRISInterfaces.trackList, "GoTo"):
            let path = GVariantReader.string(parameters, 0)
            guard let item = item(forTrack: path) else { throw .invalidArgs("No track \(path)") }
            model.playItem(id: item.id)
        default:
            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No method \(interface).\(method)")
        }
        return []
    }

    public func property(interface: String, name: String) -> Variant? {
        switch interface {
        case MPRISInterfaces.root:
            return rootProperties()[name]
        case MPRISInterfaces.player:
            if name == "Position" { return .int64(Self.micro(model.position)) }
            if name == "CanControl" { return .bool(true) }
            return playerProperties()[name]
        case MPRISInterfaces.trackList:
            if name == "Tracks" { return .objectPaths(trackWindow.map { Self.trackPath($0.id) }) }
            if name == "CanEditTracks" { return .bool(true) }
            return nil
        default:
            return nil
        }
    }

    public func setProperty(interface: String, name: String, value: OpaquePointer) throws(DBusError) {
        switch (interface, name) {
        case (MPRISInterfaces.root, "Fullscreen"):
            host?.setFullscreen(g_variant_get_boolean(value) != 0)
        case (MPRISInterfaces.player, "LoopStatus"):
            switch GVariantReader.string(value) {
            case "None": model.setLoopMode(.none)
            case "Track": model.setLoopMode(.item)
            case "Playlist": model.setLoopMode(.queue)
            case let other: throw .invalidArgs("LoopStatus must be None, Track or Playlist, not “\(other ?? "")”")
            }
        case (MPRISInterfaces.player, "Rate"):
            let rate = g_variant_get_double(value)
            guard rate.isFinite else { throw .invalidArgs("Rate must be a number") }
            if rate == 0 { model.pause(); return }
            guard PlayerModel.rateRange.contains(rate) else {
                throw .invalidArgs("Rate must be between \(PlayerModel.rateRange.lowerBound) and \(PlayerModel.rateRange.upperBound)")
            }
            model.setRate(rate)
        case (MPRISInterfaces.player, "Shuffle"):
            model.setShuffle(g_variant_get_boolean(value) != 0)
        case (MPRISInterfaces.player, "Volume"):
            let volume = g_variant_get_double(value)
            guard volume.isFinite else { throw .invalidArgs("Volume must be a number") }
            if volume > 0, model.isMuted { model.setMuted(false) }
            model.setVolume(max(0, volume))
        default:
            throw .notSupported("\(name) cannot be set")
        }
        publishChanges()
    }

    private func item(forTrack path: String) -> QueueItem? {
        guard path.hasPrefix(MPRISInterfaces.trackPathPrefix), let id = Int(path.dropFirst(MPRISInterfaces.trackPathPrefix.count)) else {
            return nil
        }
        return model.queue.item(id: id)
    }
}

/// Who asked for a bus name, and whether another may be tried when it is taken.
private struct NameOwner {
    weak var server: MPRISServer?
    let fallback: Bool
}
