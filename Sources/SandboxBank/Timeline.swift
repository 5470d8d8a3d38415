/// What the bank does with a payout over time: steps relative to the previous one.
public struct TimelineStep: Sendable, Equatable {
    public var after: Duration
    public var status: PayoutStatus
    public var rejectionCode: Int?
    public var rejectionReason: String?
    public var bankReferenceID: String?
    public var statusReason: String?

    public init(after: Duration, status: PayoutStatus, rejectionCode: Int? = nil, rejectionReason: String? = nil,
                bankReferenceID: String? = nil, statusReason: String? = nil) {
        self.after = after
        self.status = status
        self.rejectionCode = rejectionCode
        self.rejectionReason = rejectionReason
        self.bankReferenceID = bankReferenceID
        self.statusReason = statusReason
    }

    /// DESIGN.md's default bank: DELIVERED after 5 s, COMPLETED 10 s later.
    public static let defaultTimeline = [
        TimelineStep(after: .seconds(5), status: .delivered),
        TimelineStep(after: .seconds(10), status: .completed),
    ]
}
