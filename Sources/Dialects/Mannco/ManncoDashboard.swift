package import SandboxContract

/// Mannco on the dashboard: the Users view (`#/users`, `#/users/{id}` to edit one, through
/// `GET /sandbox/users` and `PUT /sandbox/users/{id}`), the Emails view (the outbox, `#/emails`,
/// `#/emails/{user}`), the emails of a Mannco cashout on its page, and a request form that logs in
/// with the chosen user's API key and posts `POST /cashout/process` with the JWT, as a client does.
/// Its element ids start with `mannco-`. Its files: Dashboard/ in this target.
enum ManncoDashboard {
    static let part = DashboardPart(form: form, views: [usersView, emailsView], cashoutCards: cashoutCard, style: style, script: script)

    /// What its files' placeholders stand for: the minimum and example amounts, the methods, the
    /// providers a user may link.
    static let values = [
        "MINIMUM_AMOUNT": "\(ManncoProcessRequest.minimumAmount)",
        "AMOUNT": "\(ManncoExample.amount)",
        "METHOD_OPTIONS": ManncoMethod.allCases.map { "<option>\($0.rawValue)</option>" }.joined(),
        "LINKED": ManncoProvider.allCases.map {
            #"<label><input type="checkbox" name="linked" value="\#($0.rawValue)" id="mannco-edit-linked-\#($0.rawValue)""#
                + #" data-testid="mannco-edit-linked-\#($0.rawValue)"> \#($0.title)</label>"#
        }.joined(separator: "\n"),
        "FOOTER": DashboardPart.formFooter(prefix: "mannco-new", requests: "Last requests"),
    ]

    static let usersView = DashboardView(name: "users", title: "Users", content: DashboardFile.text(PackageResources.users_html, filling: values))
    static let emailsView = DashboardView(name: "emails", title: "Emails", content: DashboardFile.text(PackageResources.emails_html))
    static let cashoutCard = DashboardFile.text(PackageResources.cashout_card_html)
    static let form = DashboardFile.text(PackageResources.form_html, filling: values)
    static let style = DashboardFile.text(PackageResources.style_css)
    /// Its users and emails views, the emails of a cashout's page, and the request form (log in with
    /// the user's API key, then POST /cashout/process).
    static let script = DashboardFile.text(PackageResources.script_js)
}

extension ManncoDialect: DashboardDialect {
    package var dashboard: DashboardPart { ManncoDashboard.part }
}
