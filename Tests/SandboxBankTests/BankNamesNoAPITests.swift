@testable import CashoutSandbox
import Foundation
import Testing

/// The bank is neutral (DESIGN's "Nothing in Bank imports HTTP or names a dialect"): no line of its
/// code names an API served (each of `Sandbox.standardDialects`' type names less `Dialect`) or one of their wire fields. What the compiler
/// cannot say; Package.swift's dependencies keep it from importing the wire.
@Suite struct BankNamesNoAPITests {
    @Test func noLineOfTheBanksCodeNamesAnAPIOrAWireField() throws {
        let words = Sandbox.standardDialects.map { "\(type(of: $0))".replacing("Dialect", with: "").lowercased() }
            + ["payoutservice", "payoneer", "tipalti", "external[_ ]?id", "notification[_ ]?url", "cashout_status", "cashoutid", "api_?key"]
        let pattern = try Regex(words.joined(separator: "|")).ignoresCase()
        let bank = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/SandboxBank").standardized
        let files = try #require(FileManager.default.enumerator(atPath: bank.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: bank.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                #expect(!code.contains(pattern), "SandboxBank/\(file):\(number + 1) names an API or a wire field: \(line)")
            }
        }
    }
}
