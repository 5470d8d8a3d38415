import SandboxBank
import SandboxWire
import SandboxSupport

// CreateRecipient and EnrollDisburseAccount (the PayoutService guide, "Flows"). Prism's sample flow is
// CreateRecipient → EnrollDisburseAccount → Create. The sandbox
// keeps recipients and enrolled accounts on the merchant's bank account, one setting each
// (`recipient.rcp_000001`, `payout_method.pm_000001`, a small JSON object), so that the journal,
// snapshots and the admin API keep them as they keep every account's settings.

/// A merchant's recipients and their enrolled disburse accounts.
struct PrismRecipients: Sendable {
    let bank: Bank

    /// A recipient as CreateRecipient made it.
    struct Recipient: Equatable {
        var name: String?
        var type: String?
        var method: String?
    }

    /// A disburse account as EnrollDisburseAccount enrolled it: what a Create naming it by
    /// `connector_payout_method_id` pays out to.
    struct DisburseAccount: Equatable {
        /// The method's type (`card`, `sepa`, `ach`...).
        var method: String
        /// The holder's name: the method's, else the recipient's.
        var recipientName: String?
        /// The recipient it belongs to (`customer.connector_customer_id`), when given.
        var recipient: String?
    }

    /// How many recipients, and how many disburse accounts, a merchant keeps: each is journaled
    /// with its whole account, so the sandbox bounds them (`POST /sandbox/reset` starts again).
    static let limit = 1000

    /// The ids' prefixes, and the settings' prefixes that hold them.
    enum Prefix {
        static let recipient = "rcp_", method = "pm_"
        static let recipientSetting = "recipient.", methodSetting = "payout_method."
    }

    /// Adds a recipient to the merchant; its id (`rcp_000001`, counted per merchant).
    func add(_ recipient: Recipient, merchant: String) throws(GRPCStatus) -> String {
        var json: [String: JSON] = [:]
        json["name"] = recipient.name.map(JSON.string)
        json["recipient_type"] = recipient.type.map(JSON.string)
        json["method"] = recipient.method.map(JSON.string)
        return try store(JSON.object(json), prefix: Prefix.recipient, setting: Prefix.recipientSetting, merchant: merchant)
    }

    /// Enrolls a disburse account for the merchant; its id (`pm_000001`, counted per merchant).
    func enroll(_ account: DisburseAccount, merchant: String) throws(GRPCStatus) -> String {
        var json: [String: JSON] = ["method": .string(account.method)]
        json["recipient_name"] = account.recipientName.map(JSON.string)
        json["recipient"] = account.recipient.map(JSON.string)
        return try store(JSON.object(json), prefix: Prefix.method, setting: Prefix.methodSetting, merchant: merchant)
    }

    /// The merchant's recipient `id`, when it made one.
    static func recipient(_ id: String, of merchant: PrismMerchant) -> Recipient? {
        guard let object = object(merchant.account.settings[Prefix.recipientSetting + id]) else { return nil }
        return Recipient(name: object["name"]?.stringValue, type: object["recipient_type"]?.stringValue, method: object["method"]?.stringValue)
    }

    /// The merchant's disburse account `id`, when it enrolled one.
    static func disburseAccount(_ id: String, of merchant: PrismMerchant) -> DisburseAccount? {
        guard let object = object(merchant.account.settings[Prefix.methodSetting + id]), let method = object["method"]?.stringValue else {
            return nil
        }
        return DisburseAccount(method: method, recipientName: object["recipient_name"]?.stringValue, recipient: object["recipient"]?.stringValue)
    }

    /// The merchant's recipients and disburse accounts by id, as the admin API shows them.
    static func all(of merchant: PrismMerchant) -> (recipients: [String: JSON], accounts: [String: JSON]) {
        var recipients: [String: JSON] = [:], accounts: [String: JSON] = [:]
        for setting in merchant.account.settings {
            if setting.name.hasPrefix(Prefix.recipientSetting) {
                recipients[String(setting.name.dropFirst(Prefix.recipientSetting.count))] = object(setting.value).map(JSON.object)
            } else if setting.name.hasPrefix(Prefix.methodSetting) {
                accounts[String(setting.name.dropFirst(Prefix.methodSetting.count))] = object(setting.value).map(JSON.object)
            }
        }
        return (recipients, accounts)
    }

    private static func object(_ text: String?) -> [String: JSON]? {
        text.flatMap { try? JSON.parse(Array($0.utf8)) }?.objectValue
    }

    /// Stores `value` under the next id of `prefix`, in one step under the bank's lock (journaled);
    /// RESOURCE_EXHAUSTED past `limit`.
    private func store(_ value: JSON, prefix: String, setting: String, merchant: String) throws(GRPCStatus) -> String {
        var id = "", full = false
        do throws(Bank.AccountChangeError) {
            _ = try bank.updateAccount(id: merchant, creatingFrom: nil) { account in
                let count = account.settings.count { $0.name.hasPrefix(setting) }
                guard count < Self.limit else {
                    full = true
                    return nil  // unchanged
                }
                let number = String(count + 1)
                id = prefix + String(repeating: "0", count: max(0, 6 - number.count)) + number
                account.settings[setting + id] = value.serializedString()
                return nil
            }
        } catch {
            throw GRPCStatus(.unauthenticated, PrismMessage.invalidCredentials)  // the merchant went since the call authenticated
        }
        if full {
            throw GRPCStatus(.resourceExhausted, PrismMessage.tooMany(prefix == Prefix.recipient ? "recipients" : "disburse accounts", Self.limit))
        }
        return id
    }
}
