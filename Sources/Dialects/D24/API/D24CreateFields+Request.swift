import SandboxBank
import SandboxD24Rules

extension D24CreateFields {
    /// The create request's fields as text, checked for JSON type in the documented field order:
    /// the first field that is neither a string nor a number is refused with 300.
    init(_ request: D24SignedRequest) throws(D24Error) {
        func text(_ field: D24Field) throws(D24Error) -> String? {
            try request.text(field.jsonKey, field.messageName, field.label)
        }
        self.init(
            externalID: try text(.externalID), country: try text(.country), currency: try text(.currency),
            amount: try text(.amount), documentID: try text(.documentID), documentType: try text(.documentType),
            beneficiaryID: try text(.beneficiaryID), beneficiaryName: try text(.beneficiaryName),
            beneficiaryLastname: try text(.beneficiaryLastname), email: try text(.email), phone: try text(.phone),
            bankCode: try text(.bankCode), bankAccount: try text(.bankAccount), bankBranch: try text(.bankBranch),
            accountType: try text(.accountType), address: try text(.address), city: try text(.city),
            postalCode: try text(.postalCode), beneficiaryBirthdate: try text(.beneficiaryBirthdate),
            notificationURL: try text(.notificationURL), comments: try text(.comments))
    }

    /// The fields that were sent, by wire name.
    var wireFields: Fields {
        Fields(D24Field.allCases.compactMap { field in self[field].map { (field.jsonKey, $0) } })
    }
}
