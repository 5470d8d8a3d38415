import SandboxBank
import SandboxSupport

// Webhook chaos as the admin API shows it: on each attempt, what chaos made it (`chaos`, null for
// a plain attempt or retry) with a one-line `summary` the dashboard shows as it is; on each
// notification, the plan chaos decided for it (`chaos_plan`), with what is still to come.

extension AdminJSON {
    /// `{"kind", "summary", "rule", "index", "copy_of": {"webhook", "attempt"}, "delay", "after_webhook"}`.
    static func chaos(_ mark: ChaosMark?, of notification: StatusNotification) -> JSON {
        guard let mark else { return .null }
        return [
            "kind": .string(mark.kind.rawValue), "summary": .string(mark.summary),
            "rule": optional(mark.rule?.name), "index": optional(mark.rule?.index),
            "copy_of": mark.kind.isCopy ? ["webhook": .number(notification.id), "attempt": optional(mark.copyOf)] : .null,
            "delay": optional(mark.delay.map(DurationText.format)), "after_webhook": optional(mark.after),
        ]
    }

    /// `{"shift": {...} | null, "copies": [{"kind", "after", "rule", "index", "state", "due_at", "after_webhook"}]}`, or null.
    static func chaosPlan(_ plan: ChaosPlan?) -> JSON {
        guard let plan else { return .null }
        var shift = JSON.null
        if let moved = plan.shift {
            let (kind, delay): (ChaosKind, Duration) = switch moved {
            case .delay(let delay): (.delayed, delay)
            case .hold(let atMost): (.outOfOrder, atMost)
            }
            shift = ["kind": .string(kind.rawValue), "delay": .string(DurationText.format(delay)), "rule": optional(plan.shiftRule?.name),
                     "index": optional(plan.shiftRule?.index), "released_by": optional(plan.releasedBy)]
        }
        return [
            "shift": shift,
            "copies": .array(plan.copies.map { copy in
                let (state, due): (String, VirtualTime?) = switch copy.progress {
                case .waiting: ("waiting", nil)
                case .due(let at): ("due", at)
                case .sent: ("sent", nil)
                }
                return ["kind": .string(copy.kind.rawValue), "after": .string(DurationText.format(copy.after)), "rule": optional(copy.rule.name),
                        "index": .number(copy.rule.index), "state": .string(state), "due_at": optional(due?.iso8601),
                        "after_webhook": optional(copy.setOffBy)]
            }),
        ]
    }
}
