extension Dashboard {
    /// The page, `GET /` (Resources/dashboard.html): a header with the clock, navigation, and one
    /// section per view, with what the payout APIs add (`parts`: the request forms of the `#/new`
    /// view, their own views, cards on a cashout's page) in place of its placeholders. The script
    /// fills the sections from the admin API; every element tests look for has an `id` or a
    /// `data-testid`.
    static func page(parts: [DashboardPart]) -> String {
        let views = [requestsView, webhooksView, reportView] + parts.flatMap(\.views)
        let links = views.map {
            ##"<a href="#/\##($0.name)" id="nav-\##($0.name)" data-testid="nav-\##($0.name)" data-view="\##($0.name)">\##($0.title)</a>"##
        }
        let sections = views.map {
            "<section id=\"view-\($0.name)\" data-testid=\"view-\($0.name)\" class=\"view\" hidden>\n\($0.content)\n</section>"
        }
        let forms = parts.compactMap(\.form)
        return DashboardFile.text(PackageResources.dashboard_html, filling: [
            "NAV_LINKS": links.joined(separator: "\n"),
            "CASHOUT_CARDS": parts.map(\.cashoutCards).joined(),
            "FORMS": forms.isEmpty ? #"<p class="empty">No payout API here offers a request form.</p>"# : forms.joined(),
            "VIEWS": sections.joined(separator: "\n"),
        ])
    }
}
