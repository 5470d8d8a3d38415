package import SandboxBank

extension Sandbox {
    /// What decided the fate of `payout`, one of this sandbox's.
    package func decidedBy(_ payout: Payout) -> DecidedBy {
        DecidedBy(payout, timeline: bank.decision(payoutID: payout.id) ?? .unknown)
    }
}
