// What the loader reads from the declarations: each object's keys (those it allows, in the order
// its messages list them) and each whole number's range. A key declared in `ScenarioFormat` is
// one the loader takes, and the other way round.

extension ScenarioFormat {
    enum Keys {
        /// A vocabulary of no dialect: the declarations' own keys, without what dialects add.
        private static let none = ScenarioVocabulary()

        static let bank = topBank.keys
        static let clock = topClock.keys
        static let report = topReport.keys
        static let statusPolling = topReport.property("status_polling")!.keys
        static let app = topApp.keys
        static let explore = topExplore.keys
        static let delayRange = ScenarioFormat.delayRange.keys
        static let limits = ScenarioFormat.limits.keys
        static let rule = ScenarioFormat.rule(none).keys
        static let weightedOutcome = ScenarioFormat.weightedOutcome.keys
        static let decline = ScenarioFormat.decline(none).keys
        static let timelineStep = ScenarioFormat.timelineStep(none).keys
        static let fault = ScenarioFormat.fault.keys
        static let faultWhen = ScenarioFormat.fault.property("when")!.keys
        /// A fault's kinds, in the order messages list them.
        static let faultKinds = ScenarioFormat.fault.property("kind")!.enumStrings
        static let webhooks = ScenarioFormat.webhooks.keys
        static let sink = ScenarioFormat.webhooks.property("sinks")!.spec("additionalProperties")!.keys
        static let chaosRule = ScenarioFormat.chaosRule(none).keys
        static let expectDeliveries = ScenarioFormat.expectDeliveries.keys
        static let expectSink = ScenarioFormat.expectSink.keys
        static let createCashouts = ScenarioFormat.createCashouts.keys
        static let expectCashout = ScenarioFormat.expectCashout.keys
        static let expectWebhooks = ScenarioFormat.expectWebhooks.keys
        static let waitForRequest = ScenarioFormat.waitForRequest.keys
        static let expectReport = ScenarioFormat.expectReport(none).keys
        static let expectReconciled = coreActions.first { $0.0 == "expect_reconciled" }!.1.keys
        static let expectLedger = ScenarioFormat.expectLedger.keys
        static let request = ScenarioFormat.request.keys
        static let expectation = ScenarioFormat.expectation.keys
        static let expectRequests = ScenarioFormat.expectRequests.keys
        static let requestCount = ScenarioFormat.expectRequests.property("count")!.keys
        static let requestPattern = ScenarioFormat.requestPattern.keys
        /// A step's actions (the dialects add theirs), and the keys that may come with one.
        static let actions = coreActions.map(\.0)
        static let stepExtras = stepProperties.map(\.0).filter { !actions.contains($0) }
    }

    /// The ranges of whole numbers the loader takes.
    enum Ranges {
        static let weight = weightedOutcome.property("weight")!.range
        static let faultEvery = fault.property("every")!.range
        static let faultTimes = fault.property("times")!.range
        static let chaosEvery = chaosRule(ScenarioVocabulary()).property("every")!.range
        static let sinkAnswer = webhooks.property("sinks")!.spec("additionalProperties")!.property("answers")!.spec("items")!.range
        static let deliveries = expectDeliveries.property("count")!.range
        static let sinkCount = expectSink.property("received")!.range
        static let webhookCount = expectWebhooks.property("count")!.range
        static let webhookAttempts = expectWebhooks.property("attempts")!.range
        static let createCount = createCashouts.property("count")!.range
        static let ledgerCount = expectLedger.property("count")!.range
        static let expectedStatus = expectation.property("status")!.range
        static let occurrence = wholeOccurrence.range
    }
}
