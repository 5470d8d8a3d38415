/// The limits the integration report judges an app by (the Testing your app guide, "What your
/// app gets wrong"): how long after a notification an app has to ask for the status, and how many
/// status queries of one cashout a window allows. A suite sets them (its `report` key), and a
/// `GET /sandbox/report` query overrides them. Here, not in the report's module, because scenario
/// files read them too.
package struct ReportThresholds: Sendable, Hashable {
    /// How long after acknowledging a notification an app has to ask for the status (an API whose
    /// notifications carry none).
    package var followUpWithin: Duration
    /// At most this many status queries of one cashout...
    package var pollingLimit: Int
    /// ...within this long.
    package var pollingPer: Duration

    package init(followUpWithin: Duration, pollingLimit: Int, pollingPer: Duration) {
        self.followUpWithin = followUpWithin
        self.pollingLimit = pollingLimit
        self.pollingPer = pollingPer
    }

    /// Today's: 60 s to follow up, at most 10 queries a cashout per 60 s.
    package static let standard = ReportThresholds(followUpWithin: .seconds(60), pollingLimit: 10, pollingPer: .seconds(60))

    /// The durations either may be.
    static let durations: ClosedRange<Duration> = .seconds(1) ... .seconds(7 * 86_400)
    /// The polling limits.
    package static let limits: ClosedRange<Int> = 1 ... 1_000_000

    /// What a bad duration gets: `expected a duration from 1s to 7d, such as "2m"`.
    package static let durationExpected = "expected a duration from \(DurationText.format(durations.lowerBound)) to "
        + "\(DurationText.format(durations.upperBound)), such as \"2m\""
    /// What a bad limit gets.
    package static let limitExpected = "expected a whole number from \(limits.lowerBound) to \(limits.upperBound)"

    /// The duration `text` names, when it is one of `durations`.
    package static func duration(_ text: String) -> Duration? {
        DurationText.parse(text).flatMap { durations.contains($0) ? $0 : nil }
    }
}
