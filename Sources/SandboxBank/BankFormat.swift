import SandboxJournal

/// Which version of the bank's binary form (journal records, snapshots) some bytes are in, so a
/// sandbox reads what an older one wrote. It is the journal file's version
/// (`JournalFormat.currentVersion`): the bank's records are what a journal holds.
///
/// - 2: a payout names the API that created it.
/// - 1 (sandboxes up to 0.2.0): it names none; every payout was made by the one API there was, which the
///   reader names (`dialectOfVersion1`).
public struct BankFormat: Sendable {
    public static let currentVersion = Int(JournalFormat.currentVersion)
    public static let current = BankFormat(version: currentVersion, dialectOfVersion1: "")

    public let version: Int
    /// The dialect of payouts read from version 1.
    public let dialectOfVersion1: String

    public init(version: Int, dialectOfVersion1: String) {
        self.version = version
        self.dialectOfVersion1 = dialectOfVersion1
    }

    /// The versions this sandbox reads.
    public static let readable = Int(JournalFormat.readableVersions.lowerBound) ... currentVersion

    /// A payout's dialect: read, or the one of version 1.
    func dialect(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> String {
        version >= 2 ? try reader.string() : dialectOfVersion1
    }
}
