import Testing
@testable import SandboxPrism
@testable import SandboxWire

// PrismProtos against the facts of Prism's protos at 76c9327 (prism-payout-messages.md).

@Suite struct PrismSchemaTests {
    let registry = ProtoRegistry(PrismProtos.files)

    private func field(_ message: String, _ name: String) throws -> FieldSchema {
        try #require(registry.messageSchema("types.\(message)")?.field(named: name), "\(message).\(name)")
    }

    @Test func everyTypeNameResolvesWithinTheFileOrItsImports() throws {
        #expect(PrismProtos.files.map(\.name) == ["services.proto", "payouts.proto", "payment.proto", "payment_methods.proto"])
        #expect(PrismProtos.files.allSatisfy { $0.package == "types" })
        func defined(in file: ProtoFile) -> Set<String> {
            func all(_ message: MessageSchema) -> [String] {
                [message.fullName] + message.enums.map(\.fullName) + message.messages.flatMap(all)
            }
            return Set(file.messages.flatMap(all) + file.enums.map(\.fullName))
        }
        var messageCount = 0
        for file in PrismProtos.files {
            // protoc's rule: a file sees its own types and those of the files it imports directly.
            let visible = file.dependencies.reduce(defined(in: file)) { names, dependency in
                names.union(registry.file(named: dependency).map(defined) ?? [])
            }
            for message in file.messages {
                func check(_ message: MessageSchema) {
                    messageCount += 1
                    for field in message.fields {
                        guard let name = field.type.typeName else { continue }
                        #expect(visible.contains(name), "\(file.name): \(message.fullName).\(field.name) names \(name)")
                        if case .message = field.type { #expect(registry.messageSchema(name) != nil, "\(name)") }
                        if case .enumeration = field.type { #expect(registry.enumSchema(name) != nil, "\(name)") }
                    }
                    message.messages.forEach(check)
                }
                check(message)
            }
            for method in file.services.flatMap(\.methods) {
                #expect(visible.contains(method.input) && visible.contains(method.output), "\(method.name)")
            }
            // Every import is used (protoc warns about one that is not).
            for dependency in file.dependencies {
                let theirs = registry.file(named: dependency).map(defined) ?? []
                let used = file.messages.flatMap(\.fields).compactMap(\.type.typeName)
                    + file.services.flatMap(\.methods).flatMap { [$0.input, $0.output] }
                #expect(used.contains(where: theirs.contains), "\(file.name) imports \(dependency) without using it")
            }
        }
        #expect(messageCount == 41)  // the facts' 40 messages and PayoutEnums, which holds three of the enums
        #expect(registry.file(containingSymbol: "types.PayoutService")?.name == "services.proto")
        #expect(registry.file(containingSymbol: "types.PayoutEnums.PENDING")?.name == "payouts.proto")
        #expect(registry.file(containingSymbol: "types.Absa")?.name == "payment_methods.proto")
        #expect(registry.file(containingSymbol: "types.Money.minor_amount")?.name == "payment.proto")
    }

    /// A start routes PayoutService from its services read alone; a call reads the rest.
    @Test func theServicesReadAloneAreTheFilesServices() {
        let alone = PrismProtos.services.map { service in
            [service.fullName] + service.methods.map { "\($0.name)(\($0.input)) \($0.output) \($0.isUnary)" }
        }
        let whole = PrismProtos.files.flatMap(\.services).map { service in
            [service.fullName] + service.methods.map { "\($0.name)(\($0.input)) \($0.output) \($0.isUnary)" }
        }
        #expect(alone == whole)
        #expect(PrismDialect().grpcServices.map(\.fullName) == [PrismProtos.serviceName])
    }

    @Test func theServiceHasTheEightUnaryMethods() throws {
        let service = try #require(registry.service(PrismProtos.serviceName))
        #expect(service.fullName == "types.PayoutService")
        let names = ["Create", "Transfer", "Get", "Void", "Stage", "CreateLink", "CreateRecipient", "EnrollDisburseAccount"]
        #expect(service.methods.map(\.name) == names)
        for method in service.methods {
            #expect(method.input == "types.PayoutService\(method.name)Request")
            #expect(method.output == "types.PayoutService\(method.name)Response")
            #expect(method.isUnary)
        }
    }

    @Test func oneofMembersOfPayoutMethod() throws {
        let method = try #require(registry.messageSchema("types.PayoutMethod"))
        #expect(method.oneofs == ["payout_method_data"])
        #expect(method.fields.map(\.name) == ["card", "ach", "bacs", "sepa", "pix", "apple_pay_decrypt", "paypal", "venmo", "interac",
                                              "open_banking_uk", "passthrough"])
        #expect(method.fields.map(\.number) == Array(1 ... 11))
        #expect(method.fields.allSatisfy { $0.oneof == "payout_method_data" && $0.label == .singular })
        let sepa = try field("PayoutMethod", "sepa")
        #expect(sepa.type == .message("types.SepaBankTransferPayout"))
        #expect(try field("PayoutMethod", "open_banking_uk").number == 10)
    }

    @Test func optionalAndPlainFieldsWithTheirNumbers() throws {
        let id = try field("PayoutServiceCreateRequest", "merchant_payout_id")
        #expect(id.number == 1 && id.type == .string && id.label == .optional && id.jsonName == "merchantPayoutId")
        let amount = try field("PayoutServiceCreateRequest", "amount")
        #expect(amount.number == 7 && amount.type == .message("types.Money") && amount.label == .singular)
        #expect(try field("PayoutServiceTransferRequest", "amount").number == 5)
        #expect(try field("PayoutServiceStageRequest", "merchant_quote_id").label == .optional)
        #expect(try field("PayoutServiceCreateRecipientRequest", "recipient_type").type == .enumeration("types.PayoutEnums.PayoutRecipientType"))
        #expect(try field("PayoutServiceCreateRecipientRequest", "recipient_type").label == .singular)
        #expect(try field("SepaBankTransferPayout", "iban").label == .singular)
        #expect(try field("SepaBankTransferPayout", "bic").label == .optional)
        #expect(try field("Money", "minor_amount").type == .int64)
        #expect(try field("BrowserInformation", "time_zone_offset_minutes").type == .int32)
        #expect(try field("BrowserInformation", "device_model").number == 15)
        #expect(try field("Customer", "phone_number").type == .string)  // a SecretString only in later Prism
        #expect(try field("Address", "country_alpha2_code").type == .enumeration("types.CountryAlpha2"))
        #expect(try field("Passthrough", "token_type").type == .enumeration("types.PaymentMethodType"))
        #expect(try field("IssuerErrorDetails", "network_details").type == .message("types.NetworkErrorDetails"))
        // No field of the payout RPCs is repeated.
        #expect(PrismProtos.files.flatMap(\.messages).flatMap(\.fields).allSatisfy { $0.label != .repeated })
    }

    @Test func everyResponseHasTheSameFiveFields() throws {
        for method in try #require(registry.service("types.PayoutService")).methods {
            let response = try #require(registry.messageSchema(method.output))
            #expect(response.fields.map { "\($0.number) \($0.name) \($0.type.protoName) \($0.label)" } == [
                "1 merchant_payout_id string optional", "2 payout_status types.PayoutEnums.PayoutStatus optional",
                "3 connector_payout_id string optional", "4 error types.ErrorInfo optional", "5 status_code uint32 singular",
            ])
        }
    }

    @Test func nestedAndTopLevelEnums() throws {
        let payoutEnums = try #require(registry.messageSchema("types.PayoutEnums"))
        #expect(payoutEnums.fields.isEmpty)
        #expect(payoutEnums.enums.map(\.name) == ["PayoutStatus", "PayoutRecipientType", "PayoutPriority"])
        let priority = try field("PayoutServiceCreateRequest", "priority")
        #expect(priority.number == 10 && priority.type == .enumeration("types.PayoutEnums.PayoutPriority") && priority.label == .optional)
        let status = try #require(registry.enumSchema("types.PayoutEnums.PayoutStatus"))
        #expect(status.values.count == 14 && status.number(of: "PENDING") == 7 && status.number(of: "REQUIRES_VENDOR_ACCOUNT_CREATION") == 13)
        #expect(registry.enumSchema("types.PayoutEnums.PayoutRecipientType")?.number(of: "PERSONAL") == 7)
        #expect(registry.enumSchema("types.PayoutEnums.PayoutPriority")?.number(of: "INTERNAL") == 6)
        let banks = try #require(registry.enumSchema("types.BankNames"))
        #expect(banks.values.count == 161 && banks.name(of: 46) == nil && banks.name(of: 104) == nil)
        #expect(banks.number(of: "BawagPskAg") == 47 && banks.number(of: "BankiSpbdzielcze") == 105 && banks.number(of: "Absa") == 162)
        let countries = try #require(registry.enumSchema("types.CountryAlpha2"))
        #expect(countries.values.count == 250 && countries.number(of: "US") == 1 && countries.number(of: "DE") == 84
                && countries.number(of: "ZW") == 249)
        let currencies = try #require(registry.enumSchema("types.Currency"))
        #expect(currencies.values.count == 161 && currencies.number(of: "EUR") == 45 && currencies.number(of: "USD") == 146
                && currencies.number(of: "ZWL") == 160)
        let methods = try #require(registry.enumSchema("types.PaymentMethodType"))
        #expect(methods.values.count == 113 && methods.number(of: "SEPA_BANK_TRANSFER") == 74 && methods.number(of: "OPEN_BANKING") == 112)
        let networks = try #require(registry.enumSchema("types.CardNetwork"))
        #expect(networks.values.count == 16 && networks.number(of: "INTERAC_CARD") == 11 && networks.number(of: "NYCE") == 15)
        for schema in [banks, countries, currencies, methods, networks] {
            #expect(schema.values.first?.number == 0 && schema.values.first?.name.hasSuffix("_UNSPECIFIED") == true)
        }
    }
}
