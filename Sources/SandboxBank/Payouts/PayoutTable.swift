/// Payouts by id, each with the bank's plan for it. Ids are handed out in sequence from the
/// first, so a payout's place is its id minus the first: no hashing, and creation order for free.
package struct PayoutTable: Sendable {
    /// The bank's steps for a payout, which generation of them is current, and which step comes
    /// next: a hold, cancel or forced change starts a new generation, and a step that ran moves
    /// `nextStep` on, which leaves the steps already queued for them stale.
    package struct Plan: Sendable {
        package var timeline: [TimelineStep]
        /// What chose `timeline`: its place in `decisions`.
        package var decision: Int32
        /// `generation` and `nextStep`, in 4 bytes each: a plan is 24 bytes, not 32.
        private var generationCount: UInt32
        private var nextStepIndex: UInt32

        init(timeline: [TimelineStep], decision: Int32, generation: Int, nextStep: Int) {
            self.timeline = timeline
            self.decision = decision
            generationCount = UInt32(generation)  // a snapshot's are checked below 2^32
            nextStepIndex = UInt32(nextStep)
        }

        package var generation: Int {
            get { Int(generationCount) }
            set { generationCount = UInt32(newValue) }
        }
        /// The step of this generation that runs next (`timeline.count` once none will).
        var nextStep: Int {
            get { Int(nextStepIndex) }
            set { nextStepIndex = UInt32(newValue) }
        }
    }

    package let firstID: Int
    package private(set) var all = ChunkedArray<Payout>()
    private var plans = ChunkedArray<Plan>()
    /// What chose the plans' timelines, each distinct decision once (a few per rule in force),
    /// so that a plan holds a small number instead of the rule's names.
    package private(set) var decisions: [TimelineDecision] = []
    private var decisionNumbers: [TimelineDecision: Int32] = [:]
    /// The place of the decision numbered last, compared before any hashing: a load of payouts
    /// mostly repeats one rule's.
    private var lastDecision: Int32?

    package init(firstID: Int) {
        self.firstID = firstID
    }

    /// Every payout's plan, in id order.
    package var allPlans: ChunkedArray<Plan> { plans }

    /// The payout with `id`, or nil; setting replaces an existing one.
    package internal(set) subscript(id: Int) -> Payout? {
        get {
            let index = id - firstID
            return all.indices.contains(index) ? all[index] : nil
        }
        set {
            let index = id - firstID
            guard let newValue, all.indices.contains(index) else { return }
            all[index] = newValue
        }
    }

    /// The status of the payout with `id` (read in place), or nil.
    func status(_ id: Int) -> PayoutStatus? {
        let index = id - firstID
        return all.indices.contains(index) ? all[index].status : nil
    }

    /// The reference of the payout with `id` (read in place), or nil.
    func reference(_ id: Int) -> String? {
        let index = id - firstID
        return all.indices.contains(index) ? all[index].reference : nil
    }

    /// Changes the payout with `id` in place (no copy of it or its history); nil if there is none.
    mutating func modify<Result, Failure: Error>(_ id: Int, _ body: (inout Payout) throws(Failure) -> Result) throws(Failure) -> Result? {
        let index = id - firstID
        guard all.indices.contains(index) else { return nil }
        return try body(&all[index])
    }

    /// The id the next payout gets.
    package var nextID: Int { firstID + all.count }

    /// Adds the next payout and its timeline; its id must be the next in sequence.
    package mutating func append(_ payout: Payout, timeline: DecidedTimeline, generation: Int = 0, nextStep: Int = 0) {
        precondition(payout.id == nextID, "payout ids are handed out in sequence")
        all.append(payout)
        plans.append(Plan(timeline: timeline.steps, decision: number(of: timeline.decision), generation: generation, nextStep: nextStep))
    }

    /// `decision`'s place in `decisions`, added the first time it is seen.
    private mutating func number(of decision: TimelineDecision) -> Int32 {
        if let last = lastDecision, decisions[Int(last)] == decision { return last }
        let number = decisionNumbers[decision] ?? {
            decisions.append(decision)
            decisionNumbers[decision] = Int32(decisions.count - 1)
            return Int32(decisions.count - 1)
        }()
        lastDecision = number
        return number
    }

    /// What chose the timeline of the payout with `id`, or nil.
    func decision(_ id: Int) -> TimelineDecision? {
        plan(id).map { decisions[Int($0.decision)] }
    }

    /// The generation and next step of the payout with `id`'s plan (read in place), or nil.
    func progress(_ id: Int) -> (generation: Int, nextStep: Int)? {
        let index = id - firstID
        return plans.indices.contains(index) ? (plans[index].generation, plans[index].nextStep) : nil
    }

    /// The plan of the payout with `id`, or nil.
    package func plan(_ id: Int) -> Plan? {
        let index = id - firstID
        return plans.indices.contains(index) ? plans[index] : nil
    }

    /// Makes the queued steps of a payout stale; its timeline starts again from the first step.
    mutating func startNewGeneration(_ id: Int) {
        let index = id - firstID
        guard plans.indices.contains(index) else { return }
        plans[index].generation += 1
        plans[index].nextStep = 0
    }

    /// Replaces a payout's timeline (before it started).
    mutating func setTimeline(_ id: Int, _ timeline: DecidedTimeline) {
        let index = id - firstID
        guard plans.indices.contains(index) else { return }
        plans[index].timeline = timeline.steps
        plans[index].decision = number(of: timeline.decision)
    }

    /// Records which step of a payout's timeline runs next.
    package mutating func setNextStep(_ id: Int, _ step: Int) {
        let index = id - firstID
        if plans.indices.contains(index) { plans[index].nextStep = step }
    }
}
