import SandboxContract
// PayoutService's magic values: rules on the recipient's name (the method's holder name, else the
// customer's name), tried after every scenario's own rules like D24's magic beneficiary names. Only
// PayoutService payouts match them.

extension PrismDialect {
    /// The built-in rules: a recipient name starting `FAIL`, `REVERSE`, `STUCK`, `NEVER`,
    /// `DECLINE` or `INELIGIBLE` gives that outcome whatever the connector and method.
    package static let builtInScenarioText = #"""
        {
          "name": "PayoutService magic recipient names",
          "bank": {
            "rules": [
              {"name": "FAIL", "when": {"dialect": "prism", "recipient_name": {"prefix": "FAIL"}},
               "then": [{"after": "5s", "status": "PROCESSING"},
                        {"after": "10s", "status": "REJECTED", "rejection_code": "account_closed", \#
        "rejection_reason": "The recipient's account is closed"}]},
              {"name": "REVERSE", "when": {"dialect": "prism", "recipient_name": {"prefix": "REVERSE"}},
               "then": [{"after": "5s", "status": "PROCESSING"}, {"after": "10s", "status": "COMPLETED"},
                        {"after": "2d", "status": "REJECTED", "rejection_code": "\#(rejectionCodes.lateRejection!)", \#
        "rejection_reason": "The payout was returned by the recipient's bank"}]},
              {"name": "STUCK", "when": {"dialect": "prism", "recipient_name": {"prefix": "STUCK"}},
               "then": [{"after": "5s", "status": "PROCESSING"}]},
              {"name": "NEVER", "when": {"dialect": "prism", "recipient_name": {"prefix": "NEVER"}}, "then": []},
              {"name": "DECLINE", "when": {"dialect": "prism", "recipient_name": {"prefix": "DECLINE"}},
               "decline": {"code": "card_declined", "message": "The connector declined the payout"}},
              {"name": "INELIGIBLE", "when": {"dialect": "prism", "recipient_name": {"prefix": "INELIGIBLE"}},
               "decline": {"code": "payout_method_ineligible", "message": "The recipient's payout method is not eligible for this payout"}}
            ]
          }
        }
        """#
}
