// Responses held by a gate (`HTTPResponse.held(by:until:)`: answers that wait for a journal's
// sync). The loop keeps them, as the completions they will be, while it goes on serving; at the
// end of each turn it sends those their gate lets go, and asks the gate to wake it for the first
// of the rest. So a sync that lets many answers go costs each loop one wake-up, and an answer no
// callback, task or thread of its own.
extension EventLoop {
    /// Sends the held responses whose gate lets them go, and asks to be woken for the rest. At
    /// the end of each turn; while a gate is asked, nothing held is let go before it wakes the loop
    /// (but what comes back through the inbox already let go goes at once: see `finish`).
    func releaseHeld() {
        guard !held.isEmpty, !gateAsked else { return }
        swap(&held, &heldLookedAt)  // what `finish` serves next may be held in turn
        var letGo = 0
        for var completion in heldLookedAt {
            guard let released = completion.response.hold!.release(completion.response) else {
                held.append(completion)
                continue
            }
            completion.response = released
            letGo += 1
            finish(completion)
        }
        if letGo > 0 { lastLetGo = letGo }
        heldLookedAt.removeAll(keepingCapacity: true)
        guard let first = held.min(by: { $0.response.hold!.ticket < $1.response.hold!.ticket })?.response.hold else { return }
        gateAsked = true
        let inbox = inbox
        // As many as were let go last time, or held now: about how many clients wait in turn on this loop.
        first.gate.whenLetGo(first.ticket, answers: max(held.count, lastLetGo)) { inbox.gateOpened() }
    }
}
