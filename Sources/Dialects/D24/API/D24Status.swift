import SandboxBank
import SandboxSupport

// Status codes and descriptions of D24's Cashouts docs (docs.d24.com), "Status flow", and the D24 guide: 0 Pending, 1 Completed,
// 2 Canceled, 3 Rejected, 4 Delivered, 5 On Hold. A payout returned after completion is REJECTED.

/// The D24 view of a payout's status.
enum D24Status {
    static func code(_ status: PayoutStatus) -> Int {
        switch status {
        case .pending, .staged, .awaitingDetails: 0
        case .completed: 1
        case .cancelled, .expired: 2
        case .rejected, .returned: 3
        case .delivered: 4
        case .onHold: 5
        }
    }

    static func description(_ status: PayoutStatus) -> String {
        switch status {
        case .pending, .staged, .awaitingDetails: "Pending"
        case .completed: "Completed"
        case .cancelled, .expired: "Canceled"
        case .rejected, .returned: "Rejected"
        case .delivered: "Delivered"
        case .onHold: "On Hold"
        }
    }

    /// The status names `PUT /v3/cashout/status` knows: PENDING and ON_HOLD are accepted, the
    /// others are known but not allowed there (510), anything else is unknown (521).
    /// D24's words are the sandbox's own (`PayoutStatus.names`), and CANCELED, the description's
    /// spelling, too.
    static func status(named name: String) -> PayoutStatus? {
        name == "CANCELED" ? .cancelled : PayoutStatus(name: name)
    }

    /// The code and reason D24 answers for a rejection: one without a code is 808 (its "API Codes"
    /// page: ERROR_OTHER), a code without a reason is given its name.
    static func rejection(code: String?, reason: String?) -> (code: String, reason: String) {
        let number = code.flatMap { Int($0) } ?? 808
        return (code ?? String(number), reason ?? D24RejectionCodes.name(number))
    }

    /// `{"cashout_status":1,"cashout_status_description":"Completed"}`, plus `rejection_code`
    /// and `rejection_reason` when rejected and `bank_reference_id` when the bank set one.
    static func body(_ payout: Payout) -> JSON {
        var body: [String: JSON] = [
            "cashout_status": .number(code(payout.status)),
            "cashout_status_description": .string(description(payout.status)),
        ]
        if payout.status == .rejected || payout.status == .returned {
            let (code, reason) = rejection(code: payout.reasonCode, reason: payout.reason)
            body["rejection_code"] = Int(code).map { .number($0) } ?? .string(code)
            body["rejection_reason"] = .string(reason)
        }
        if let reference = payout.bankReference { body["bank_reference_id"] = .string(reference) }
        return .object(body)
    }
}

/// Rejection codes of D24's "API Codes" page.
enum D24RejectionCodes {
    static let names: [Int: String] = [
        800: "ERROR_ACCOUNT_INCORRECT", 801: "ERROR_ACCOUNT_CLOSED", 802: "ERROR_AMOUNT_INCORRECT", 803: "ERROR_BANK_INVALID",
        804: "ERROR_BANK_BRANCH_INCORRECT", 805: "ERROR_BENEFICIARY_DOCUMENT_ID_INVALID", 806: "ERROR_BENEFICIARY_NAME_INCORRECT",
        807: "ERROR_REJECTED_BY_BANK", 808: "ERROR_OTHER", 809: "WITHDRAWAL_EXPIRED", 810: "LIMIT_EXCEEDED", 811: "RISK_POLICY",
        812: "BLOCKED_FROZEN_ACCOUNT", 813: "DOCUMENT_ACCOUNT_MISMATCH", 814: "INVALID_PIX_KEY", 815: "INVALID_IFSC_CODE",
        816: "INVALID_ACCOUNT_OR_IFSC_CODE", 817: "INVALID_NBIN", 818: "ACCOUNT_UNABLE", 819: "INVALID_ACCOUNT_TYPE",
        820: "REJECTED_BY_MERCHANT_REQUEST", 821: "MONTHLY_LIMIT_EXCEEDED_FOR_USER", 822: "ACCOUNT_NAME_REQUIRED_TO_BE_IN_KATAKANA",
        824: "REJECTED_BY_THIRD_PARTY_CONTROL", 826: "WITHDRAWAL_REVERSED",
    ]

    /// The rejection's name, e.g. `ERROR_ACCOUNT_CLOSED` for 801; `ERROR_OTHER` for unknown codes.
    package static func name(_ code: Int) -> String { names[code] ?? "ERROR_OTHER" }
}
