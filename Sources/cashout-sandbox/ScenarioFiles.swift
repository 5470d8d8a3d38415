import FoundationEssentials

/// The scenario files a command line names: `test` and `validate` take files and folders, `serve
/// --scenario` files. A path that is not there is a usage error (exit status 2).
enum ScenarioFiles {
    /// The files named, and the `.json` files in the folders named (not `schema.json`, nor the
    /// timelines explore writes beside its files, `*.timeline.json`), each folder's sorted. A folder
    /// without one is a usage error too: it names no scenario.
    static func find(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            if try isFolder(path) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
                let found = names.filter { $0.hasSuffix(".json") && $0 != "schema.json" && !$0.hasSuffix(TimelineFiles.suffix) }.sorted()
                guard !found.isEmpty else { throw UsageError("no scenario files (*.json) in \(path)") }
                files += found.map { "\(folder)/\($0)" }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// `path`, which must be a file.
    static func file(_ path: String) throws(UsageError) -> String {
        if try isFolder(path) { throw UsageError("\(path) is a folder, not a scenario file") }
        return path
    }

    private static func isFolder(_ path: String) throws(UsageError) -> Bool {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw UsageError("no such file or folder: \(path)")
        }
        return isFolder
    }
}
