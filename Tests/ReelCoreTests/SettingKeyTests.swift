// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelCore
import XCTest

/// The schema in data/ says what SettingKey says: the same keys, types, ranges and choices.
final class SettingKeyTests: XCTestCase {
    private final class SchemaReader: NSObject, XMLParserDelegate {
        struct Key { var type = ""; var range: ClosedRange<Double>?; var choices: [String] = [] }
        var keys: [String: Key] = [:]
        private var current: String?

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            switch element {
            case "key":
                current = attributes["name"]
                if let current { keys[current] = Key(type: attributes["type"] ?? "") }
            case "range":
                if let current, let low = attributes["min"].flatMap(Double.init), let high = attributes["max"].flatMap(Double.init) {
                    keys[current]?.range = low...high
                }
            case "choice":
                if let current, let value = attributes["value"] { keys[current]?.choices.append(value) }
            default: break
            }
        }
    }

    func testTheSchemaHoldsEveryKeyWithItsTypeRangeAndChoices() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/org.reelplayer.Reel.gschema.xml.in").standardized
        let parser = try XCTUnwrap(XMLParser(contentsOf: schema))
        let reader = SchemaReader()
        parser.delegate = reader
        XCTAssertTrue(parser.parse(), "the schema parses: \(String(describing: parser.parserError))")
        XCTAssertEqual(Set(reader.keys.keys), Set(SettingKey.allCases.map(\.rawValue)), "the same keys")
        for key in SettingKey.allCases {
            let entry = reader.keys[key.rawValue]
            XCTAssertEqual(entry?.type, key.type, "\(key.rawValue): type")
            XCTAssertEqual(entry?.range, key.range, "\(key.rawValue): range")
            XCTAssertEqual(entry?.choices ?? [], key.choices ?? [], "\(key.rawValue): choices")
        }
    }
}
