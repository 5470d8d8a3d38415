@testable import CashoutSandbox
@testable import SandboxContract
import Testing

private func error(_ text: String) -> String? {
    do {
        _ = try ScenarioLoader.load(Array(text.utf8), file: "r.json", vocabulary: Sandbox.standardVocabulary)
        return nil
    } catch {
        return error.description
    }
}

private func rule(_ when: String, code: String) -> String {
    #"{"bank": {"rules": [{"when": \#(when), "then": [{"after": "1m", "status": "REJECTED", "rejection_code": \#(code)}]}]}}"#
}

/// With the three APIs, a rule's rejection code must be one that an API the rule can reach
/// answers: D24 the codes of its list, Mannco and PayoutService a word code. A rule reaches the
/// APIs its `dialect` names whose payouts have every field its `when` tests.
@Suite struct ScenarioRejectionCodeTests {
    @Test(arguments: [
        (#"{"country": "BR"}"#, "801"),                                     // D24's field, D24's code
        (#"{"amount": {"gte": 100}}"#, "826"),                              // every API: D24 answers it
        (#"{"amount": {"gte": 100}}"#, #""payee_rejected""#),               // every API: Mannco and PayoutService answer it
        (#"{"dialect": "mannco"}"#, #""payment_returned""#),
        (#"{"dialect": "prism", "method": "card"}"#, #""R01""#),
        (#"{"dialect": {"in": ["d24", "prism"]}}"#, #""insufficient_funds""#),
        (#"{"email": {"prefix": "fail@"}}"#, #""payee_rejected""#),        // Mannco's field
    ])
    func aCodeThatAnAPITheRuleReachesAnswersLoads(when: String, code: String) {
        #expect(error(rule(when, code: code)) == nil)
    }

    @Test(arguments: [
        (#"{"country": "BR"}"#, #""payee_rejected""#,
         #"r.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of "#
         + #"its list, 800 to 826), got "payee_rejected""#),
        (#"{"dialect": "d24"}"#, "12345",
         "r.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of its "
         + "list, 800 to 826), got 12345; nearest: 826 (WITHDRAWAL_REVERSED), 824 (REJECTED_BY_THIRD_PARTY_CONTROL), 822 "
         + "(ACCOUNT_NAME_REQUIRED_TO_BE_IN_KATAKANA)"),
        (#"{"dialect": "mannco"}"#, "801",
         "r.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (mannco: a word code such as "
         + "payee_rejected or R01: a letter, then letters, digits or _), got 801"),
        (#"{"amount": {"gte": 1}}"#, #""eight-oh-one""#,
         #"r.json: bank.rules[0].then[0].rejection_code: expected a rejection code that an API it reaches answers (d24: one of the 25 codes of its "#
         + #"list, 800 to 826; mannco and prism: a word code such as payee_rejected or R01: a letter, then letters, digits or _), got "#
         + #""eight-oh-one""#),
        (#"{"amount": {"gte": 1}}"#, "12345",
         "r.json: bank.rules[0].then[0].rejection_code: expected a rejection code that an API it reaches answers (d24: one of the 25 codes of its "
         + "list, 800 to 826; mannco and prism: a word code such as payee_rejected or R01: a letter, then letters, digits or _), got 12345; "
         + "nearest: 826 (WITHDRAWAL_REVERSED), 824 (REJECTED_BY_THIRD_PARTY_CONTROL), 822 (ACCOUNT_NAME_REQUIRED_TO_BE_IN_KATAKANA)"),
    ])
    func aCodeNoAPITheRuleReachesAnswersIsRefused(when: String, code: String, message: String) {
        #expect(error(rule(when, code: code)) == message)
    }

    /// The default timeline reaches every API.
    @Test func theDefaultTimelineTakesACodeOfAnyAPI() {
        let timeline = { (code: String) in #"{"bank": {"default": [{"after": "1m", "status": "REJECTED", "rejection_code": \#(code)}]}}"# }
        #expect(error(timeline("807")) == nil)
        #expect(error(timeline(#""payout_rejected""#)) == nil)
        #expect(error(timeline(#""807-x""#))?.hasPrefix("r.json: bank.default[0].rejection_code: expected a rejection code that an API it reaches "
                                                        + "answers") == true)
    }
}
