import SandboxContract
// Mannco's magic values: rules on the payout email, tried after every scenario's own rules like D24's
// magic beneficiary names (the Mannco guide, "Magic emails"). Only Mannco cashouts match them.

extension ManncoDialect {
    /// The built-in rules: an email starting `fail@`, `late-fail@`, `stuck@`, `never@`, `slow@` or
    /// `decline@` gives that outcome whatever the method.
    package static let builtInScenarioText = #"""
        {
          "name": "Mannco magic emails",
          "bank": {
            "rules": [
              {"name": "FAIL", "when": {"dialect": "mannco", "email": {"prefix": "fail@"}},
               "then": [{"after": "5s", "status": "PROCESSING"},
                        {"after": "10s", "status": "REJECTED", "rejection_code": "payee_rejected", \#
        "rejection_reason": "The payee account refused the payment"}]},
              {"name": "LATE FAIL", "when": {"dialect": "mannco", "email": {"prefix": "late-fail@"}},
               "then": [{"after": "5s", "status": "PROCESSING"}, {"after": "10s", "status": "COMPLETED"},
                        {"after": "2d", "status": "REJECTED", "rejection_code": "\#(rejectionCodes.lateRejection!)", \#
        "rejection_reason": "The payment was returned after completion"}]},
              {"name": "STUCK", "when": {"dialect": "mannco", "email": {"prefix": "stuck@"}},
               "then": [{"after": "5s", "status": "PROCESSING"}]},
              {"name": "NEVER", "when": {"dialect": "mannco", "email": {"prefix": "never@"}}, "then": []},
              {"name": "SLOW", "when": {"dialect": "mannco", "email": {"prefix": "slow@"}},
               "then": [{"after": "1h", "status": "PROCESSING"}, {"after": "3bd", "status": "COMPLETED"}]},
              {"name": "DECLINE", "when": {"dialect": "mannco", "email": {"prefix": "decline@"}},
               "decline": {"code": 300, "message": "Cashout declined by the payment provider"}}
            ]
          }
        }
        """#
}
