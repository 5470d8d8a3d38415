/// A `cashout-sandbox` subcommand. `CLI` reads its options, answers `--help` with its usage, and
/// hands it the parsed arguments.
protocol Command: Sendable {
    /// The word that selects it, e.g. `serve`.
    static var name: String { get }
    /// Its options, `--help` among them.
    static var options: [Arguments.Option] { get }
    static var usage: String { get }
    static func run(_ arguments: Arguments) throws(UsageError) -> Int32
}
