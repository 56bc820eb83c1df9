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
        XCTAssertEqual(expansion.emptyFolders, ["sub.mkv"], "a folder named like a video is still a folder")
    }
}
