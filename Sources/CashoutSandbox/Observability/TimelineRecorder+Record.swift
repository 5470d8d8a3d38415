import SandboxBank
import SandboxSupport
import Synchronization

// The recorder as a finished run's record keeps it (`cashout-sandbox show`): when it started, the
// real time and turn of each bank event kept, and the clock's stops, read back into a recorder of
// another sandbox with every wall-clock time moved by the difference of their starts.

extension TimelineRecorder {
    /// `{"started", "times": [[kind, id, number, real, turn]], "stops": [...]}`.
    func recordJSON() -> JSON {
        let (times, stops) = kept.withLock { kept in
            (kept.order.inOrder.compactMap { key in kept.times[key].map { (key, $0) } }, kept.stops.inOrder)
        }
        return [
            "started": .number(String(started)),
            "times": .array(times.map { key, moment in
                let (kind, id, number) = switch key {
                case .change(let payout, let index): ("change", payout, index)
                case .attempt(let notification, let number): ("attempt", notification, number)
                case .sent(let notification, let number): ("sent", notification, number)
                }
                return [.string(kind), .number(id), .number(number), .number(String(moment.real)), .number(moment.turn)]
            }),
            "stops": .array(stops.map { stop in
                ["began": .number(String(stop.began)), "turn": .number(stop.turn), "at": .number(String(stop.at.milliseconds)),
                 "waited_for": .string(stop.waitedFor), "payouts": .array(stop.payouts.map { .number($0) }),
                 "ended": .string(stop.ended.rawValue), "lasted": .number(String(stop.lasted))]
            }),
        ]
    }

    /// Keeps what `record` (``recordJSON()``) kept, its wall-clock times moved to this recorder's start; the shift in
    /// milliseconds (what other records of the same run move their times by). A time out of range is passed over.
    @discardableResult
    func restore(record: JSON) -> Int64 {
        let shift = RecordTimes.real(record["started"]).map { started - $0 } ?? 0
        for item in record["times"]?.arrayValue ?? [] {
            guard let kind = item[0]?.stringValue, let id = item[1]?.integerValue, let number = item[2]?.integerValue,
                  let real = RecordTimes.real(item[3], shift: shift), let turn = item[4]?.integerValue else { continue }
            let key: Key? = switch kind {
            case "change": .change(payout: id, index: number)
            case "attempt": .attempt(notification: id, number: number)
            case "sent": .sent(notification: id, number: number)
            default: nil
            }
            guard let key, capacity > 0 else { continue }
            kept.withLock { kept in
                if let old = kept.order.append(key) { kept.times[old] = nil }
                kept.times[key] = (real, turn)
            }
        }
        for item in record["stops"]?.arrayValue ?? [] {
            guard let began = RecordTimes.real(item["began"], shift: shift), let at = RecordTimes.virtual(item["at"]),
                  let ended = item["ended"]?.stringValue.flatMap(Stop.Ending.init), let lasted = RecordTimes.real(item["lasted"])
            else { continue }
            self.record(Stop(began: began, turn: item["turn"]?.integerValue ?? 0, at: at, waitedFor: item["waited_for"]?.stringValue ?? "",
                             payouts: (item["payouts"]?.arrayValue ?? []).compactMap(\.integerValue), ended: ended, lasted: lasted))
        }
        return shift
    }
}

/// The times a run's record holds, read back only when in range (a record is a file a user hands over: a time that
/// would overflow, once shifted or shown, is none).
enum RecordTimes {
    /// The latest wall-clock milliseconds taken (the year 10889).
    static let latestReal: Int64 = 1 << 48

    /// Wall-clock milliseconds (or a duration in them), moved by `shift`; nil out of range.
    static func real(_ json: JSON?, shift: Int64 = 0) -> Int64? {
        guard let value = json?.numberText.flatMap({ Int64($0) }), (0 ... latestReal).contains(value),
              (-latestReal ... latestReal).contains(shift), (0 ... latestReal).contains(value + shift) else { return nil }
        return value + shift
    }

    /// A virtual time in milliseconds; nil out of the clock's range.
    static func virtual(_ json: JSON?) -> VirtualTime? {
        guard let value = json?.numberText.flatMap({ Int64($0) }), (0 ... VirtualClock.end.milliseconds).contains(value) else { return nil }
        return VirtualTime(milliseconds: value)
    }
}
