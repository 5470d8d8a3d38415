import FoundationEssentials

extension CLI {
    /// Writes `text` to `path`, its folders made first, as pytest's and Surefire's reports do
    /// (`--junit out/junit-1.xml` in a fresh checkout); false, said on stderr, when it cannot.
    static func write(_ text: String, to path: String) -> Bool {
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return true
        } catch {
            printError("error: cannot write \(path): \(Self.text(of: error))")
            return false
        }
    }
}
