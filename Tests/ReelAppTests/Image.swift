// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A rectangle in a window, in logical pixels.
struct WindowRect: Equatable {
    let x: Int, y: Int, width: Int, height: Int
    init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (Int(x.rounded()), Int(y.rounded()), Int(width.rounded()), Int(height.rounded()))
    }
    var midX: Int { x + width / 2 }
    var midY: Int { y + height / 2 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }
    func overlaps(_ other: WindowRect) -> Bool { x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY }
    func contains(_ other: WindowRect) -> Bool { other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY }
}

/// An RGB screenshot.
struct Image {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init?(ppm data: Data) {
        // P6\n<w> <h>\n<max>\n<binary>
        var fields: [String] = []
        var index = data.startIndex
        var current = ""
        while fields.count < 4 && index < data.endIndex {
            let byte = data[index]
            index += 1
            if byte == UInt8(ascii: "#") {
                while index < data.endIndex && data[index] != 10 { index += 1 }
            } else if byte == 10 || byte == 32 || byte == 9 || byte == 13 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
              data.endIndex - index >= w * h * 3 else { return nil }
        width = w
        height = h
        pixels = [UInt8](data[index..<(index + w * h * 3)])
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// Mean colour of a rectangle given in fractions of the image.
    func mean(x0: Double, y0: Double, x1: Double, y1: Double) -> (r: Double, g: Double, b: Double) {
        var sum = (0, 0, 0), count = 0
        for y in Int(y0 * Double(height))..<Int(y1 * Double(height)) {
            for x in Int(x0 * Double(width))..<Int(x1 * Double(width)) {
                let p = pixel(x, y)
                sum.0 += p.r; sum.1 += p.g; sum.2 += p.b
                count += 1
            }
        }
        let n = Double(max(count, 1))
        return (Double(sum.0) / n, Double(sum.1) / n, Double(sum.2) / n)
    }

    /// The part of the image in a rectangle given in fractions of its size.
    func cropped(x0: Double, y0: Double, x1: Double, y1: Double) -> Image {
        let left = Int(x0 * Double(width)), right = Int(x1 * Double(width))
        let top = Int(y0 * Double(height)), bottom = Int(y1 * Double(height))
        var part: [UInt8] = []
        for y in top..<bottom { part += pixels[((y * width + left) * 3)..<((y * width + right) * 3)] }
        return Image(width: right - left, height: bottom - top, pixels: part)
    }

    /// The share of pixels that differ noticeably between two same-sized images.
    func difference(_ other: Image) -> Double {
        guard other.width == width, other.height == height else { return 1 }
        return Double(differingPixels(other).count) / Double(width * height)
    }

    /// Where two same-sized images differ, for a failure message: "x 0–640, y 20–380".
    func differingArea(_ other: Image) -> String {
        guard other.width == width, other.height == height else { return "sizes \(width)×\(height) and \(other.width)×\(other.height)" }
        let points = differingPixels(other)
        guard !points.isEmpty else { return "nowhere" }
        let xs = points.map { $0 % width }, ys = points.map { $0 / width }
        return "x \(xs.min()!)–\(xs.max()!), y \(ys.min()!)–\(ys.max()!) of \(width)×\(height)"
    }

    /// The indices of the pixels that differ noticeably, for two images of the same size.
    private func differingPixels(_ other: Image) -> [Int] {
        stride(from: 0, to: pixels.count, by: 3).filter { i in
            abs(Int(pixels[i]) - Int(other.pixels[i])) + abs(Int(pixels[i + 1]) - Int(other.pixels[i + 1])) +
                abs(Int(pixels[i + 2]) - Int(other.pixels[i + 2])) > 30
        }.map { $0 / 3 }
    }

    /// The share of pixels that are not (nearly) black.
    var litFraction: Double {
        var lit = 0
        for i in stride(from: 0, to: pixels.count, by: 3) where Int(pixels[i]) + Int(pixels[i + 1]) + Int(pixels[i + 2]) > 60 {
            lit += 1
        }
        return Double(lit) / Double(width * height)
    }
}
