import SandboxBank
import SandboxContract
import SandboxSupport

// Mannco's part of the scenario format (scenarios/schema.json, `cashout-sandbox schema`): its
// users, its steps (`ManncoSteps`), the fields its rules test, its declines and status words.

extension ManncoDialect {
    static let scenarioFormat = ScenarioVocabulary.Format(
        definitions: [("user", userFormat), ("userID", userIDFormat), ("login", loginFormat), ("processCashout", processCashoutFormat),
                      ("link", linkFormat), ("expectEmails", expectEmailsFormat), ("manncoStatus", statusFormat),
                      ("manncoDecline", declineFormat)],
        ruleFields: [
            (ManncoCashout.Field.user, "Mannco: matches the user's id (e.g. \"76561198000000001\")."),
            (ManncoCashout.Field.method, "Mannco: matches the cashout's method, payoneer or tipalti."),
            (ManncoCashout.Field.amount, "a Mannco cashout's cents in dollars (100000 cents is \"1000.00\", so it matches {\"gte\": 1000})."),
            (ManncoCashout.Field.email, """
                for Mannco, the cashout's email (the request's, else the user's). Mannco's magic emails (fail@, late-fail@, \
                stuck@, never@, slow@, decline@...) are rules on it.
                """),
        ],
        steps: [
        ("login", .ref("login", """
        Mannco: POST /user/login with a user's API key; saves the JWT as {{NAME}} (as, default jwt).
        """)),
        ("process_cashout", .ref("processCashout", "Mannco: POST /cashout/process as a user (logged in by the step) with these body fields.")),
        ("link", .ref("link", """
        Mannco: POST /cashout/link as a user (logged in by the step), and open the link page it answers.
        """)),
        ("expect_emails", .ref("expectEmails", "Mannco: check the emails sent about cashouts.")),
        ],
        ruleChecks: [ScenarioFormat.declineCheck(dialect: name, checked: false, definition: "manncoDecline",
                                                 "A rule for Mannco only: its decline is Mannco's.")],
        statusWords: statusWords)

    /// Its words for statuses, in lifecycle order (`ManncoCashout.status`).
    static let statusWords = PayoutStatus.allCases.map(ManncoCashout.status).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

    /// The scenario file's `users`.
    static let usersFormat: KeySpec = .array("""
        Mannco users (the user cashouts API); one with the same id as an earlier layer replaces it.
        """, of: .ref("user"))

    static let userFormat: KeySpec = .object("""
        A Mannco user: id, API key, balance in cents, verification, linked payout methods, email. Added to \
        the default user 76561198000000001 (API key sandbox_mannco_key).
        """, [
        ("id", .string("""
            The user's id, a Steam64-style string such as "76561198000000042": the JWT's sub, and how steps \
            (user) and rules (user, merchant) name it.
            """, minLength: 1)),
        ("api_key", .string("What POST /user/login takes as apiKey.", minLength: 1)),
        ("balance", .integer("The starting balance in cents (USD), a whole number from 0 to 2^53 (default 0).", 0 ... 9007199254740992)),
        ("verified", .boolean("false: POST /cashout/process answers \"Account verification required\" (default true).")),
        ("linked", .array("""
            The payout methods linked, in order (default none): cashouts go to payoneer or tipalti; paypal can \
            only be linked.
            """, of: .string(enum: ["payoneer", "tipalti", "paypal"]))),
        ("email", .string("""
            Where the cashout emails go unless a cashout names another address (default user-ID@example.com).
            """, minLength: 1)),
    ], required: ["id", "api_key"])

    static let userIDFormat: KeySpec = .string("""
        A Mannco user's id (absent: the default user 76561198000000001 if the bank has it, else the first \
        Mannco user).
        """, minLength: 1)

    static let loginFormat: KeySpec = .object("""
        Whose API key to log in with: {"user": ID} (that user's key), {"api_key": KEY} (an unknown key \
        answers 403 Invalid API key), or {} (the default user). Not both.
        """, [
        ("user", .ref("userID")),
        ("api_key", .string("The apiKey to send.", minLength: 1)),
    ]).with("not", KeySpec.requiring("user", "api_key"))

    static let processCashoutFormat: KeySpec = .object("""
        The body of POST /cashout/process (sent as JSON as given, so that refusals can be tested), plus \
        user. Without expect, the answer must be 200.
        """, [
        ("user", .ref("userID")),
        ("amount", KeySpec("The amount in cents, a JSON integer (50 USD minimum: 5000).")),
        ("method", KeySpec("payoneer (2 % fee) or tipalti (1.5 % fee).")),
        ("email", KeySpec("""
            Where this cashout's emails go (default: the user's email); magic emails such as fail@example.com \
            choose its fate.
            """)),
    ], closed: false).with("additionalProperties", KeySpec("Another body field, sent as is (the API ignores unknown fields)."))

    static let linkFormat: KeySpec = .object("""
        The body of POST /cashout/link (sent as JSON as given), plus user and open. Payoneer and PayPal \
        answer a link page, which the step opens (unless open is false) to complete the link; Tipalti links \
        at once from its payee fields.
        """, [
        ("user", .ref("userID")),
        ("open", .boolean("""
            false: do not open the link page Payoneer or PayPal answer, so the method stays unlinked (default \
            true).
            """)),
        ("provider", KeySpec("payoneer, paypal or tipalti.")),
        ("payeeType", KeySpec("Tipalti: Individual (default) or Company.")),
        ("firstName", KeySpec("Tipalti, an Individual: required.")),
        ("lastName", KeySpec("Tipalti, an Individual: required.")),
        ("companyName", KeySpec("Tipalti, a Company: required.")),
        ("email", KeySpec("Tipalti: required.")),
        ("address", KeySpec("Tipalti: required, {\"address1\", \"city\", \"postalCode\", \"country\"}.")),
    ], closed: false).with("additionalProperties", KeySpec("Another body field, sent as is."))

    static let expectEmailsFormat: KeySpec = .object("Checks the emails of Mannco cashouts (one per status a cashout enters), oldest first.", [
        ("user", .string("Only this user's cashouts (absent: every user's).")),
        ("ref", .string("Only this cashout (its \"as\" name from process_cashout).")),
        ("count", .integer("The number of emails.", 0 ... 1000000)),
        ("statuses", .array("The Mannco statuses they announce, in order.", of: .ref("manncoStatus"))),
        ("to", .string("The address every one of them went to.")),
    ])

    static let statusFormat: KeySpec = .string("""
        A Mannco cashout status: pending (PENDING, ON_HOLD), processing (DELIVERED, a timeline's \
        PROCESSING), completed (COMPLETED), failed (REJECTED, also after completion) or cancelled \
        (CANCELLED).
        """, enum: statusWords)

    static let declineFormat: KeySpec = KeySpec("""
        A decline of a rule for Mannco only ("dialect": "mannco"): answered with {"err": true, "success": \
        false, "content": message}. Mannco checks nothing more (reason and reason_code are allowed and \
        unused).
        """).with("properties", named: [
        ("code", KeySpec("The HTTP status of the answer: 300, 403, 429 or 500; any other code answers 300.")
            .with("$ref", "#/$defs/text")
            .with("examples", [JSON.number("300"), JSON.number("403"), JSON.number("429"), JSON.number("500")])),
        ("message", .string("The answer's content (default \"Cashout declined\").")),
    ])
}
