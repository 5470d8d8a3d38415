import Foundation

/// Files in Fixtures/, made by Fixtures/regenerate.py (run it after changing Sources/Dialects/Prism/Protos).
enum PrismFixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return Array(try Data(contentsOf: url))
    }
}
