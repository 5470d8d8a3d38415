// The checks every country gets: D24's Cashouts docs (docs.d24.com): "Cashout Creation Endpoint" (required fields, max
// lengths, account types), "API Codes" (518, 526, 303), "Countries Specifications" (common fields,
// currency list, email regex, document table); and the Behaviour and choices guide (notification_url
// optional, numbers as strings).

/// Per-field checks that apply whatever the country; country rules run after these.
enum D24GenericChecks {
    /// The generic refusal for `field`, or `nil` when it passes.
    static func check(_ field: D24Field, in request: D24Request) -> D24FieldError? {
        if let raw = request.fields[field], let limit = field.maxLength(country: request.country),
           raw.utf8.count > limit, raw.count > limit {  // bytes first: counting characters is slow
            return .invalid(field)
        }
        let value = request.value(field)
        switch field {
        case .externalID, .beneficiaryName:
            return request.require(field)
        case .country:
            guard let value, D24Syntax.isUppercaseLetters(value, count: 2) else { return .invalid(field) }
            return request.currencies == nil ? .countryNotAvailable : nil
        case .amount:
            guard let value, D24Syntax.isAmount(value) else { return .invalid(field) }
        case .currency:
            guard let value else { return nil }
            guard D24Syntax.isUppercaseLetters(value, count: 3) else { return .invalid(field) }
            return request.currencies?.contains(value) == true ? nil : .invalidCurrency
        case .documentID:
            guard let value else { return .invalid(field) }
            if let table = request.documentTypes, !table.accepts(value, declaredType: request.value(.documentType)) {
                return .invalid(field)
            }
        case .documentType:
            guard let table = request.documentTypes else { return nil }
            guard let value else { return table.typeRequired ? .invalid(field) : nil }
            return table.entry(value) == nil ? .invalid(field) : nil
        case .email:
            if let value, !D24Syntax.isEmail(value) { return .invalid(field) }
        case .phone:
            if let value, !D24Syntax.isPhone(value) { return .invalid(field) }
        case .bankCode:
            guard request.has(field) else { return nil }
            guard let code = request.bankCode else { return .invalid(field) }
            if D24Countries.hasBankList(request.country),
               D24Countries.bankName(code: code, in: request.country) == nil {
                return .invalidBankCode
            }
        case .accountType:
            if let value, !["C", "S", "V"].contains(value) { return .invalid(field) }
        case .beneficiaryBirthdate:
            if let value, !D24Syntax.isDate(value) { return .invalid(field) }
        case .notificationURL:
            if let value, !D24Syntax.isHTTPURL(value) { return .invalid(field) }
        case .beneficiaryID, .beneficiaryLastname, .bankAccount, .bankBranch, .address, .city,
             .postalCode, .comments:
            return nil
        }
        return nil
    }
}
