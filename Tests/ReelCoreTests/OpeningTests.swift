// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import XCTest

final class OpeningTests: XCTestCase {
    func testOptionsAreReadAndCheckedInWords() {
        let good = CommandLineOptions(enqueue: true, repeatEach: "3", gap: "0", rate: "1.8")
        XCTAssertNil(good.problem)
        XCTAssertEqual(good, CommandLineOptions(enqueue: true, repeatEach: 3, gap: 0, rate: 1.8), "--gap=0 is a value, not nothing")
        let cases: [(CommandLineOptions, String)] = [
            (CommandLineOptions(enqueue: false, repeatEach: "0", gap: nil, rate: nil), "--repeat-each"),
            (CommandLineOptions(enqueue: false, repeatEach: "2.5", gap: nil, rate: nil), "whole number"),
            (CommandLineOptions(enqueue: false, repeatEach: nil, gap: "soon", rate: nil), "“soon”"),
            (CommandLineOptions(enqueue: false, repeatEach: nil, gap: "61", rate: nil), "--gap"),
            (CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: "inf"), "--rate"),
            (CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: "0.1"), "0.25"),
        ]
        for (options, words) in cases {
            XCTAssertTrue(options.problem?.contains(words) ?? false, "\(options): \(options.problem ?? "no problem")")
        }
    }

    func testTheABLoopOptionIsReadAndCheckedInWords() {
        let good = CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, abLoop: "12.5-15")
        XCTAssertNil(good.problem)
        XCTAssertEqual(good.abLoop, ABLoop(start: 12.5, end: 15))
        for (text, words) in [("12.5", "such as 12.5-15"), ("a-b", "“a-b”"), ("15-12.5", "at least"), ("3-3.1", "at least"),
                              ("-1-4", "“-1-4”"), ("1-inf", "at least")] {
            let options = CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, abLoop: text)
            XCTAssertTrue(options.problem?.contains(words) ?? false, "\(text): \(options.problem ?? "no problem")")
        }
    }

    func testTheSubtitleDelayOptionIsChecked() {
        XCTAssertEqual(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, subtitleDelay: "-0.4").subtitleDelay, -0.4)
        for (text, words) in [("soon", "“soon”"), ("61", "--sub-delay"), ("nan", "--sub-delay")] {
            let options = CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, subtitleDelay: text)
            XCTAssertTrue(options.problem?.contains(words) ?? false, "\(text): \(options.problem ?? "no problem")")
        }
    }

    func testFoldersExpandToTheirMediaInNaturalOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub.mkv"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["b 10.MKV", "b 9.webm", "a.mp3", ".hidden.mp4", "notes.txt"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
        let empty = folder.appendingPathComponent("sub.mkv")
        let expansion = MediaFolder.expand([folder.absoluteString, "https://example.com/x.mp4", empty.absoluteString])
        XCTAssertEqual(expansion.uris.map { URL(string: $0)!.lastPathComponent }, ["a.mp3", "b 9.webm", "b 10.MKV", "x.mp4"])
        XCTAssertEqual(expansion.emptyFolders.map(\.name), ["sub.mkv"], "a folder named like a video is still a folder")
    }
}

/// A music library's folders: depth-first in natural order, hidden ones left out, a link back up
/// the tree listed once and named.
final class MediaFolderTreeTests: XCTestCase {
    func testATreeIsQueuedAlbumByAlbum() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = ["Artist B/Album 2/02 x.mp3", "Artist B/Album 2/10 y.mp3", "Artist B/Album 10/01 z.flac", "Artist a/01 a.ogg",
                     ".hidden/secret.mp3", ".dot.mp3", "top 1.mp4", "Artist a/cover.jpg"]
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data()))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Artist a/Empty"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: root.path)

        let tree = MediaFolder.expand([root.absoluteString])
        let names = tree.uris.map { URL(string: $0)!.path.replacingOccurrences(of: root.path + "/", with: "") }
        XCTAssertEqual(names, ["Artist a/01 a.ogg", "Artist B/Album 2/02 x.mp3", "Artist B/Album 2/10 y.mp3",
                               "Artist B/Album 10/01 z.flac", "top 1.mp4"])
        XCTAssertEqual(tree.loops, [root.appendingPathComponent("loop").path], "the link back up is skipped and named once")
        XCTAssertEqual(tree.emptyFolders, [])

        let flat = MediaFolder.expand([root.absoluteString], recursive: false)
        XCTAssertEqual(flat.uris.map { URL(string: $0)!.lastPathComponent }, ["top 1.mp4"], "recursion off: the folder's own files")

        let onlyFolders = MediaFolder.expand([root.appendingPathComponent("Artist B").absoluteString], recursive: false)
        XCTAssertEqual(onlyFolders.emptyFolders, [.init(name: "Artist B", hadFolders: false)],
                       "not looked into: the message says the folder alone")
        let nothing = MediaFolder.expand([root.appendingPathComponent("Artist a/Empty").deletingLastPathComponent()
            .appendingPathComponent("Empty").absoluteString])
        XCTAssertEqual(nothing.emptyFolders.map(\.name), ["Empty"])
        let emptyTree = root.appendingPathComponent("empty tree/inner/deeper")
        try FileManager.default.createDirectory(at: emptyTree, withIntermediateDirectories: true)
        let searched = MediaFolder.expand([root.appendingPathComponent("empty tree").absoluteString])
        XCTAssertEqual(searched.emptyFolders, [.init(name: "empty tree", hadFolders: true)],
                       "its folders were looked in too, and the message says so")
    }

    func testFileURIsAreEscapedAsFoundationEscapesThem() {
        for path in ["/music/A b/01 – Ünïcode #1?.mp3", "/x/100% & more;=@:!$'()*+,~.ogg", "/tab\there/日本語.flac", "/plain/a.mp4"] {
            XCTAssertEqual(MediaFolder.fileURI(path), URL(fileURLWithPath: path).absoluteString, path)
            XCTAssertEqual(URL(string: MediaFolder.fileURI(path))?.path, path, "the URI names the file again")
        }
    }

    func testNaturalOrderComparesNumbersAsNumbersAndIgnoresCase() {
        let names = ["track 10.mp3", "Track 2.mp3", "track 02b.mp3", "track 1.mp3", "b.mp3", "A.mp3", "a.mp3", "track 007.mp3",
                     "track 99999999999999999999.mp3", "track 100000000000000000000.mp3", "é.mp3", "z.mp3"]
        XCTAssertEqual(names.sorted(by: MediaFolder.naturalOrder),
                       ["A.mp3", "a.mp3", "b.mp3", "track 1.mp3", "Track 2.mp3", "track 02b.mp3", "track 007.mp3", "track 10.mp3",
                        "track 99999999999999999999.mp3", "track 100000000000000000000.mp3", "z.mp3", "é.mp3"])
    }

    func testAListingHandsOnTheFirstFileAloneThenBatches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for n in 1...25 { XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("\(n).ogg").path, contents: Data())) }
        var batches: [[String]] = []
        let problems = MediaFolder.walk(["https://example.com/first.mp4", folder.absoluteString], recursive: true, batchSize: 10) {
            batches.append($0)
        }
        XCTAssertEqual(problems, MediaFolder.Problems())
        XCTAssertEqual(batches.map(\.count), [1, 10, 10, 5], "the first item alone, then full batches, then the rest")
        XCTAssertEqual(batches.joined().map { URL(string: $0)!.lastPathComponent }, ["first.mp4"] + (1...25).map { "\($0).ogg" })
    }

    /// A large folder's first file is found before the folder is sorted; the order is the same.
    func testALargeFolderStartsWithItsFirstFileInOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for n in (1...1200).shuffled() {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("\(n).ogg").path, contents: Data()))
        }
        var batches: [[String]] = []
        _ = MediaFolder.walk([folder.absoluteString], recursive: true, batchSize: 500) { batches.append($0) }
        XCTAssertEqual(batches.first?.map { URL(string: $0)!.lastPathComponent }, ["1.ogg"])
        XCTAssertEqual(batches.joined().map { URL(string: $0)!.lastPathComponent }, (1...1200).map { "\($0).ogg" })

        // A folder sorting first is listed first: its file plays first.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("0 sub"), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("0 sub/a.ogg").path, contents: Data()))
        let names = MediaFolder.expand([folder.absoluteString]).uris.map { URL(string: $0)!.lastPathComponent }
        XCTAssertEqual(names, ["a.ogg"] + (1...1200).map { "\($0).ogg" })
    }
}
