package import SandboxBank
import SandboxWire

/// The checks any payout API can show, in its own terms (`ReportTerms`). A dialect picks the ones
/// that apply to it (`ReportingDialect.integrationChecks`); none of them names an API.
package enum IntegrationChecks {
    /// How an app learns a notified change: by asking for the status within a window (D24's
    /// notifications carry no status), or by the notification itself (PayoutService's carry it,
    /// so answering 2xx is learning it; a status query also counts).
    package enum FollowUp: Sendable {
        case statusQuery(within: Duration)
        case acknowledgement
    }

    /// The checks of an API whose merchants create payouts by their own reference and hear of
    /// changes by signed notifications, in report order: `notification_not_followed_up` only
    /// where the app must ask for the status (`followUp` a status query). `thresholds` sets the
    /// polling limit (the follow-up window is `followUp`'s).
    package static func payoutAPI(_ terms: ReportTerms, followUp: FollowUp, thresholds: ReportThresholds) -> [IntegrationCheck] {
        var checks = [notificationFailed(terms)]
        if case .statusQuery(let window) = followUp { checks.append(notificationNotFollowedUp(terms, within: window)) }
        return checks + [lateRejectionMissed(terms, followUp: followUp), forgedNotificationAccepted(terms), duplicateAfterLostResponse(terms),
                         idempotencyKeyReused(terms), signatureErrors(terms),
                         statusPollingExcessive(terms, limit: thresholds.pollingLimit, per: thresholds.pollingPer),
                         retriedBeforeRetryAfter(terms), ledgerMismatch(terms)]
    }

    /// `ledger_mismatch`: the app's own ledger, read by the last reconciliation, disagrees with
    /// the bank about a payout's money (its fate, its amount, how many there are, or that it exists).
    package static func ledgerMismatch(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "ledger_mismatch", severity: .error, advice: """
            Keep one ledger row per cashout, by its \(terms.reference), with the amount sent and the status \(terms.statusQuery) \
            answers now: a cashout that completed can still be rejected later, and a retried create may have been made before.
            """, description: "the app's own ledger disagrees with the bank about a cashout's fate, amount, count or existence; "
                + "exercised by a reconciliation (a suite's app.ledger, expect_reconciled, POST /sandbox/reconcile)") { evidence in
            guard let occurrences = evidence.ledgerMismatches else { return .notExercised }
            return occurrences.isEmpty ? .passed : .failed(occurrences)
        }
    }

    /// `notification_failed`: every attempt of a notification answered non-2xx or timed out.
    static func notificationFailed(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "notification_failed", severity: .error, advice: """
            Answer every notification at \(terms.notificationURL) with a 2xx once it is stored, within the \
            sandbox's webhook timeout, and do the slow work afterwards; a notification whose every attempt \
            fails is never sent again.
            """, description: "a notification whose every attempt was answered non-2xx or timed out; exercised once a notification "
                + "to the app was delivered or gave up") { evidence in
            let settled = evidence.notifications.filter { $0.state == .delivered || $0.state == .exhausted }
            let failed = settled.filter { $0.state == .exhausted }.map { notification in
                Occurrence(cashouts: [notification.payoutID],
                           summary: "the \(evidence.statusWord(notification.status)) notification of cashout \(notification.payoutID) "
                               + "failed on all \(notification.ownAttempts.count) attempts",
                           evidence: notification.ownAttempts.map { evidence.evidence(notification, $0) })
            }
            return IntegrationCheck.outcome(exercised: !settled.isEmpty, failed)
        }
    }

    /// `notification_not_followed_up`: an acknowledged notification (not a late rejection)
    /// whose payout the app never asked about within the window.
    static func notificationNotFollowedUp(_ terms: ReportTerms, within window: Duration) -> IntegrationCheck {
        IntegrationCheck(id: "notification_not_followed_up", severity: .error, advice: """
            A notification says only that a cashout changed: on each one, ask \(terms.statusQuery) for that cashout and act on \
            the status it answers, within \(DurationText.format(window)).
            """, description: "a notification the app acknowledged but did not follow with \(terms.statusQuery) within "
                + "\(DurationText.format(window)); exercised once an acknowledged notification was followed up or its window closed") { evidence in
            missedFollowUps(evidence, lateRejections: false, followUp: .statusQuery(within: window), terms: terms)
        }
    }

    /// `late_rejection_missed`: the notification of a reversal after completion, not followed up.
    static func lateRejectionMissed(_ terms: ReportTerms, followUp: FollowUp) -> IntegrationCheck {
        let how = switch followUp {
        case .statusQuery(let window): "ask \(terms.statusQuery) within \(DurationText.format(window)) of its notification"
        case .acknowledgement: "accept its notification (answer 2xx once stored)"
        }
        let missed = switch followUp {
        case .statusQuery(let window): "not followed by \(terms.statusQuery) within \(DurationText.format(window))"
        case .acknowledgement: "refused on every attempt"
        }
        return IntegrationCheck(id: "late_rejection_missed", severity: .error, advice: """
            A completed cashout can still be reversed by the bank: \(how), and undo what completion did (credit the user back, \
            reopen the order).
            """, description: "a reversal after completion whose notification was \(missed); exercised by a late rejection (a cashout "
                + "completed, then rejected by the bank)") { evidence in
            missedFollowUps(evidence, lateRejections: true, followUp: followUp, terms: terms)
        }
    }

    /// The notifications (late rejections, or the others) whose change the app did not learn in
    /// time, one occurrence a cashout; not exercised without any whose window has closed.
    private static func missedFollowUps(_ evidence: AccountEvidence, lateRejections: Bool, followUp: FollowUp,
                                        terms: ReportTerms) -> IntegrationCheck.Outcome {
        var exercised = false
        var missed: [Int: (words: [String], asked: Bool, lost: Set<Int>, evidence: [Evidence])] = [:]
        for notification in evidence.notifications where notification.isLateRejection == lateRejections {
            let own = notification.ownAttempts
            guard let last = own.last else { continue }  // not sent yet
            let acknowledged = notification.acknowledgement
            let queries = evidence.statusQueries(of: notification.payoutID).filter { $0.at >= notification.changedAt }
            let deadline: VirtualTime
            switch followUp {
            case .acknowledgement:
                guard acknowledged == nil else { exercised = true; continue }
                guard notification.state == .exhausted else { continue }  // retries to come
                deadline = last.at
            case .statusQuery(let window):
                // Not acknowledged: notification_failed's case, unless it is a late rejection.
                guard acknowledged != nil || (lateRejections && notification.state == .exhausted) else { continue }
                deadline = (acknowledged ?? last).at.adding(window)
            }
            if queries.contains(where: { $0.at <= deadline }) { exercised = true; continue }
            guard evidence.now >= deadline else { continue }  // the window is still open
            exercised = true
            // Asked in time, and a fault answered instead of the API: the app did ask, and learnt nothing.
            let lost = evidence.lostStatusQueries(of: notification.payoutID).filter { $0.at >= notification.changedAt && $0.at <= deadline }
            var entry = missed[notification.payoutID] ?? ([], false, [], [])
            entry.words.append(evidence.statusWord(notification.status) + (acknowledged == nil ? " (never acknowledged)" : ""))
            entry.asked = entry.asked || !queries.isEmpty
            entry.evidence += own.map { evidence.evidence(notification, $0) }
                + lost.filter { !entry.lost.contains($0.id) }.map { $0.evidence("asked in time; its answer lost") }
                + queries.map { $0.evidence("asked too late") }
            entry.lost.formUnion(lost.map(\.id))
            missed[notification.payoutID] = entry
        }
        let occurrences = missed.keys.sorted().map { id -> Occurrence in
            let entry = missed[id]!
            let what = "the \(entry.words.joined(separator: ", ")) notification\(entry.words.count == 1 ? "" : "s") of cashout \(id)"
            let summary: String
            let lost = [1: "once, and its answer was lost to an injected fault", 2: "twice, and both answers were lost to injected faults"]
            let followed = entry.lost.isEmpty ? nil : "followed up by \(terms.statusQuery) "
                + (lost[entry.lost.count] ?? "\(entry.lost.count) times, and every answer was lost to injected faults")
            if case .statusQuery(let window) = followUp {
                summary = what + (entry.words.count == 1 ? " was" : " were")
                    + (followed.map { " \($0): no query answered within \(DurationText.format(window))" }
                        ?? " not followed by \(terms.statusQuery) " + (entry.asked ? "within \(DurationText.format(window))" : "at all"))
            } else {
                summary = what + " was refused on every attempt, and " + (followed.map { "was \($0)" } ?? "\(terms.statusQuery) was not asked")
            }
            return Occurrence(cashouts: [id], summary: summary, evidence: entry.evidence)
        }
        return IntegrationCheck.outcome(exercised: exercised, occurrences)
    }

    /// `forged_notification_accepted`: a notification signed with a wrong key answered 2xx. A
    /// forged copy refused shows something only when the app acknowledges genuine ones: an app
    /// that refuses every notification (or answers each 500) refuses forged ones without checking
    /// anything, so a refusal counts only once the account's app has acknowledged one of its own.
    static func forgedNotificationAccepted(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "forged_notification_accepted", severity: .error, advice: """
            Check \(terms.notificationSignature) of every notification with the account's secret before acting on it, \
            and answer a wrong one with a 4xx.
            """, description: "a notification signed with a wrong key (webhook chaos's forged copy) answered 2xx; exercised by a "
                + "forged copy once the app has acknowledged a genuine notification (refusing every one shows nothing)") { evidence in
            let acknowledgesGenuine = evidence.notifications.contains { $0.acknowledgement != nil }
            var exercised = false
            var accepted: [Occurrence] = []
            for notification in evidence.notifications {
                for attempt in notification.attempts
                    where attempt.chaos?.kind == .forged && (attempt.outcome.status != nil || attempt.outcome.error != nil) {
                    exercised = exercised || acknowledgesGenuine || attempt.outcome.succeeded
                    guard attempt.outcome.succeeded else { continue }
                    accepted.append(Occurrence(cashouts: [notification.payoutID],
                                               summary: "a forged \(evidence.statusWord(notification.status)) notification of cashout "
                                                   + "\(notification.payoutID) was answered \(attempt.outcome.status ?? 0)",
                                               evidence: [evidence.evidence(notification, attempt)]))
                }
            }
            return IntegrationCheck.outcome(exercised: exercised, accepted)
        }
    }

    /// `duplicate_after_lost_response`: after a create whose answer was lost, a create with a new
    /// reference for the same beneficiary and amount, while the first had not come back unpaid (a
    /// payment again after a rejection pays once).
    package static func duplicateAfterLostResponse(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "duplicate_after_lost_response", severity: .error, advice: """
            When a create's answer is lost (a timeout, a closed connection), send it again with the same \(terms.reference), \
            or ask \(terms.statusQuery) by it: a new \(terms.reference) pays the beneficiary twice.
            """, description: "after a create whose answer was lost, a new \(terms.reference) for the same beneficiary and amount; "
                + "exercised by a lost answer (fault drop_after_commit) the app then acted on: "
                + "a retry, \(terms.statusQuery) or another create") { evidence in
            var exercised = false
            var duplicates: [Occurrence] = []
            let creates = evidence.creates
            // The creates of each beneficiary and amount, in order: where a lost one's retry is looked for.
            var samePayout: [String: [ReportedRequest]] = [:]
            if creates.contains(where: \.exchange.dropped) {
                for request in creates {
                    guard case .create(let beneficiary, let amount) = request.facts.action else { continue }
                    samePayout[beneficiary + "\u{0}" + amount, default: []].append(request)
                }
            }
            for lost in creates where lost.exchange.dropped {
                guard case .create(let beneficiary, let amount) = lost.facts.action, let reference = lost.facts.reference,
                      let committed = evidence.payout(reference: reference) else { continue }
                // An app that did nothing after the lost answer (or not yet) showed nothing either way.
                exercised = exercised || creates.contains { $0.id > lost.id && $0.facts.reference == reference }
                    || evidence.statusQueries(of: committed.id).contains { $0.id > lost.id }
                let same = samePayout[beneficiary + "\u{0}" + amount] ?? []
                var after = 0, end = same.count  // the first of `same` after `lost`, by binary search
                while after < end {
                    let middle = (after + end) / 2
                    if same[middle].id <= lost.id { after = middle + 1 } else { end = middle }
                }
                guard let first = same[after...].first(where: { $0.facts.reference.map { $0 != reference } ?? false }) else { continue }
                exercised = true
                // Paid again once the first had come back unpaid (rejected, reversed, cancelled): not twice.
                if let then = committed.history.last(where: { $0.at <= first.at })?.status, then.isUnpaidEnd { continue }
                let second = first.facts.reference.flatMap { evidence.payout(reference: $0) }
                duplicates.append(Occurrence(
                    cashouts: [committed.id] + (second.map { [$0.id] } ?? []),
                    summary: "the answer to the create of \(terms.reference) \(reference) (cashout \(committed.id)) was lost, and the app "
                        + "created again for the same beneficiary and amount as \(first.facts.reference ?? "")",
                    evidence: [lost.evidence(), first.evidence("a new \(terms.reference) for the same payout")]))
            }
            return IntegrationCheck.outcome(exercised: exercised, duplicates)
        }
    }

    /// What `duplicate_after_lost_response` explains of the app's ledger, by cashout: the one whose answer was lost
    /// (`the app created it again as cashout 1000010 after its answer was lost`) and the one the app made again
    /// (`the app created it again for cashout 1000009, whose answer was lost`); a ledger mismatch of either names it.
    package static func lostAnswerExplanations(_ report: IntegrationReport) -> [Int: String] {
        var explanations: [Int: String] = [:]
        for finding in report.findings where finding.check.id == "duplicate_after_lost_response" {
            for occurrence in finding.occurrences where occurrence.cashouts.count == 2 {
                let (lost, again) = (occurrence.cashouts[0], occurrence.cashouts[1])
                explanations[lost] = explanations[lost] ?? "the app created it again as cashout \(again) after its answer was lost"
                explanations[again] = explanations[again] ?? "the app created it again for cashout \(lost), whose answer was lost"
            }
        }
        return explanations
    }

    /// `idempotency_key_reused`: a reference sent again with another amount or beneficiary.
    static func idempotencyKeyReused(_ terms: ReportTerms) -> IntegrationCheck {
        IntegrationCheck(id: "idempotency_key_reused", severity: .error, advice: """
            Make \(terms.reference) unique to one payout and send a retry byte for byte as the first try: a retry with \
            another amount or beneficiary is a new payout and needs a new \(terms.reference).
            """, description: "the same \(terms.reference) sent again with another amount or beneficiary; exercised once one is "
                + "sent twice, or looked up (\(terms.statusQuery) by it) after its create's answer was lost: the two ways to "
                + "recover a lost answer") { evidence in
            var first: [String: ReportedRequest] = [:]
            // An app that recovers a lost answer by looking the payout up by its reference uses the
            // reference as a resend would: either path exercises the check.
            var exercised = evidence.creates.contains { lost in
                guard lost.exchange.dropped, let reference = lost.facts.reference else { return false }
                return evidence.requests.contains { $0.id > lost.id && $0.facts.action == .statusQuery && $0.facts.reference == reference }
            }
            var reused: [Occurrence] = []
            for request in evidence.creates {
                guard case .create(let beneficiary, let amount) = request.facts.action, let reference = request.facts.reference else { continue }
                guard let earlier = first[reference] else {
                    first[reference] = request
                    continue
                }
                exercised = true
                guard earlier.facts.action != request.facts.action, case .create(let was, let wasAmount) = earlier.facts.action else { continue }
                let what = [wasAmount != amount ? "amount \(wasAmount) then \(amount)" : nil,
                            was != beneficiary ? "beneficiary \(was) then \(beneficiary)" : nil].compactMap { $0 }
                let payout = evidence.payout(reference: reference)
                reused.append(Occurrence(cashouts: payout.map { [$0.id] } ?? [],
                                         summary: "\(terms.reference) \(reference) was sent again with " + what.joined(separator: " and "),
                                         evidence: [earlier.evidence(), request.evidence("the same \(terms.reference), another payout")]))
            }
            return IntegrationCheck.outcome(exercised: exercised, reused)
        }
    }

    /// `signature_errors`: requests refused for their credentials or signature, by cause (but
    /// the causes `ignoring` names, which other checks judge).
    package static func signatureErrors(_ terms: ReportTerms, ignoring: Set<String> = []) -> IntegrationCheck {
        IntegrationCheck(id: "signature_errors", severity: .error, advice: """
            Each refused request's diagnosis in GET /sandbox/requests says what was wrong and what was expected \
            (\(terms.credentials)); fix that before production, where a refusal says nothing.
            """, description: "requests refused for their credentials or signature (\(terms.credentials)); exercised by any request") { evidence in
            let refused = evidence.requests.filter { $0.refusal.map { !ignoring.contains($0.check) } ?? false }
            let causes = Dictionary(grouping: refused) { $0.refusal?.check ?? "" }
            let occurrences = causes.keys.sorted().map { cause -> Occurrence in
                let requests = causes[cause] ?? []
                return Occurrence(cashouts: [], summary: "\(requests.count) request\(requests.count == 1 ? "" : "s") refused: \(cause): "
                                      + (requests.first?.refusal?.message ?? ""),
                                  evidence: requests.prefix(Self.evidenceLimit).map { $0.evidence($0.refusal?.message) })
            }
            return IntegrationCheck.outcome(exercised: !evidence.requests.isEmpty, occurrences)
        }
    }

    /// `status_polling_excessive`: more than `limit` status queries of one payout in `window`;
    /// an occurrence says the most that any one window held (and how many in all, when more).
    static func statusPollingExcessive(_ terms: ReportTerms, limit: Int, per window: Duration) -> IntegrationCheck {
        IntegrationCheck(id: "status_polling_excessive", severity: .warning, advice: """
            Ask \(terms.statusQuery) when a notification comes (and rarely otherwise, with a growing interval), not in a loop: \
            at most \(limit) a cashout per \(DurationText.format(window)); production rate-limits pollers.
            """, description: "more than \(limit) \(terms.statusQuery) of one cashout within \(DurationText.format(window)); "
                + "exercised by any status query") { evidence in
            var exercised = false
            var excessive: [Occurrence] = []
            for payout in evidence.payouts {
                let queries = evidence.statusQueries(of: payout.id)
                exercised = exercised || !queries.isEmpty
                // The fullest window: queries[worst] within `window`, the most of any.
                var start = 0
                var worst = 0 ..< 0
                for end in queries.indices {
                    while queries[end].at > queries[start].at.adding(window) { start += 1 }
                    if end + 1 - start > worst.count { worst = start ..< end + 1 }
                }
                guard worst.count > limit else { continue }
                let total = queries.count > worst.count ? " (\(queries.count) in all)" : ""
                excessive.append(Occurrence(cashouts: [payout.id],
                                            summary: "cashout \(payout.id) was asked \(worst.count) times within "
                                                + DurationText.format(window) + total + " (at most \(limit) expected)",
                                            evidence: queries[worst].prefix(Self.evidenceLimit).map { $0.evidence() }))
            }
            return IntegrationCheck.outcome(exercised: exercised, excessive)
        }
    }

    /// How many requests a finding lists at most as evidence of one occurrence.
    package static let evidenceLimit = 20
}

/// How a dialect names what the generic checks talk about, for their advice and summaries.
package struct ReportTerms: Sendable {
    /// `POST /v3/cashout/status`.
    package var statusQuery: String
    /// `external_id`.
    package var reference: String
    /// Where the app receives notifications: `your notification_url`.
    var notificationURL: String
    /// What signs a notification: `the control field`.
    var notificationSignature: String
    /// What authenticates a request: `Payload-Signature, login and pass`.
    package var credentials: String

    package init(statusQuery: String, reference: String, notificationURL: String, notificationSignature: String, credentials: String) {
        self.statusQuery = statusQuery
        self.reference = reference
        self.notificationURL = notificationURL
        self.notificationSignature = notificationSignature
        self.credentials = credentials
    }
}
