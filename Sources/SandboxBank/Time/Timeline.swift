/// What the bank does with a payout over time: steps relative to the previous one.
package struct TimelineStep: Sendable, Hashable {
    package var after: Duration
    /// Business days (Saturday and Sunday skipped) added after `after`, at the same time of day.
    package var businessDays = 0
    package var status: PayoutStatus
    /// With a rejection: its code and reason (see `Payout.reasonCode`).
    package var reasonCode: String?
    package var reason: String?
    package var bankReference: String?
    package var statusDetail: String?

    package init(after: Duration, status: PayoutStatus, reasonCode: String? = nil, reason: String? = nil,
                bankReference: String? = nil, statusDetail: String? = nil) {
        self.after = after
        self.status = status
        self.reasonCode = reasonCode
        self.reason = reason
        self.bankReference = bankReference
        self.statusDetail = statusDetail
    }

    /// When this step is due, the previous one having happened at `time`.
    func due(after time: VirtualTime) -> VirtualTime {
        time.adding(after).addingBusinessDays(businessDays)
    }

    /// The default bank (the Scenario files guide): DELIVERED after 5 s, COMPLETED 10 s later.
    static let defaultTimeline = [
        TimelineStep(after: .seconds(5), status: .delivered),
        TimelineStep(after: .seconds(10), status: .completed),
    ]
}
