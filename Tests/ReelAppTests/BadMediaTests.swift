// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Broken files and misbehaving servers, opened the ways a user opens things: on the command
/// line, over MPRIS (OpenUri) and by dropping files on the window. Each must end in a message
/// in the window that names the item and the reason, MPRIS saying Stopped with that item's
/// metadata, a player that keeps answering, and the queue moving on to what follows.
final class BadMediaTests: XCTestCase {
    /// A bad item and what the window must say about it.
    struct Case {
        let location: String
        let title: String
        let words: [String]
    }

    /// Every local kind of broken: each case's words are the reason as the message puts it.
    /// (A folder named on the command line or dropped becomes its media files; one without any
    /// is not an item but a notice: see `testAFolderWithoutMediaIsNamed`.)
    static func localCases(unreadable: String) -> [Case] {
        [Case(location: Paths.media("empty.mp4"), title: "empty", words: ["empty.mp4", "is empty"]),
         Case(location: Paths.media("random.mp4"), title: "random", words: ["random.mp4", "not a video"]),
         Case(location: Paths.media("text.mkv"), title: "text", words: ["text.mkv", "not a video"]),
         Case(location: Paths.media("truncated.mp4"), title: "truncated", words: ["truncated.mp4"]),
         Case(location: Paths.media("no-such-file.webm"), title: "no-such-file", words: ["no-such-file.webm", "does not exist"]),
         Case(location: unreadable, title: "unreadable", words: ["unreadable.webm", "not allowed to read"]),
         // Decoders for both its streams are ranked out of use below: as if not installed.
         Case(location: Paths.media("clip-vp9.webm"), title: "clip-vp9", words: ["clip-vp9.webm", "Opus decoder", "which is missing"])]
    }

    /// VP9 and Opus decoders out of use, so clip-vp9.webm has no decoder for anything in it.
    static let withoutVP9AndOpus = ["GST_PLUGIN_FEATURE_RANK": "vp9dec:NONE,avdec_vp9:NONE,opusdec:NONE,avdec_opus:NONE",
                                    "REEL_NETWORK_TIMEOUT": "5"]

    private var scratch: URL!
    private var unreadable = ""
    private var emptyFolder = ""

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bad-\(UUID().uuidString)")
        let folder = scratch.appendingPathComponent("empty-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        emptyFolder = folder.path
        unreadable = scratch.appendingPathComponent("unreadable.webm").path
        try FileManager.default.copyItem(atPath: Paths.media("short-1.webm"), toPath: unreadable)
        chmod(unreadable, 0)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Root reads any file whatever its mode; without these two capabilities it cannot, as a user could not.
    var launcher: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] : []
    }

    /// Worst time Reel took to answer a D-Bus call while a test watched it.
    private var slowestAnswer: TimeInterval = 0

    /// Waits until the app shows `bad` as failed: MPRIS Stopped with its title, the window's
    /// message naming it and the reason. Every poll is a D-Bus round trip, timed.
    private func expectFailure(_ app: ReelApp, _ bad: Case, timeout: TimeInterval = 10,
                               file: StaticString = #filePath, line: UInt = #line) {
        var seen = ""
        eventually("\(bad.title) reported as failed", timeout: timeout, interval: 0.02, file: file, line: line) {
            let started = Date()
            let status = app.status
            slowestAnswer = max(slowestAnswer, Date().timeIntervalSince(started))
            let title = app.title
            let message = app.messageShown
            seen = "\(status) “\(title)”: \(message)"
            return status == "Stopped" && title == bad.title && bad.words.allSatisfy { message.contains($0) }
        }
        if !seen.isEmpty { print("bad media: \(seen)") }
    }

    private func assertResponsive(file: StaticString = #filePath, line: UInt = #line) {
        print(String(format: "bad media: slowest D-Bus answer %.0f ms", slowestAnswer * 1000))
        // A frozen main loop, not a busy moment on a loaded CI machine: the storm test's bar.
        XCTAssertLessThan(slowestAnswer, 1, "the player never stopped answering", file: file, line: line)
    }

    func testEveryBrokenFileOnTheCommandLineIsReportedAndTheQueueMovesOn() throws {
        let cases = Self.localCases(unreadable: unreadable)
        let app = try ReelApp(cases.map(\.location) + [Paths.media("clip-h264.mp4")],
                              environment: Self.withoutVP9AndOpus, launcher: launcher)
        for bad in cases { expectFailure(app, bad) }
        app.waitForPlaying("clip-h264")
        _ = app.screenshot("bad-media-then-playing")
        assertResponsive()
        XCTAssertTrue(app.process.isRunning)
    }

    func testAFolderWithoutMediaIsNamed() throws {
        let app = try ReelApp([emptyFolder])
        eventually("a notice naming the folder") {
            app.messageShown.contains("empty-folder") && app.messageShown.contains("contains no videos")
        }
        XCTAssertEqual(app.status, "Stopped")
        try app.player("OpenUri", [.string(Paths.mediaURI("short-1.webm"))])
        app.waitForPlaying("short-1")
    }

    func testBrokenFilesOpenedOverMPRISAreReported() throws {
        let app = try ReelApp([], environment: Self.withoutVP9AndOpus, launcher: launcher)
        let folder = Case(location: emptyFolder, title: "empty-folder", words: ["empty-folder", "folder"])
        for bad in Self.localCases(unreadable: unreadable) + [folder] {
            try app.player("OpenUri", [.string(URL(fileURLWithPath: bad.location).absoluteString)])
            expectFailure(app, bad)
        }
        _ = app.screenshot("bad-media-openuri")
        try app.player("OpenUri", [.string(Paths.mediaURI("clip-h264.mp4"))])
        app.waitForPlaying("clip-h264")
        assertResponsive()
    }

    func testDroppedBrokenFilesAreReportedAndTheGoodOnePlays() throws {
        let app = try ReelApp([], environment: Self.withoutVP9AndOpus, launcher: launcher)
        let dropped = [Case(location: Paths.media("random.mp4"), title: "random", words: ["random.mp4", "not a video"]),
                       Case(location: unreadable, title: "unreadable", words: ["unreadable.webm", "not allowed to read"])]
        let source = try Fixture("drag-source.py", dropped.map { URL(fileURLWithPath: $0.location).absoluteString } +
                                 [Paths.mediaURI("short-2.webm")])
        app.dropFiles(from: "Reel drag source")
        for bad in dropped { expectFailure(app, bad) }
        app.waitForPlaying("short-2")
        assertResponsive()
        withExtendedLifetime(source) {}  // the drag source stays up until the drop is checked
    }

    /// Each broken file chosen in the Open dialog. A folder cannot be chosen there: Enter on a
    /// folder opens it in the dialog, which shows it empty, and nothing reaches the queue.
    func testBrokenFilesChosenInTheOpenDialogAreReported() throws {
        let app = try ReelApp([], environment: Self.withoutVP9AndOpus, launcher: launcher)
        let cases = Self.localCases(unreadable: unreadable)
        for bad in cases {
            app.chooseInOpenDialog(bad.location)
            expectFailure(app, bad)
        }
        app.chooseInOpenDialog(emptyFolder, closes: false)
        XCTAssertFalse(app.openDialogID.isEmpty, "a folder is opened in the dialog, not chosen")
        XCTAssertEqual(app.title, cases.last?.title, "nothing new reached the queue")
        app.chooseInOpenDialog(Paths.media("clip-h264.mp4"))
        app.waitForPlaying("clip-h264")
        XCTAssertTrue(app.openDialogID.isEmpty)
        assertResponsive()
    }

    /// 404, a refused connection, a server that stops sending and one far too slow.
    func testMisbehavingServersAreReportedAndTheQueueMovesOn() throws {
        let server = try Fixture("media-server.py", [Paths.media.path], waitForFirstLine: true)
        let base = "http://127.0.0.1:\(server.firstLine)"
        let cases = [Case(location: "\(base)/missing", title: "missing", words: ["/missing", "could not be loaded from the network"]),
                     Case(location: "http://127.0.0.1:\(Self.closedPort())/refused.webm", title: "refused",
                          words: ["refused.webm", "could not be loaded from the network"]),
                     Case(location: "\(base)/stall/tone-30s.webm", title: "tone-30s", words: ["stall/tone-30s.webm", "fast enough"]),
                     Case(location: "\(base)/slow/tone-30s.webm", title: "tone-30s", words: ["slow/tone-30s.webm", "fast enough"])]
        let app = try ReelApp(cases.map(\.location) + ["\(base)/media/short-3.webm"], environment: ["REEL_NETWORK_TIMEOUT": "5"])
        // The indicator's appearances counted from here (the window must be up): BackgroundTests
        // checks the count stays 0 across a restore, so here it must count one that happens.
        eventually("counting the buffering indicator's appearances") { (try? app.debugCall("StartCountingBufferingShows")) != nil }
        for bad in cases.prefix(2) { expectFailure(app, bad) }
        // The stalled stream plays what came, then shows that it waits, then gives up in words.
        eventually("the stalled stream shows buffering", timeout: 15) { app.bufferingShown }
        XCTAssertGreaterThan(app.debugUInt64("BufferingShows"), 0, "the indicator's appearance is counted")
        for bad in cases.suffix(2) { expectFailure(app, bad, timeout: 20) }
        app.waitForPlaying("short-3")
        assertResponsive()
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
