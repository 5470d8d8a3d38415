package import SandboxBank

/// Which version of the bank's binary form (journal records, snapshots) some bytes are in, so a
/// sandbox reads what an older one wrote. It is the journal file's version
/// (`JournalFormat.currentVersion`): the bank's records are what a journal holds.
///
/// - 6: webhook chaos: two records (`chaosPlanned`, `chaosAttempt`); in a snapshot, each attempt's
///   chaos mark, each notification's chaos plan, chaos copies in the queue (event kind 3) and the
///   chaos rules' counts after the queue.
/// - 5: a payout records what chose its timeline (`TimelineDecision`): its create and
///   details-added records end with it; a snapshot holds each decision once, before the
///   payouts, and each payout its place among them. Older payouts show `unknown`.
/// - 4: a payout staged or awaiting details may expire (`PayoutRequest.expiresAfter`), and a
///   snapshot's queue holds the expiries; a payout executed may have details added (a record
///   of its own, which older versions do not read).
/// - 3: accounts keep their API's settings by name; a payout's reference and country are
///   optional, it may start staged; reason codes are text.
/// - 2: a payout names the API that created it.
/// - 1 (sandboxes up to 0.2.0): it names none. Before 3, every account and payout was the one
///   API's there was, which the reader names (`legacyDialect`), with its three credentials
///   (`legacySettings`).
package struct BankFormat: Sendable {
    /// The format of each version: how whoever reads old files names their dialect and settings.
    package typealias Lookup = @Sendable (_ version: Int) -> BankFormat

    static let currentVersion = Int(JournalFormat.currentVersion)
    package static let current = BankFormat(version: currentVersion, legacyDialect: "", legacySettings: { _, _ in [:] })

    package let version: Int
    /// The dialect of what versions before 3 hold.
    let legacyDialect: String
    /// An account's settings from the three credential strings and the allowed addresses that
    /// versions before 3 hold.
    let legacySettings: @Sendable (_ credentials: [String], _ addresses: [String]) -> Fields

    package init(version: Int, legacyDialect: String, legacySettings: @escaping @Sendable ([String], [String]) -> Fields) {
        self.version = version
        self.legacyDialect = legacyDialect
        self.legacySettings = legacySettings
    }

    /// The versions this sandbox reads.
    static let readable = Int(JournalFormat.readableVersions.lowerBound) ... currentVersion

    /// A payout's dialect: read, or the legacy one in version 1.
    func dialect(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> String {
        version >= 2 ? try reader.string() : legacyDialect
    }
}
