import SandboxSupport
/// One change of a payout's status. A payout keeps every one (a load of 100,000 cashouts keeps
/// 400,000), so it is 16 bytes: its time, who made it and the status packed in one word, and
/// what most changes lack (a rejection's code and reason, an actor without a number) out of line.
package struct StatusChange: Sendable, Equatable {
    /// A rejection's code and reason, an actor without a number, and a time too far from 1970 to
    /// be packed (none the clock reaches): kept out of line, as most changes have none.
    private final class Rare: Hashable, Sendable {
        let code: String?
        let reason: String?
        let actor: String?
        let at: VirtualTime?

        init(code: String?, reason: String?, actor: String?, at: VirtualTime?) {
            self.code = code
            self.reason = reason
            self.actor = actor
            self.at = at
        }

        static func == (lhs: Rare, rhs: Rare) -> Bool {
            lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.actor == rhs.actor && lhs.at == rhs.at
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(code)
            hasher.combine(reason)
        }

        /// Rejections share their reasons: a scenario gives a few to a million payouts.
        static let shared = SharedValues<Rare>(capacity: 4096)
    }

    /// The time in milliseconds (signed) in the top 52 bits, the actor's number in `NameTable.actors`
    /// in the next 8 (0: in `rare`), the status's place in `PayoutStatus.allCases` in the last 4.
    private let packed: UInt64
    private let rare: Rare?

    /// The times that fit in `packed`: about 71,000 years either side of 1970.
    private static let packedTimes: ClosedRange<Int64> = -(1 << 51) ... (1 << 51) - 1
    private static let statuses: [PayoutStatus] = {
        precondition(PayoutStatus.allCases.count <= 16, "a status's place takes 4 bits")
        return PayoutStatus.allCases
    }()

    package var at: VirtualTime { rare?.at ?? VirtualTime(milliseconds: Int64(bitPattern: packed) >> 12) }
    package var status: PayoutStatus { Self.statuses[Int(packed & 0xF)] }
    private var actor: Int { Int(packed >> 4 & 0xFF) }

    /// Who made it: `merchant` (API), `bank` (timeline), `admin` (forced), `create`.
    package var by: String { actor == 0 ? rare?.actor ?? "" : NameTable.actors.name(actor) }
    package var reasonCode: String? { rare?.code }
    package var reason: String? { rare?.reason }

    package init(status: PayoutStatus, at: VirtualTime, by: String, reasonCode: String?, reason: String?) {
        let actor = NameTable.actors.number(of: by, adding: true).map(UInt8.init) ?? 0
        let packable = Self.packedTimes.contains(at.milliseconds)
        let place = Self.statuses.firstIndex(of: status)!
        packed = UInt64(bitPattern: (packable ? at.milliseconds : 0) << 12) | UInt64(actor) << 4 | UInt64(place)
        let numbered = actor != 0
        rare = reasonCode == nil && reason == nil && numbered && packable ? nil
            : Rare.shared.intern(Rare(code: reasonCode, reason: reason, actor: numbered ? nil : by, at: packable ? nil : at))
    }

    package static func == (lhs: StatusChange, rhs: StatusChange) -> Bool {
        lhs.status == rhs.status && lhs.at == rhs.at && lhs.by == rhs.by && lhs.reasonCode == rhs.reasonCode && lhs.reason == rhs.reason
    }
}
