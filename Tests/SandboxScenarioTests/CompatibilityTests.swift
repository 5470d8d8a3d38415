@testable import CashoutSandbox
import Foundation
@testable import SandboxContract
@testable import SandboxSupport
import Testing

/// The suites teams copied from earlier releases (Tests/Compatibility, one folder a release) keep loading, each read as
/// written for the version it came from; `.ci/check-certify` runs each beside its API's careful app. This release's own
/// stock suites state this version (the Contributing guide, "Release a version").
@Suite struct CompatibilityTests {
    private static let root = URLPath.packageRoot(#filePath)

    private static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted()
            .map { "\(folder)/\($0)" }
    }

    @Test func eachEarlierReleasesSuitesLoadAsWrittenForItsVersion() throws {
        let folder = Self.root + "/Tests/Compatibility"
        let releases = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }.sorted()
        #expect(releases == ["0.2.0-45e41e2", "0.2.0-53aefaa"])
        for release in releases {
            let version = try #require(SandboxVersion(String(release.prefix { $0 != "-" })))
            let files = try Self.files(in: "\(folder)/\(release)")
            #expect(files.count >= 3, "\(release): its three certify suites")
            for file in files {
                let scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
                #expect(scenario.writtenFor == version, "\(file)")
                #expect(!scenario.steps.isEmpty, "\(file)")
            }
        }
    }

    @Test func thisReleasesStockSuitesStateThisVersion() throws {
        for file in try Self.files(in: Self.root + "/scenarios") {
            let scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.standardVocabulary)
            guard !scenario.steps.isEmpty else { continue }
            #expect(scenario.keys.contains("written_for") && scenario.writtenFor == .current, "\(file)")
        }
    }
}
