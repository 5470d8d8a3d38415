/// A `--state-dir` that cannot be used at start-up: read-only, full, not a folder, or another
/// sandbox's. The sandbox does not start (`serve` exits 2), and leaves no file it made.
package struct StateDirectoryError: Error, CustomStringConvertible, Equatable {
    package let directory: String
    let cause: String

    init(directory: String, cause: String) {
        self.directory = directory
        self.cause = cause
    }

    package var description: String { "state directory \(directory): \(cause)" }
}
