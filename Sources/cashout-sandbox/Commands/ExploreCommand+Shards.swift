import FoundationEssentials
import Glibc
import SandboxWire
import SandboxSupport

/// `explore --shard K/N`, one job of a CI matrix of N: it runs runs K, K+N, K+2N... of `--runs`
/// from `--seed` (so the N jobs run, in all, what one job runs), writes its files to `--out` as one
/// job does, and what it found to `--out`'s `explore-shard-K-of-N.json`, which `explore --merge`
/// reads (the Testing your app guide, "Exploring in a CI matrix").
struct Shard: CustomStringConvertible {
    let index: Int
    let count: Int

    /// `--shard K/N`; nil without it.
    init?(_ arguments: Arguments) throws(UsageError) {
        guard let text = arguments.value("shard") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], (1 ... 10000).contains(count), (1 ... count).contains(index) else {
            throw UsageError("option '--shard' expects K/N, a job K of N from 1/N to N/N (N at most 10000), got '\(text)'")
        }
        guard arguments.has("seed") else {
            throw UsageError("option '--shard' needs '--seed S': each of the N jobs must explore the same runs")
        }
        self.index = index
        self.count = count
    }

    var description: String { "\(index)/\(count)" }
    var fileName: String { "explore-shard-\(index)-of-\(count).json" }

    /// Its share of runs 1 to `runs`.
    func numbers(of runs: Int) -> [Int] { Array(stride(from: index, through: runs, by: count)) }

    /// What `--merge` reads: the exploration it is a share of, each run's failures, and the file
    /// written for each distinct failure, by name (the folder moves between CI jobs).
    func record(of summary: ExploreCommand.Summary, suite: String, seed: UInt64, runs: Int) -> String {
        let results: [JSON] = summary.runs.map { ["run": .number(String($0.number)), "failures": .array($0.failures.map(JSON.string))] }
        let written: [String: JSON] = summary.written.mapValues { .string(String($0.split(separator: "/").last ?? "")) }
        let record: JSON = ["suite": .string(suite), "seed": .number(String(seed)), "runs": .number(String(runs)),
                            "shard": .string(description), "results": .array(results), "written": .object(written)]
        return record.serializedString() + "\n"
    }
}

extension ExploreCommand {
    /// `explore --merge DIR...`: the shards' records (`Shard.record`) as one job's summary, each
    /// distinct failure's file (the earliest run's, as one job writes) copied to `--out`.
    static func merge(_ arguments: Arguments) throws(UsageError) -> Int32 {
        for option in ["exec", "runs", "seed", "jobs", "shard", "junit", "timeout", "quiet-period", "quiet-limit", "grace"]
        where arguments.has(option) {
            throw UsageError("option '--\(option)' cannot be used with '--merge' (it merges what the shards ran)")
        }
        guard !arguments.positional.isEmpty else { throw UsageError("option '--merge' takes the shards' DIRs (their --out), got none") }
        var shards: [(folder: String, record: ShardRecord)] = []
        for folder in arguments.positional {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                throw UsageError("no such folder: \(folder)")
            }
            let names = entries
                .filter { $0.hasPrefix("explore-shard-") && $0.hasSuffix(".json") }.sorted()
            guard !names.isEmpty else { throw UsageError("\(folder) holds no explore-shard-K-of-N.json (the --out of explore --shard K/N)") }
            for name in names {
                let path = "\(folder)/\(name)"
                guard let record = FileManager.default.contents(atPath: path).flatMap({ ShardRecord(Array($0)) }) else {
                    throw UsageError("\(path) is not what explore --shard writes")
                }
                shards.append((folder, record))
            }
        }
        let first = shards[0].record
        if let other = shards.first(where: { !$0.record.sameExploration(as: first) }) {
            throw UsageError("\(other.folder) explored \(other.record.exploration), \(shards[0].folder) \(first.exploration): "
                             + "merge the shards of one exploration")
        }
        let counted = Dictionary(grouping: shards, by: \.record.index)
        if let twice = counted.first(where: { $0.value.count > 1 }) {
            throw UsageError("shard \(twice.key)/\(first.count) is there twice: in \(twice.value.map(\.folder).joined(separator: " and "))")
        }
        let missing = (1 ... first.count).filter { counted[$0] == nil }
        guard missing.isEmpty else {
            throw UsageError("missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(first.count)" }.joined(separator: ", "))")
        }

        let runs = shards.flatMap(\.record.runs).sorted { $0.number < $1.number }
        let directory = arguments.value("out") ?? "explored"
        var written: [String: String] = [:]
        for target in Set(runs.compactMap(\.failures.first)) {
            // The earliest run's file, which a single job writes: the file of the shard that ran it.
            guard let earliest = runs.first(where: { $0.failures.first == target }),
                  let (folder, record) = shards.first(where: { $0.record.index == (earliest.number - 1) % first.count + 1 }),
                  let name = record.written[target] else { continue }
            let path = "\(directory)/\(name)"
            if realPath(folder) == nil || realPath(folder) != realPath(directory) {
                guard let bytes = FileManager.default.contents(atPath: "\(folder)/\(name)") else {
                    throw UsageError("\(folder)/\(name) is missing, though \(folder)'s record names it: keep a shard's whole --out")
                }
                guard CLI.write(String(decoding: bytes, as: UTF8.self), to: path) else { return 1 }
                // Its run's timeline and record, when the shard wrote them.
                let page = TimelineFiles.page(beside: name)
                for file in [page, TimelineFiles.data(beside: page), ShowCommand.record(beside: name)] {
                    guard let bytes = FileManager.default.contents(atPath: "\(folder)/\(file)") else { continue }
                    guard CLI.write(String(decoding: bytes, as: UTF8.self), to: "\(directory)/\(file)") else { return 1 }
                }
            }
            written[target] = path
        }
        StandardOutput.writeLine("merged \(first.count) shard\(first.count == 1 ? "" : "s") of \(first.exploration)")
        let summary = Summary(runs: runs, written: written)
        summary.print()
        return summary.failed == 0 ? 0 : 1
    }

    /// `path` with every symbolic link and `..` resolved; nil when it is not there.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What one shard wrote (`Shard.record`), read back.
struct ShardRecord {
    let suite: String
    let seed: String
    let totalRuns: String
    let index: Int
    let count: Int
    let runs: [(number: Int, failures: [String])]
    /// Each distinct failure's file, by name.
    let written: [String: String]

    init?(_ bytes: [UInt8]) {
        guard let json = try? JSON.parse(bytes), let suite = json["suite"]?.stringValue, let seed = json["seed"]?.numberText,
              let totalRuns = json["runs"]?.numberText, let shard = json["shard"]?.stringValue,
              case let parts = shard.split(separator: "/").compactMap({ Int($0) }), parts.count == 2, parts[1] >= 1,
              (1 ... parts[1]).contains(parts[0]),
              let results = json["results"]?.arrayValue, let written = json["written"]?.objectValue else { return nil }
        var runs: [(number: Int, failures: [String])] = []
        for result in results {
            guard let number = result["run"]?.numberText.flatMap({ Int($0) }), number >= 1, (number - 1) % parts[1] + 1 == parts[0],
                  let failures = result["failures"]?.arrayValue else { return nil }
            runs.append((number, failures.compactMap(\.stringValue)))
        }
        (self.suite, self.seed, self.totalRuns, index, count, self.runs) = (suite, seed, totalRuns, parts[0], parts[1], runs)
        self.written = written.compactMapValues(\.stringValue)
    }

    /// `scenarios/explore-d24.json: 20 runs from seed 1`.
    var exploration: String { "\(suite): \(totalRuns) run\(totalRuns == "1" ? "" : "s") from seed \(seed)" }

    func sameExploration(as other: ShardRecord) -> Bool {
        (suite, seed, totalRuns, count) == (other.suite, other.seed, other.totalRuns, other.count)
    }

}
