package import SandboxContract

/// D24's request form on the dashboard (Dashboard/form.html and script.js in this target): the
/// example Brazilian cashout's fields, sent as a signed `POST /v3/cashout` (the signature computed in
/// the page with the chosen merchant's secret). The first API's form, it keeps the ids `new-...` it
/// had when it was the only one.
enum D24DashboardForm {
    static let part = DashboardPart(form: form, script: DashboardFile.text(PackageResources.script_js))

    /// The fields the form is prefilled with, each the example's value (`__COUNTRY__`...).
    static let prefilled = ["country", "currency", "amount", "document_id", "document_type", "beneficiary_name", "beneficiary_lastname",
                            "bank_code", "bank_account", "bank_branch", "account_type"]

    static let form = DashboardFile.text(PackageResources.form_html, filling: Dictionary(
        uniqueKeysWithValues: prefilled.map { ($0.uppercased(), D24Example.value($0)) }
            + [("FOOTER", DashboardPart.formFooter(prefix: "new", requests: "Last request"))]))
}

extension D24Dialect: DashboardDialect {
    package var dashboard: DashboardPart { D24DashboardForm.part }
}
