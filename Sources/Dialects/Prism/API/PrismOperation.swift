import SandboxContract

/// PayoutService's operations, each declared once: its eight unary methods of `types.PayoutService`
/// (Protos/payouts.proto, the PayoutService guide), and the page a CreateLink payout's recipient
/// opens and sends. `PrismAPI` handles each method, `PrismDocs` describes it as Connect JSON, the
/// steps, the dashboard and Postman call it by it, the report and faults read its role.
enum PrismOperation {
    static let create = method("Create", "prismCreate", role: .create)
    static let get = method("Get", "prismGet", role: .statusQuery)
    static let void = method("Void", "prismVoid", role: .update)
    static let stage = method("Stage", "prismStage", role: .prepare)
    static let transfer = method("Transfer", "prismTransfer", role: .create)
    static let createLink = method("CreateLink", "prismCreateLink", role: .prepare)
    static let createRecipient = method("CreateRecipient", "prismCreateRecipient", role: .reference)
    static let enrollDisburseAccount = method("EnrollDisburseAccount", "prismEnrollDisburseAccount", role: .reference)

    /// The gRPC methods, in the order the document lists them.
    static let methods = [create, get, void, stage, transfer, createLink, createRecipient, enrollDisburseAccount]

    static let openLink = APIOperation("prismOpenPayoutLink", .http("GET", PrismLinks.path + "{token}"), role: .reference)
    static let submitLink = APIOperation("prismSubmitPayoutLink", .http("POST", PrismLinks.path + "{token}"), role: .reference)

    static let all = methods + [openLink, submitLink]

    private static func method(_ name: String, _ id: String, role: APIOperation.Role) -> APIOperation {
        APIOperation(id, .grpc(service: PrismProtos.serviceName, method: name), role: role)
    }
}
