import SandboxContract
import SandboxSupport

// The bodies of the Mannco endpoints: requests as ManncoBody reads them (unknown members are
// ignored, so request schemas are open), answers as ManncoAPI and ManncoLinks write them.

extension OpenAPIDocument {
    static var manncoSchemas: [String: JSON] {
        let methods = ManncoMethod.allCases.map(\.rawValue)
        let method = Schema.oneOf(methods, "The payout method")
        let status = Schema.oneOf(statuses, "`pending` (also while held), `processing`, `completed`, `failed` (refunded) or `cancelled`")
        let message = Schema.string()
        return [
            "ManncoError": Schema.object(["err": ["const": true], "success": ["const": false], "content": Schema.string("The message")],
                                         required: ["err", "success", "content"]),
            "ManncoLoginRequest": Schema.object(["apiKey": Schema.string("The user's API key", example: ManncoDocs.user.apiKey)],
                                                required: ["apiKey"], open: true),
            "ManncoCashoutRequest": Schema.object([
                "amount": cents("At least 5000 ($50), at most 2^53")
                    .merging(["minimum": whole(ManncoProcessRequest.minimumAmount), "maximum": whole(ManncoProcessRequest.maximumAmount)]),
                "method": Schema.oneOf(methods, "Linked first (POST /cashout/link)"),
                "email": Schema.nullable("string", "The payout email, when not the account's: something@something (null or empty: the account's)",
                                         example: .string(ManncoExample.email)),
            ], required: ["amount", "method"], open: true),
            "ManncoCashout": Schema.object([
                "cashoutId": Schema.integer(example: 1_000_001), "amount": cents("Debited from the balance"), "method": method,
                "fee": cents("Withheld from the amount"), "netAmount": cents("What the provider pays: amount - fee"),
                "status": status,
                "estimatedCompletion": Schema.string("Unix seconds: creation plus the method's business days (Payoneer 3, Tipalti 5)",
                                                     example: "1767862800").merging(["pattern": "^[0-9]+$"]),
                "message": message,
            ], required: ["cashoutId", "amount", "method", "fee", "netAmount", "status", "estimatedCompletion", "message"]),
            "ManncoHistory": Schema.object([
                "cashouts": Schema.array(of: Schema.ref("ManncoHistoryRow"), description: "Newest first"),
                "total": Schema.integer("Every cashout of the user"), "page": Schema.integer(), "perpage": Schema.integer(),
                "totalCashedOut": cents("The amounts of the completed cashouts"),
            ], required: ["cashouts", "total", "page", "perpage", "totalCashedOut"]),
            "ManncoHistoryRow": Schema.object([
                "id": Schema.integer(example: 1_000_001), "amount": cents("The amount"), "method": method, "status": status,
                "requestedAt": Schema.integer("Unix seconds"), "completedAt": Schema.nullable("integer", "Unix seconds, while completed"),
                "estimatedCompletionAt": Schema.integer("Unix seconds"),
                "transactionId": Schema.nullable("string", "The provider's reference, once it set one"),
            ], required: ["id", "amount", "method", "status", "requestedAt", "completedAt", "estimatedCompletionAt", "transactionId"]),
            "ManncoLinkRequest": Schema.object(
                linkFields, required: ["provider"], open: true,
                description: "Tipalti needs its payee fields: an individual's names or a company's, email and address."),
            "ManncoLinkCreated": Schema.object([
                "message": message, "link": Schema.string("A page of this sandbox that links the method when opened"),
                "provider": Schema.oneOf(["payoneer", "paypal"]), "method": Schema.oneOf(["link"]),
            ], required: ["message", "link", "provider", "method"]),
            "ManncoTipaltiPayee": Schema.object([
                "message": message, "provider": Schema.oneOf(["tipalti"]),
                "payeeId": Schema.string(example: "payee_\(ManncoDocs.user.id)"),
                "alreadyExists": Schema.boolean("Tipalti was linked before"),
            ], required: ["message", "provider", "payeeId", "alreadyExists"]),
            "ManncoUnlinkRequest": Schema.object(["provider": Schema.oneOf(["payoneer"], "Only Payoneer can be unlinked")],
                                                 required: ["provider"], open: true),
            "ManncoUnlinked": Schema.object(["message": message, "provider": Schema.oneOf(["payoneer"])], required: ["message", "provider"]),
        ]
    }

    /// A cashout's statuses, as the user sees them (ManncoCashout.status).
    static let statuses = ["pending", "processing", "completed", "failed", "cancelled"]

    /// `POST /cashout/link`'s members: the provider, and Tipalti's payee fields (the Mannco guide, "Endpoints").
    private static var linkFields: [String: JSON] {
        let text = Schema.string()
        return [
            "provider": Schema.oneOf(ManncoProvider.allCases.map(\.rawValue)),
            "payeeType": Schema.oneOf(["Individual", "Company"], "Tipalti; Individual when absent"),
            "firstName": Schema.string("Tipalti, an individual"), "lastName": Schema.string("Tipalti, an individual"),
            "companyName": Schema.string("Tipalti, a company"), "email": Schema.string("Tipalti"),
            "address": Schema.object(["address1": text, "address2": text, "city": text, "postalCode": text,
                                      "country": Schema.string("ISO 3166-1 alpha-2", example: "US"), "state": text],
                                     required: ["address1", "city", "postalCode", "country"], open: true,
                                     description: "Tipalti"),
            "phone": text,
            // Tipalti's own: the sandbox reads neither, so any value passes.
            "taxDetails": ["description": "Tipalti: `{\"taxpayerId\", \"taxFormType\"}`; not read by the sandbox"],
            "paymentMethod": ["description": "Tipalti: `{\"paymentMethodName\", \"paymentDetails\"}`; not read by the sandbox"],
        ]
    }
}
