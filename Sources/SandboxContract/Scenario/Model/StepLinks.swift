/// What a step names besides its action (the Scenario files guide, "Cases"): the case it belongs
/// to, the payout or values it gives later steps, and those of earlier steps it uses. A run groups
/// its steps into cases by them, and skips a step that uses what an earlier step could not give.
package struct StepLinks: Sendable, Equatable {
    /// The step's `case`, as written: the case it belongs to, and with it the payout it names.
    package var caseName: String?
    /// The payout its `as` names (a create's, a wait's, a dialect step's that makes one).
    package var payout: String?
    /// The values it gives later steps: its `save` names, or the `as` of a step that names a value
    /// (Mannco's login: its JWT).
    package var values: [String] = []
    /// The payouts of earlier steps it names (`ref`, `{{NAME.cashout_id}}`), in the order it names them.
    package var payoutsUsed: [String] = []
    /// The values of earlier steps it uses (`{{NAME}}`).
    package var valuesUsed: [String] = []

    init(caseName: String? = nil, payout: String? = nil, values: [String] = [], payoutsUsed: [String] = [],
                 valuesUsed: [String] = []) {
        self.caseName = caseName
        self.payout = payout
        self.values = values
        self.payoutsUsed = payoutsUsed
        self.valuesUsed = valuesUsed
    }
}
