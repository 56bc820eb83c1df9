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
        XCTAssertEqual(expansion.emptyFolders, ["sub.mkv"], "a folder named like a video is still a folder")
    }
}
