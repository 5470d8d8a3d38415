// Webhook chaos: what real providers do to notifications (deliver twice, out of order, late,
// with a stale signature, an old one again after a newer one), on the virtual clock.
//
// A policy (the scenario's `webhooks.chaos`) decides a plan for a notification when its first
// attempt comes due, and the bank carries it out:
// - a shift moves the notification's own first attempt: `delayed` by a duration, or `out_of_order`
//   (held until the first attempt of a later notification of the same payout is made, then sent
//   at once; at most `atMost`). That attempt is the notification's own: retried and settling its
//   state as any, and marked with its chaos;
// - copies are extra deliveries beside the notification's own attempts: `duplicate` and `forged`
//   (signed with a wrong key) after its first attempt, `replay` after a later notification of the
//   same payout was delivered (never, if none is). A copy is sent once: never retried, and its
//   answer changes neither the notification's state nor its retries.
// Each decision and each copy's answer is journaled, so a replay carries on the same plan.

/// One of the things webhook chaos does to a delivery.
package enum ChaosKind: String, Sendable, CaseIterable {
    /// The same notification sent once more.
    case duplicate
    /// Held until a later notification of the same payout was sent.
    case outOfOrder = "out_of_order"
    /// Sent later than due.
    case delayed
    /// Sent with a wrong signature (each API's own: in its body or a header): the receiver should refuse it.
    case forged
    /// Sent again after a later notification of the same payout was delivered.
    case replay

    /// An extra delivery beside the notification's own attempts (not a shift of its first one).
    package var isCopy: Bool { self == .duplicate || self == .forged || self == .replay }
}

/// The chaos rule that asked for something: its place in the rules and its name.
package struct ChaosRule: Sendable, Equatable {
    package let index: Int
    package let name: String?

    package init(index: Int, name: String?) {
        self.index = index
        self.name = name
    }
}

/// What chaos does to one notification, decided when its first attempt comes due.
package struct ChaosPlan: Sendable, Equatable {
    /// How the notification's own first attempt moves.
    package enum Shift: Sendable, Equatable {
        /// Made this much later.
        case delay(Duration)
        /// Made right after the first attempt of a later notification of the same payout, or
        /// after this long if none is made by then.
        case hold(atMost: Duration)
    }

    /// An extra delivery.
    package struct Copy: Sendable, Equatable {
        /// Where it stands.
        package enum Progress: Sendable, Equatable {
            /// Waiting for what sets it off (the first attempt; a later notification delivered).
            case waiting
            /// Queued for this time.
            case due(VirtualTime)
            /// Sent and answered.
            case sent
        }

        /// `duplicate`, `forged` or `replay`.
        package let kind: ChaosKind
        /// How long after what sets it off it is sent.
        package let after: Duration
        package let rule: ChaosRule
        package internal(set) var progress: Progress
        /// A replay's: the later notification whose delivery set it off.
        package internal(set) var setOffBy: Int?

        /// A copy planned (waiting), or as a snapshot holds it, with its progress.
        package init(kind: ChaosKind, after: Duration, rule: ChaosRule, progress: Progress = .waiting, setOffBy: Int? = nil) {
            self.kind = kind
            self.after = after
            self.rule = rule
            self.progress = progress
            self.setOffBy = setOffBy
        }
    }

    package var shift: Shift?
    /// The rule of `shift`.
    package var shiftRule: ChaosRule?
    package var copies: [Copy] = []
    /// The rules whose `when` matched, each counting the notification (for its `every`).
    package var matched: [Int] = []
    /// A held notification's: the later one whose first attempt released it (nil while held, or
    /// when the bound ran out first).
    package internal(set) var releasedBy: Int?

    package init(shift: Shift? = nil, shiftRule: ChaosRule? = nil, copies: [Copy] = [], matched: [Int] = [], releasedBy: Int? = nil) {
        self.shift = shift
        self.shiftRule = shiftRule
        self.copies = copies
        self.matched = matched
        self.releasedBy = releasedBy
    }

    /// Whether it waits for a later notification of the same payout: held and not yet sent, or
    /// with a replay not yet set off.
    package func waitsForLater(_ notification: StatusNotification) -> Bool {
        holds(notification) || copies.contains { $0.kind == .replay && $0.progress == .waiting }
    }

    /// Whether it holds `notification` (its own) back still: not released, not sent.
    func holds(_ notification: StatusNotification) -> Bool {
        guard case .hold = shift else { return false }
        return releasedBy == nil && notification.state == .pending && notification.scheduledAttempts == 0
    }
}

/// What chaos did to one delivery attempt: kept with it in the webhook journal.
package struct ChaosMark: Sendable, Equatable {
    package let kind: ChaosKind
    /// The rule that asked for it; nil when it was asked for by hand (the admin API).
    package let rule: ChaosRule?
    /// Which copy of the notification's plan it is (nil: a shift, or asked for by hand).
    package let copy: Int?
    /// A copy's: the number of the attempt it copies (the notification's first); nil when the
    /// notification had made none.
    package let copyOf: Int?
    /// `delayed`: by how long; a copy of a rule: how long after what set it off it was sent.
    package let delay: Duration?
    /// `out_of_order`: the later notification whose attempt released it (nil: the bound ran out);
    /// `replay`: the later notification whose delivery set it off.
    package let after: Int?

    package init(kind: ChaosKind, rule: ChaosRule?, copy: Int? = nil, copyOf: Int? = nil, delay: Duration? = nil, after: Int? = nil) {
        self.kind = kind
        self.rule = rule
        self.copy = copy
        self.copyOf = copyOf
        self.delay = delay
        self.after = after
    }
}

extension ChaosMark {
    /// One human line: what was done, and which rule asked (or "sent by hand"), as the admin API's
    /// `summary`, the dashboard and a failing scenario step show it.
    package var summary: String {
        let copied = copyOf.map { " of attempt \($0)" } ?? ""
        let later = delay.flatMap { $0 > .zero ? " \(DurationText.format($0))" : nil } ?? ""
        let what: String = switch kind {
        case .duplicate: "duplicate\(copied)\(later.isEmpty ? "" : "," + later + " after it")"
        case .forged: "forged copy\(copied), signed with a wrong secret\(later.isEmpty ? "" : "," + later + " after it")"
        case .replay: after.map { "replay\(later) after webhook \($0) was delivered" } ?? "replay\(copied)"
        case .delayed: "delayed by \(delay.map(DurationText.format) ?? "0s")"
        case .outOfOrder: after.map { "held until webhook \($0) was sent" }
            ?? "held \(delay.map(DurationText.format) ?? ""): no later webhook of the cashout was sent"
        }
        guard let rule else { return what + ", sent by hand" }
        return what + " (chaos rule \(rule.index)\(rule.name.map { " \"\($0)\"" } ?? ""))"
    }
}

/// How chaos decides (the scenario's `webhooks.chaos`): a plan for each notification whose first
/// attempt comes due.
package struct ChaosPolicy: Sendable {
    /// Tells policies apart: a policy with another identity counts matches from zero again.
    package let identity: String
    /// The plan for `notification` of `payout`, nil when no rule matched; `counts[i]` is how many
    /// notifications rule `i` matched before (absent: none; its `every` counts on from there).
    let plan: @Sendable (_ notification: StatusNotification, _ payout: Payout, _ counts: [Int: Int]) -> ChaosPlan?

    package init(identity: String, plan: @escaping @Sendable (StatusNotification, Payout, [Int: Int]) -> ChaosPlan?) {
        self.identity = identity
        self.plan = plan
    }
}
