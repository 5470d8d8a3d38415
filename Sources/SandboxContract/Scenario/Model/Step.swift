package import SandboxBank
package import SandboxSupport

/// One step of a scenario that is a test (the Scenario files guide, "Steps").
package enum Step: Sendable {
    /// A raw HTTP request; `body` is sent byte for byte, `json` serialised. Strings may hold
    /// `{{base_url}}` and `{{REF.cashout_id}}` / `{{REF.external_id}}`.
    case request(Request, expect: Expectation?, save: [String: String])
    /// A signed create for `merchant` (default: the default merchant), named `as` for later steps.
    case createCashout(fields: [String: JSON], merchant: String?, name: String?, expect: Expectation?)
    /// `count` signed creates with the same fields (external ids `PREFIX-1`...), through the
    /// sandbox's own handler in-process: for load scenarios. Each must succeed.
    case createCashouts(count: Int, fields: [String: JSON], merchant: String?, prefix: String)
    case advance(Duration)
    case advanceToNextEvent
    /// Waits (in real time, at most the run's quiet limit) until the app under test has made no
    /// request and been sent no notification for this long: what it does in the background after
    /// answering is then done before the next step.
    case settle(Duration)
    case expectCashout(ref: String, status: Matcher?, reasonCode: String?, bankReference: String?, decidedBy: DecidedByExpectation? = nil)
    case expectWebhooks(ref: String?, count: Int?, statuses: [String]?, fields: [String: String], attempts: Int?)
    /// The balance of an account (any API's by its id, a merchant's or a user's: `named` says
    /// which key the file used) by currency; `cents` is the balance in hundredths of the
    /// account's own currency, as Mannco states a user's.
    case expectBalance(account: String, named: BalanceAccount, amounts: [String: Money])
    case expectLedger(merchant: String, count: Int)
    /// The delivery attempts of `ref`'s notifications (all cashouts' without it), of one chaos
    /// kind or `none`: how many, and what the receiver answered to each.
    case expectDeliveries(DeliveriesExpectation)
    /// What a built-in sink did with the notifications it received (`SinkScript`).
    case expectSink(SinkExpectation)
    /// A request verification over the request log (`RequestVerification`), as
    /// `POST /sandbox/requests/verify` takes it: the JSON as written (checked when the file was
    /// loaded), read again once its templates are filled in.
    case expectRequests(JSON)
    /// Waits (in real time, at most `timeout`) for a request matching `request` (a request
    /// pattern as `expect_requests` takes it) that no earlier `wait_for_request` took, made by the
    /// app under test; `as` names the cashout that request created for later steps; `status`, the
    /// answer it must have had (`expect`), which may be a refusal.
    case waitForRequest(request: JSON, timeout: Duration, name: String?, status: Int? = nil)
    /// The integration report (of `account`, or of every account): no finding of severity
    /// error, or exactly these findings' ids.
    case expectReport(ReportExpectation)
    /// The app's ledger (at `ledger`, else the file's `app.ledger`) reconciled with the bank's
    /// payouts (of `account` alone when given): no mismatch.
    case expectReconciled(account: String?, ledger: String?)
    /// A step of one dialect's own vocabulary (`ScenarioVocabulary.stepActions`), which that
    /// dialect performs.
    case dialect(DialectStep)

    /// How `expect_balance` names its account: any API's account by its id (`account`, as
    /// `/sandbox/accounts/{dialect}` lists it), or by today's spellings, a merchant's login or a
    /// user's id (each also any account's id).
    package enum BalanceAccount: String, Sendable, CaseIterable {
        case account, merchant, user
    }

    package struct Request: Sendable {
        package var method: String
        package var path: String
        package var headers: [(name: String, value: String)]
        package var body: String?
        package var json: JSON?
    }

    /// A step a dialect adds: its action, its body as the file wrote it (checked by the dialect
    /// when the file was loaded), and the `expect` and `as` it may carry.
    package struct DialectStep: Sendable {
        package var action: String
        package var body: JSON
        package var expect: Expectation?
        /// The step's `as`: the name its result gets for later steps.
        package var name: String?
        /// The step's `expect` as written, when its action reads its own kind
        /// (`ScenarioVocabulary.expectChecks`); `expect` is then nil.
        package var ownExpect: JSON?

        package init(action: String, body: JSON, expect: Expectation? = nil, name: String? = nil, ownExpect: JSON? = nil) {
            self.action = action
            self.body = body
            self.expect = expect
            self.name = name
            self.ownExpect = ownExpect
        }
    }

    /// `expect_deliveries`: the deliveries that pass the filters, and what must hold of them.
    package struct DeliveriesExpectation: Sendable {
        package var ref: String?
        /// A chaos kind; `none`: plain attempts and retries (no chaos); nil: every delivery.
        package var chaos: String?
        /// The notifications' status (a name or an API's word), or nil for every one.
        package var status: String?
        package var count: Int?
        /// What every one of them was answered.
        package var answered: AnswerMatcher?
    }

    /// `expect_sink`: the requests a sink received (about `ref`'s cashout, of `status`), and how
    /// many of them it processed, ignored as duplicates, refused or failed.
    package struct SinkExpectation: Sendable {
        package var name: String
        package var ref: String?
        package var status: String?
        package var received: Int?
        package var processed: Int?
        package var duplicates: Int?
        package var refused: Int?
        package var failed: Int?
    }

    /// `expect_report`: what the integration report must say.
    package struct ReportExpectation: Sendable {
        package var account: String?
        /// No finding of severity `error` (warnings allowed).
        package var noErrors: Bool
        /// Exactly these findings, by id (in any order).
        package var findings: [String]?
        /// These checks exercised (failed or passed, not `not_exercised`).
        package var exercised: Exercised?

        package enum Exercised: Sendable, Equatable {
            /// Every check of the account's API; with no `account`, every check of the reported
            /// accounts' APIs, each exercised by one of them at least.
            case all
            /// These, by id; with no `account`, each exercised by one reported account at least.
            case checks([String])
        }
    }

    /// What a response must look like.
    package struct Expectation: Sendable {
        package var status: Int?
        /// The whole body equals this.
        package var json: JSON?
        /// These keys equal, nested the same way; others may be there too.
        package var jsonContains: JSON?
        /// The connection closed without an answer.
        package var noResponse: Bool

        package init(status: Int? = nil, json: JSON? = nil, jsonContains: JSON? = nil, noResponse: Bool = false) {
            self.status = status
            self.json = json
            self.jsonContains = jsonContains
            self.noResponse = noResponse
        }
    }
}
