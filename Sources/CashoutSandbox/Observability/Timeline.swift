import SandboxWire
package import SandboxBank
package import SandboxSupport

/// What happened to some payouts, in order (the Testing your app guide, "Why a run failed"): the
/// app's requests and their answers (or the injected fault that replaced one), the bank's status
/// changes, the notifications and the app's answers, the clock's stops for the app and how each
/// ended, the app's ledger as read, and the moment a finding was judged. Made by CashoutSandbox
/// (`Timeline.make`) from the request log, the bank and the ``TimelineRecorder``; shown as text
/// under a failure (``lines(of:realTime:rename:)``), as JSON (`GET /sandbox/cashouts/{id}/timeline`,
/// ``json``) and as a page (SandboxContract's `TimelinePage`, drawn by `timeline.js` from the JSON).
///
/// Every sentence a person reads is made here; the page lays them out and never words an event itself.
package struct Timeline: Sendable {
    /// Who acted, a lane of the page: the app, the sandbox's API, the bank, the clock.
    package enum Lane: String, Sendable {
        case app, api, bank, clock
    }

    package enum Kind: String, Sendable {
        /// The app's request (app → api) and its answer, or the fault that replaced it.
        case request
        /// A notification (api → app) and the app's answer.
        case notification
        /// The sandbox read the app's ledger (api → app).
        case ledger
        /// A status change in the bank; the first is the payout's creation.
        case status
        /// The clock waited for the app.
        case clockStop = "clock_stop"
        /// A finding was judged.
        case finding
    }

    package struct Entry: Sendable {
        package var kind: Kind
        /// The virtual time, and the real one (wall-clock milliseconds; nil: not kept).
        package var at: VirtualTime
        var real: Int64?
        /// An arrow's ends (a request, a notification, a ledger read), or a mark's lane (`to` nil).
        package var from: Lane
        package var to: Lane?
        package var text: String
        package var cashouts: [Int]
        /// An injected fault or chaos: the sandbox's own doing.
        package var injected = false
        /// What a click shows: the request, the answer.
        package var details: [(String, String)] = []
        /// A clock stop's ending and real length.
        package var ended: TimelineRecorder.Stop.Ending?
        var lasted: Int64?
        /// The app's turn it came in (``TimelineRecorder``), for its order among what happened in the same millisecond.
        var turn: Int?

        package init(_ kind: Kind, at: VirtualTime, real: Int64?, from: Lane, to: Lane? = nil, text: String, cashouts: [Int]) {
            self.kind = kind
            self.at = at
            self.real = real
            self.from = from
            self.to = to
            self.text = text
            self.cashouts = cashouts
        }

        /// `app → sandbox`, `sandbox → app`, `bank`, `clock`, `sandbox`: who acted, in a line of text.
        var actor: String {
            func name(_ lane: Lane) -> String { lane == .api ? "sandbox" : lane.rawValue }
            return to.map { "\(name(from)) → \(name($0))" } ?? name(from)
        }
    }

    /// A finding the timeline was made for: its id (`ledger_mismatch`, `step 4`), what it says, the payouts it names.
    package struct Finding: Sendable, Equatable {
        package let id: String
        package let text: String
        package let cashouts: [Int]

        package init(id: String, text: String, cashouts: [Int]) {
            self.id = id
            self.text = text
            self.cashouts = cashouts
        }
    }

    /// A payout the timeline is of.
    package struct Cashout: Sendable {
        package let id: Int
        /// What explore calls it (`[amount 103.00]`), nil elsewhere.
        package var name: String?
        package let api: String
        package let account: String
        package let reference: String?
        package let amount: String
        let currency: String
        package let status: String

        init(id: Int, name: String?, api: String, account: String, reference: String?, amount: String, currency: String,
                     status: String) {
            (self.id, self.name, self.api, self.account, self.reference) = (id, name, api, account, reference)
            (self.amount, self.currency, self.status) = (amount, currency, status)
        }

        /// `cashout 1000003 (d24 sandbox_login, "order-3", 103.00 USD, now COMPLETED)`.
        var heading: String {
            "cashout \(id) (\(api) \(account)\(reference.map { ", \(JSON.string($0).serializedString())" } ?? ""), "
                + "\(amount) \(currency), now \(status))"
        }
    }

    package var title: String
    /// When the sandbox started, wall-clock milliseconds: real times count from it.
    package let started: Int64
    package var findings: [Finding]
    package var cashouts: [Cashout]
    /// Oldest first.
    var entries: [Entry]
    /// The cases of the suite's run it shows, each as `GET /sandbox/suite` lists it (a run's page; none elsewhere).
    package var cases: [JSON] = []

    init(title: String, started: Int64, findings: [Finding], cashouts: [Cashout], entries: [Entry]) {
        self.title = title
        self.started = started
        self.findings = findings
        self.cashouts = cashouts
        self.entries = entries
    }

    /// The same without the requests' and answers' bodies (what its text needs: explore keeps a failing run's so).
    package var withoutDetails: Timeline {
        var timeline = self
        for index in timeline.entries.indices { timeline.entries[index].details = [] }
        return timeline
    }

    /// How many lines of text a payout's timeline takes at most (``lines(of:realTime:rename:)``).
    static let lineLimit = 25

    /// The payout's timeline as text, a heading and at most ``lineLimit`` lines, oldest first:
    /// `09:00:05.000 +1.204s  app → sandbox  POST /v3/cashout/status: 200`. Without `realTime` the
    /// real times and stops' lengths are left out. The same thing again and again in a row (a
    /// poller's queries) is one line, `(×12 until 09:01:05.000)`. Past the limit, the first lines
    /// and the last are kept, with how many were left out between them. `rename` rewrites each
    /// line's text (explore names cashouts by what they are).
    package func lines(of cashoutID: Int, realTime: Bool, rename: (String) -> String = { $0 }) -> [String] {
        guard let cashout = cashouts.first(where: { $0.id == cashoutID }) else { return [] }
        let shown = entries.filter { $0.cashouts.contains(cashoutID) }
        let actorWidth = shown.map(\.actor.count).max() ?? 0
        func line(_ entry: Entry) -> String {
            let time = String(entry.at.iso8601Milliseconds.dropFirst(11).dropLast())  // 09:00:05.000
            let real = realTime ? " " + (entry.real.map { Self.seconds($0 - started) } ?? "—").padding(toLength: 8) : ""
            let lasted = realTime ? entry.lasted.map { " (\($0) ms)" } ?? "" : ""
            return "\(time)\(real)  \(entry.actor.padding(toLength: actorWidth))  \(rename(entry.text))\(lasted)"
        }
        // Runs of the same thing (who and what) are one line, with how many and until when.
        var runs: [(entry: Entry, count: Int, last: Entry)] = []
        for entry in shown {
            if let previous = runs.last, previous.entry.actor == entry.actor, previous.entry.text == entry.text {
                runs[runs.count - 1] = (previous.entry, previous.count + 1, entry)
            } else {
                runs.append((entry, 1, entry))
            }
        }
        var lines = runs.map { run in
            line(run.entry) + (run.count == 1 ? "" : " (×\(run.count) until \(run.last.at.iso8601Milliseconds.dropFirst(11).dropLast()))")
        }
        if lines.count > Self.lineLimit {
            let head = 4, tail = Self.lineLimit - head - 1
            lines = lines.prefix(head) + ["… \(lines.count - head - tail) more …"] + lines.suffix(tail)
        }
        return ["timeline of \(rename(cashout.heading)):"] + lines.map { "  " + $0 }
    }

    /// `+1.204s`: real time since the start.
    package static func seconds(_ milliseconds: Int64) -> String {
        let sign = milliseconds < 0 ? "-" : "+"
        let value = abs(milliseconds)
        return "\(sign)\(value / 1000).\(String(value % 1000 + 1000).dropFirst())s"
    }

    /// The JSON form (`GET /sandbox/cashouts/{id}/timeline`, and the page's data): the Testing
    /// your app guide, "Why a run failed", describes it.
    package var json: JSON {
        var json: [String: JSON] = [
            "title": .string(title),
            "started_at": .string(EventLog.timestamp(started)),
            "findings": .array(findings.map { finding in
                ["id": .string(finding.id), "text": .string(finding.text), "cashouts": .array(finding.cashouts.map { .number($0) })]
            }),
            "cashouts": .array(cashouts.map { cashout in
                ["cashout_id": .number(cashout.id), "name": AdminJSON.optional(cashout.name), "api": .string(cashout.api),
                 "account": .string(cashout.account), "reference": AdminJSON.optional(cashout.reference), "amount": .string(cashout.amount),
                 "currency": .string(cashout.currency), "status": .string(cashout.status)]
            }),
            "entries": .array(entries.map { entry in
                var json: [String: JSON] = [
                    "kind": .string(entry.kind.rawValue), "at": .string(entry.at.iso8601Milliseconds),
                    "real_ms": entry.real.map { .number(Int($0 - started)) } ?? .null, "text": .string(entry.text),
                    "cashouts": .array(entry.cashouts.map { .number($0) }), "injected": .bool(entry.injected),
                ]
                if let to = entry.to {
                    json["from"] = .string(entry.from.rawValue)
                    json["to"] = .string(to.rawValue)
                } else {
                    json["lane"] = .string(entry.from.rawValue)
                }
                if !entry.details.isEmpty { json["details"] = .object(Dictionary(entry.details.map { ($0.0, JSON.string($0.1)) }) { $1 }) }
                if let ended = entry.ended { json["ended"] = .string(ended.rawValue) }
                if let lasted = entry.lasted { json["lasted_ms"] = .number(Int(lasted)) }
                return .object(json)
            }),
        ]
        if !cases.isEmpty { json["cases"] = .array(cases) }
        return .object(json)
    }
}

extension VirtualTime {
    /// `2026-01-05T09:00:05.000Z`: always three decimals, so that times line up.
    var iso8601Milliseconds: String {
        EventLog.timestamp(milliseconds)
    }
}

extension String {
    /// The text followed by spaces up to `length` characters (as is when longer).
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
